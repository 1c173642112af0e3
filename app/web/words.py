"""The bank's sentences in the reader's language: the rules core's templates, translated."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from ..rules import Edition, RuleError
from ..rules.words import N_, sentence

__all__ = ["N_", "UNDO_PREFIX", "refused", "said"]


UNDO_PREFIX = N_("Undo:")


def said(lines: list | None, edition: Edition, fallback: str = "", undo: bool = False) -> str:
    """An action's sentence; `fallback` (the stored English) where no lines were kept."""
    if not lines:
        return fallback
    text = sentence(lines, edition.money, gettext, counted)
    return f"{gettext(UNDO_PREFIX)} {text}" if undo else text


def counted(singular: str, plural: str, num: int) -> str:
    """A count with its noun in the reader's language ("1 house", "2 casas", "2軒の家")."""
    return ngettext(singular, plural, num)


def refused(error: RuleError) -> str:
    return error.text(gettext)
