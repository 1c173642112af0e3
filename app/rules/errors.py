"""The one kind of refusal the rules core gives: which rule said no, and why in plain words."""

from __future__ import annotations

from .state import PlayerState
from .words import english_count, english_number, plain_money, render


class RuleError(Exception):
    """An action the rule book does not allow, or input the bank cannot read.

    `rule` is the rule id from the rule book (P1, K1, ...) or "input" for bad input. The
    message is a template with its values (see words.py), so a page can translate it; the
    values double as figures a page or the API may show (shortfall, raisable...).

    The player a refusal is about is given as `player=` their PlayerState: the words name
    them ("{player}"), and the figures give their seat under "player", as a request names a
    player, and their name under "name".
    """

    def __init__(self, rule: str, template: str, **params: object) -> None:
        super().__init__(template)
        self.rule = rule
        self.template = template
        player = params.get("player")
        if isinstance(player, PlayerState):
            params = {**params, "player": player.seat, "name": player.name}
        self.params = params
        self.money = plain_money  # the rules core sets the edition's own on the way out

    def __str__(self) -> str:
        return self.message

    @property
    def message(self) -> str:
        return self.text()

    def text(self, translate=lambda text: text, count=english_count, number=english_number) -> str:
        values = self.params
        if "name" in values:  # "{player}" in words is the player's name, not the seat
            values = {**values, "player": values["name"]}
        return render(self.template, values, self.money, translate, count, number)

    def to_dict(self) -> dict:
        return {"error": self.message, "rule": self.rule, **self.params}
