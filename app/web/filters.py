"""Template helpers: amounts in the edition's currency, a fresh idempotency key per form."""

from __future__ import annotations

import uuid

from flask import Flask


def register(app: Flask) -> None:
    @app.template_global()
    def new_key() -> str:
        return uuid.uuid4().hex

    @app.template_filter("thousands")
    def thousands(amount: int) -> str:
        return f"{amount:,}"
