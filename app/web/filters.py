"""Template helpers: amounts in the edition's currency, a fresh idempotency key per form,
times in UTC for the browser to show in its reader's zone."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask


def register(app: Flask) -> None:
    @app.template_global()
    def new_key() -> str:
        return uuid.uuid4().hex

    @app.template_filter("utc_iso")
    def utc_iso(value: datetime | str) -> str:
        return as_utc(value).isoformat(timespec="seconds")

    @app.template_filter("clock")
    def clock(value: datetime | str, zone: str | None = None, with_date: bool = False) -> str:
        """The time as the page says it before app.js puts it in the reader's own zone: in
        the banker's zone when known, else in UTC, said so."""
        when = as_utc(value)
        try:
            when = when.astimezone(ZoneInfo(zone)) if zone else when
        except (ZoneInfoNotFoundError, ValueError):
            zone = None
        shown = when.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")
        return shown if zone else f"{shown} UTC"

    @app.template_filter("thousands")
    def thousands(amount: int) -> str:
        return f"{amount:,}"


def as_utc(value: datetime | str) -> datetime:
    """A stored time as UTC: a time without an offset (SQLite keeps none) is UTC already."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
