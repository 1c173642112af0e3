"""The end of a game: the last player left (K4), the second bankruptcy of a short game (SG3),
the agreed time (TL1) or the banker's word; scored by SG4 (wealth.py)."""

from __future__ import annotations

from .actions import Act, action
from .words import N_


def end(act: Act) -> None:
    act.state.ended, act.state.auction, act.state.to_auction = True, None, []
    act.state.pending = []
    act.say("the game ends")


@action("end_game", label=N_("End the game"), rules="TL1, SG4")
def end_game(act: Act) -> None:
    """TL1: the end time has come, or the banker ends the game early; scored by SG4."""
    end(act)
