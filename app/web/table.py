"""The table screen (/t/<token>): the board, whose turn, the balances and the last actions on
the TV everyone sees."""

from __future__ import annotations

from flask import Blueprint, request

from ..models import Game
from .pages import game_by_table_token, page
from .present import board, history, standings, waits_of

bp = Blueprint("table", __name__)

TABLE_HISTORY = 6  # the last actions the table screen shows


@bp.get("/t/<token>")
def screen(token: str):
    game = game_by_table_token(token)
    return table_part(game, token, fragment=bool(request.args.get("fragment")))


def table_part(game: Game, token: str, fragment: bool = True) -> str:
    """The table screen, or only its live part (`fragment`: what its stream sends)."""
    template = "table_live.html" if fragment else "table.html"
    return page(
        template,
        game,
        token=token,
        ranks=standings(game),
        cells=board(game),
        latest=history(game, limit=TABLE_HISTORY),
        waits=waits_of(game),
    )
