"""The rule book as code: no Flask, no database, no I/O, no clock."""

from .actions import KINDS, Kind, Movement, Outcome
from .edition import Edition, EditionError
from .errors import RuleError
from .log import UNDO, replay, standing
from .play import apply
from .rent import rent_due
from .setup import new_game
from .state import HOTEL, GameState
from .wealth import raisable, score, score_breakdown, total_worth

__all__ = [
    "KINDS",
    "Kind",
    "HOTEL",
    "UNDO",
    "Edition",
    "EditionError",
    "GameState",
    "Movement",
    "Outcome",
    "RuleError",
    "apply",
    "new_game",
    "raisable",
    "rent_due",
    "replay",
    "score",
    "score_breakdown",
    "standing",
    "total_worth",
]
