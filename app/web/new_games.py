"""A new game, from the new-game page or the API: what only the door can check (the rules core
has no clock) before the bank makes it."""

from __future__ import annotations

from datetime import UTC, datetime

from .. import bank
from ..models import Game
from ..rules import RuleError
from ..rules.setup import end_time_utc, valid_time, zone_of


def create_game(setup: dict) -> Game:
    refuse_a_past_end(setup)
    return bank.create_game(setup)


def refuse_a_past_end(setup: dict) -> None:
    """TL1: the end time is agreed before play; one already passed would end the game before
    its first throw. The rules core says what is wrong with an end time it cannot read."""
    if not isinstance(setup, dict) or setup.get("mode") != "timed":
        return
    ends_at = setup.get("ends_at")
    if not valid_time(ends_at):
        return
    end = datetime.fromisoformat(end_time_utc(ends_at, zone_of(setup)))
    if end <= datetime.now(UTC):
        raise RuleError("TL1", "The end time has already passed: choose a time still to come")
