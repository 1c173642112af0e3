"""Three languages, those of the rule books: English, Spanish and Japanese.

The choice comes from `?lang=` (kept in the session), else from the browser.
"""

from __future__ import annotations

from flask import Flask, request, session
from flask_babel import Babel, get_locale

LANGUAGES = {"en": "English", "es": "Español", "ja": "日本語"}


def select_locale() -> str:
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        session["lang"] = chosen
        return chosen
    if session.get("lang") in LANGUAGES:
        return session["lang"]
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def register(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["get_locale"] = get_locale

    @app.context_processor
    def languages() -> dict:
        return {"languages": LANGUAGES}
