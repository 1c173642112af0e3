"""Sentences the bank says, kept as a template and its values so a page can translate them.

A template names its values in braces; `{amount:money}` prints an amount in the edition's
currency. `render` is the one place that puts values into a template.
"""

from __future__ import annotations

import string
from collections.abc import Callable

Money = Callable[[int], str]


def N_(text: str) -> str:  # noqa: N802  (the usual name of gettext's no-op marker)
    """Marks words for translation where they are defined; they are translated when shown."""
    return text


class Phrase(str):
    """A value that is itself words to translate ("The amount"), not a name."""


class _Formatter(string.Formatter):
    def __init__(self, money: Money) -> None:
        self.money = money

    def format_field(self, value: object, spec: str) -> str:
        if spec == "money":
            return self.money(value)
        return super().format_field(value, spec)


def render(template: str, params: dict, money: Money, translate=lambda text: text) -> str:
    """The sentence in words: translated template first, then the values put in."""
    text = translate(template)
    if not params:
        return text
    values = {k: translate(v) if isinstance(v, Phrase) else v for k, v in params.items()}
    for candidate in (text, template):  # a faulty translation falls back to English
        try:
            return _Formatter(money).vformat(candidate, (), values)
        except (KeyError, IndexError, ValueError, TypeError):
            continue
    return template


def plain_money(amount: int) -> str:
    return f"{amount:,}"


def sentence(lines: list, money: Money, translate=lambda text: text) -> str:
    """An action's lines as one sentence: "Ana buys Boardwalk for $400; ..."."""
    text = "; ".join(render(template, params, money, translate) for template, params in lines)
    return text[:1].upper() + text[1:]
