"""Sentences the bank says, kept as a template and its values so a page can translate them.

A template names its values in braces; `{amount:money}` prints an amount in the edition's
currency, `{most:,}` a plain number grouped as the reader's language writes it. `render` is
the one place that puts values into a template.
"""

from __future__ import annotations

import string
from collections.abc import Callable

Money = Callable[[int], str]


def N_(text: str) -> str:  # noqa: N802  (the usual name of gettext's no-op marker)
    """Marks words for translation where they are defined; they are translated when shown."""
    return text


def Np_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Marks a counted noun's two English forms for translation (ngettext's msgid pair)."""
    return singular, plural


# `{houses:houses}` in a template prints the count with its noun, singular or plural as the
# reader's language wants it ("1 house", "2 houses"; Japanese has one form).
COUNTED = {
    "houses": Np_("%(num)s house", "%(num)s houses"),
    "hotels": Np_("%(num)s hotel", "%(num)s hotels"),
    "deeds": Np_("%(num)s deed", "%(num)s deeds"),
    "players": Np_("%(num)s player", "%(num)s players"),
    "cards": Np_("%(num)s Get Out of Jail Free card", "%(num)s Get Out of Jail Free cards"),
}
Count = Callable[[str, str, int], str]
Number = Callable[[int], str]


def english_number(num: int) -> str:
    return f"{num:,}"


def english_count(singular: str, plural: str, num: int) -> str:
    return (singular if num == 1 else plural) % {"num": num}


class Phrase(str):
    """A value that is itself words to translate ("The amount"), not a name."""


# A logged line keeps its values as JSON, where a Phrase comes back as a plain string: the
# line names its Phrases under this key, so that the history translates them too.
PHRASES = "_phrases"


def logged(params: dict) -> dict:
    """A line's values as the log keeps them: its Phrases named under PHRASES."""
    phrases = [key for key, value in params.items() if isinstance(value, Phrase)]
    return {**params, PHRASES: phrases} if phrases else params


def is_phrase(key: str, value: object, params: dict) -> bool:
    return isinstance(value, Phrase) or key in params.get(PHRASES, ())


class _Formatter(string.Formatter):
    def __init__(self, money: Money, count: Count, number: Number) -> None:
        self.money = money
        self.count = count
        self.number = number

    def format_field(self, value: object, spec: str) -> str:
        if spec == "money":
            return self.money(value)
        if spec == "," and isinstance(value, int):
            return self.number(value)
        if spec in COUNTED and isinstance(value, int):
            return self.count(*COUNTED[spec], value)
        return super().format_field(value, spec)


def render(
    template: str,
    params: dict,
    money: Money,
    translate=lambda text: text,
    count: Count = english_count,
    number: Number = english_number,
) -> str:
    """The sentence in words: translated template first, then the values put in."""
    text = translate(template)
    if not params:
        return text
    values = {k: translate(v) if is_phrase(k, v, params) else v for k, v in params.items()}
    for candidate in (text, template):  # a faulty translation falls back to English
        try:
            return _Formatter(money, count, number).vformat(candidate, (), values)
        except (KeyError, IndexError, ValueError, TypeError):
            continue
    return template


def plain_money(amount: int) -> str:
    return f"{amount:,}"


def sentence(
    lines: list,
    money: Money,
    translate=lambda text: text,
    count: Count = english_count,
    number: Number = english_number,
    joiner: str = "; ",
) -> str:
    """An action's lines as one sentence: "Ana buys Boardwalk for $400; ..."."""
    text = joiner.join(
        render(template, params, money, translate, count, number) for template, params in lines
    )
    return text[:1].upper() + text[1:]
