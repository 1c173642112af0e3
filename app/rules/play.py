"""One action applied to a game: the handler of its kind on a copy of the state, then the turn
moves on if nothing waits any more (turn.settle_turn).

`apply(state, edition, kind, payload)` returns an Outcome (the new state, what happened in
plain words, the money that moved) or raises RuleError and changes nothing.
"""

from __future__ import annotations

from . import auctions as _auctions  # noqa: F401  (each module registers its kinds)
from . import debts as _debts  # noqa: F401
from . import landing as _landing  # noqa: F401
from . import money as _money  # noqa: F401
from . import property as _property  # noqa: F401
from . import setup as _setup  # noqa: F401
from .actions import KINDS, Act, Outcome
from .edition import Edition
from .endgame import closed
from .errors import RuleError
from .state import GameState
from .turn import settle_turn
from .words import sentence


def apply(state: GameState, edition: Edition, kind: str, payload: dict) -> Outcome:
    refusal = closed(state)
    if refusal is not None:
        raise refusal  # K4, SG3, TL1 or the banker's word
    declared = KINDS.get(kind) if isinstance(kind, str) else None
    handler = declared.handler if declared else None
    if handler is None:
        raise RuleError("input", "Unknown action {kind}", kind=repr(kind))
    try:
        act = Act(state, edition, payload)
        handler(act)
    except RuleError as refusal:
        refusal.money = edition.money
        raise
    settle_turn(act.state)
    text = sentence(act.lines, edition.money)
    lines = [[template, params] for template, params in act.lines]
    return Outcome(act.state, text, act.movements, lines, frozenset(act.parties))
