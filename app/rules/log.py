"""The action log folded into a state: replay, and which actions an undo takes back."""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Kind, declare
from .edition import Edition
from .play import apply
from .setup import new_game
from .state import GameState
from .words import N_

UNDO = "undo"
declare(Kind(UNDO, None, N_("Undo"), "takes back the latest action still in force", {}))


def standing(kinds: Iterable[str]) -> list[int]:
    """Positions in the log of the actions still in force: each undo takes back the latest."""
    stack: list[int] = []
    for position, kind in enumerate(kinds):
        if kind != UNDO:
            stack.append(position)
        elif stack:
            stack.pop()
    return stack


def replay(edition: Edition, setup: dict, log: list[tuple[str, dict]]) -> GameState:
    """The state the log describes: the setup, then every action still in force, in order."""
    state = new_game(edition, setup)
    kinds = [kind for kind, _ in log]
    for position in standing(kinds):
        kind, payload = log[position]
        state = apply(state, edition, kind, payload).state
    return state
