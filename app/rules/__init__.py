"""The rule book as code: no Flask, no database, no I/O, no clock."""

from . import endgame as _endgame  # noqa: F401  (registers its actions)
from . import property as _property  # noqa: F401  (registers its actions)
from . import turn as _turn  # noqa: F401  (registers its actions)
from .actions import KINDS, Kind, Movement, Outcome, apply, new_game
from .edition import Edition, EditionError
from .errors import RuleError
from .log import UNDO, replay, standing, undo_target
from .rent import rent_due
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
    "undo_target",
]
