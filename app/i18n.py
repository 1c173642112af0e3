"""Three languages, those of the rule books: English, Spanish and Japanese.

The choice comes from `?lang=` (kept in the session), else from the browser.
"""

from __future__ import annotations

from flask import Flask, g, request, session
from flask_babel import Babel, get_locale, get_translations

LANGUAGES = {"en": "English", "es": "Español", "ja": "日本語"}


def select_locale() -> str:
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        session["lang"] = chosen
        return chosen
    if session.get("lang") in LANGUAGES:
        return session["lang"]
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def translations():
    """The request's translations, found once per request: Flask-Babel looks them up again
    for each string of a template (half a dozen context lookups each, a tenth of drawing a
    live part). A request's language does not change while it is answered."""
    if not g:
        return get_translations()
    found = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


def locale_name() -> str:
    """The request's language as a key ("en", "ja"), found once per request like its
    translations."""
    if not g:
        return str(get_locale())
    found = g.get("locale_name")
    if found is None:
        found = g.locale_name = str(get_locale())
    return found


def register(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )

    @app.context_processor
    def languages() -> dict:
        return {"languages": LANGUAGES}
