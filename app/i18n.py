"""Three languages, those of the rule books: English, Spanish and Japanese.

The choice comes from `?lang=` (kept in the session), else from the browser.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale
from flask import Flask, g, request, session
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_eval_context
from markupsafe import Markup

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
    try:
        return g.translations
    except AttributeError:  # the request's first string
        found = g.translations = get_translations()
        return found
    except RuntimeError:  # no app context: nothing to keep it in
        return get_translations()


def locale_name() -> str:
    """The request's language as a key ("en", "ja"), found once per request like its
    translations."""
    if not g:
        return str(get_locale())
    found = g.get("locale_name")
    if found is None:
        found = g.locale_name = str(get_locale())
    return found


@lru_cache(maxsize=16)
def parsed(language: str) -> Locale:
    """A language as Babel's Locale, parsed once per process: a live stream forces its
    reader's at every wake (web/carried.py)."""
    return Locale.parse(language)


# A template's words without values, as the page shows them, per catalogue: the same few
# hundred strings are looked up at every drawing. Bounded: `_(name)` of an edition's data is
# looked up too.
SAID_MOST = 4096
_said: dict[tuple, Markup] = {}


@pass_eval_context
def template_gettext(eval_ctx, string: str, **variables) -> str:
    """`_()` and `gettext()` in a template, as Jinja's newstyle gettext answers (the words
    in the reader's language, escaped as markup, then filled with `variables`), in one call
    instead of three, with the words without values kept."""
    said = translations()
    if not eval_ctx.autoescape:
        return said.ugettext(string) % variables
    if variables:
        return Markup(said.ugettext(string)) % variables
    key = (said, string)
    found = _said.get(key)
    if found is None:
        found = Markup(said.ugettext(string)) % {}  # "%%" is "%", as with values
        if len(_said) < SAID_MOST:
            _said[key] = found
    return found


@pass_eval_context
def template_ngettext(eval_ctx, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    words = translations().ungettext(singular, plural, num)
    return (Markup(words) if eval_ctx.autoescape else words) % variables


def register(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    env = app.jinja_env
    env.globals["get_locale"] = get_locale
    # Jinja's newstyle callables: `{% trans %}` is compiled for them, and pgettext and
    # npgettext stay Jinja's; `_`, gettext and ngettext are the one-call versions above.
    env.install_gettext_callables(
        gettext=template_gettext,
        ngettext=template_ngettext,
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)

    @app.context_processor
    def languages() -> dict:
        return {"languages": LANGUAGES}
