"""Numbers from query strings and form fields, read one way everywhere: plain digits only,
at most DIGITS of them; anything else is no number (never an error page)."""

from __future__ import annotations

from flask import request

from ..rules import GameState

DIGITS = 12


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
