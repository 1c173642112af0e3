"""What a request brings besides a JSON body, read one way everywhere.

- Numbers from query strings and form fields: plain digits only, at most DIGITS of them;
  anything else is no number (never an error page).
- Text: every query argument, form field and header is checked once, before any view runs
  (`refuse_bad_text`): form and query text is what `inputs.clean_text` accepts (no control
  character, lone surrogate or noncharacter, bounded in length and in combining marks), a
  header holds what RFC 9110 allows (visible characters, spaces, tabs). Anything else is a 400
  with words (JSON under /api/, else the error page), before anything is read or written.
"""

from __future__ import annotations

import re

from flask import jsonify, request

from ..inputs import clean_text
from ..rules import GameState, RuleError
from ..serving import is_api
from .words import refused

DIGITS = 12
HEADER_MAX = 8192  # what gunicorn and gevent accept in one header line
NOT_IN_A_HEADER = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


def whole(text: object) -> int | None:
    """A whole number written as plain digits ("12"), else None ("", "+1", "1e3", "٣")."""
    if isinstance(text, str) and 0 < len(text) <= DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def wholes(texts: list[str]) -> list[int]:
    return [n for n in map(whole, texts) if n is not None]


def seat_of(text: object, state: GameState) -> int | None:
    """A seat at this table, else None."""
    seat = whole(text)
    return seat if seat is not None and seat < len(state.players) else None


LARGEST = 2**31 - 1  # the database's integer columns hold no more


def arg(name: str) -> int | None:
    """A whole-number query argument of the request (None when no column could hold it)."""
    found = whole(request.args.get(name, ""))
    return found if found is None or found <= LARGEST else None


# -- text ----------------------------------------------------------------------------------


def check_text() -> None:
    """RuleError("input") for the first query argument, form field or header that is not
    text the app may take."""
    sources = [request.args]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        sources.append(request.form)
    for fields in sources:
        for name, value in fields.items(multi=True):
            clean_text(name, "(a field's name)")
            clean_text(value, name)
    for name, value in request.headers.items():
        if len(value) > HEADER_MAX or NOT_IN_A_HEADER.search(value):
            raise RuleError("input", "The header {field} is not valid", field=name[:60])


def refuse_bad_text():
    """before_request: a 400 with words for text the app does not take, before any view."""
    try:
        check_text()
    except RuleError as refusal:
        if is_api(request.path):
            return jsonify(refusal.to_dict()), 400
        from .errors import error_page_for

        return error_page_for(400, detail=refused(refusal))
    return None
