"""The end of a game: the last player left (K4), the second bankruptcy of a short game (SG3),
the agreed time (TL1) or the banker's word; scored by SG4 (wealth.py)."""

from __future__ import annotations

from .actions import Act, action
from .errors import RuleError
from .property import keep_what_waits
from .state import DEBT, GameState
from .words import N_


def end(act: Act) -> None:
    """Nothing waits any more, but an open debt stays owed: the scores count it (SG4, K1). A
    mortgaged deed's new owner still to choose keeps it, paying the 10% or owing it (M4);
    the auction dropped first, so the cash a bid kept is free for it (P1)."""
    act.state.ended, act.state.auction, act.state.to_auction = True, None, []
    if act.state.settings.received_kept_at_end:
        keep_what_waits(act)
    act.state.pending = act.state.waiting(DEBT)
    act.say("the game ends")


@action(
    "end_game",
    label=N_("End the game"),
    rules="TL1, SG4; M4: a choice still waiting is kept mortgaged, its 10% paid or owed",
)
def end_game(act: Act) -> None:
    """TL1: the end time has come, or the banker ends the game early; scored by SG4."""
    end(act)


def closed(state: GameState) -> RuleError | None:
    """Why no action can be done in the game now (`apply` refuses every one by it): the game
    has ended (`ended`); None while it is played."""
    return ended(state) if state.ended else None


def ended(state: GameState) -> RuleError:
    """The refusal of any action once the game has ended, naming the rule that ended it: the
    second bankruptcy of a short game (SG3), the last player left (K4), a time-limited game's
    end, at its time or by the banker's word (TL1), else the banker's word (scored by SG4)."""
    left = state.in_play()
    if state.settings.mode == "short" and state.bankruptcies >= 2:
        return RuleError("SG3", "The second bankruptcy has ended this short game. See the results.")
    if len(left) == 1:
        return RuleError(
            "K4", "{player} is the last player left: the game has ended.", player=left[0]
        )
    if state.settings.mode == "timed":
        return RuleError("TL1", "This time-limited game has ended. See the results.")
    return RuleError("SG4", "The banker ended this game: the richest won. See the results.")
