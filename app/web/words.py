"""The bank's sentences in the reader's language: the rules core's templates, translated."""

from __future__ import annotations

from flask_babel import format_decimal, gettext, ngettext

from ..rules import Edition, RuleError
from ..rules.words import N_, sentence

__all__ = ["N_", "UNDO_PREFIX", "edition_name", "refused", "said"]


UNDO_PREFIX = N_("Undo:")
# Between two things one action did ("Ana lands on Boardwalk; Ana buys Boardwalk"): each is a
# whole sentence, and Japanese ends one with "。", not a semicolon.
LINES_JOINED = N_("; ")

# The product's own editions' names (app/editions/*.json), for the catalogues: a page writes
# them in the reader's language. A custom edition's name is shown as its file gives it.
EDITION_NAMES = (
    N_("España"),
    N_("United Kingdom"),
    N_("United States (since 2008)"),
    N_("United States (classic, before 2008)"),
)


# The colour groups of the product's own English editions, for the catalogues: a group's
# name is a colour, not words printed on the board, so a page writes it in the reader's
# language (the rules core passes it as a Phrase). A custom edition's are shown as given.
GROUP_NAMES = (
    N_("Brown"),
    N_("Light blue"),
    N_("Pink"),
    N_("Orange"),
    N_("Red"),
    N_("Yellow"),
    N_("Green"),
    N_("Dark blue"),
    N_("Railroads"),
    N_("Stations"),
    N_("Utilities"),
)


def edition_name(edition: Edition) -> str:
    return gettext(edition.name)


def said(lines: list | None, edition: Edition, fallback: str = "", undo: bool = False) -> str:
    """An action's sentence; `fallback` (the stored English) where no lines were kept."""
    if not lines:
        return fallback
    text = sentence(lines, edition.money, gettext, counted, grouped, gettext(LINES_JOINED))
    return f"{gettext(UNDO_PREFIX)} {text}" if undo else text


def counted(singular: str, plural: str, num: int) -> str:
    """A count with its noun in the reader's language ("1 house", "2 casas", "2軒の家")."""
    return ngettext(singular, plural, num)


def grouped(num: int) -> str:
    """A plain number as the reader's language writes it ("1,000,000", "1.000.000")."""
    return format_decimal(num)


def refused(error: RuleError) -> str:
    return error.text(gettext, counted, grouped)
