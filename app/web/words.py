"""The bank's sentences in the reader's language: the rules core's templates, translated."""

from __future__ import annotations

from flask_babel import gettext

from ..rules import Edition, RuleError
from ..rules.words import N_, sentence

__all__ = ["N_", "UNDO_PREFIX", "refused", "said"]


UNDO_PREFIX = N_("Undo:")


def said(lines: list | None, edition: Edition, fallback: str = "", undo: bool = False) -> str:
    """An action's sentence; `fallback` (the stored English) where no lines were kept."""
    if not lines:
        return fallback
    text = sentence(lines, edition.money, gettext)
    return f"{gettext(UNDO_PREFIX)} {text}" if undo else text


def refused(error: RuleError) -> str:
    return error.text(gettext)
