"""The table screen (/t/<token>): the board, whose turn, the balances and the last actions on
the TV everyone sees."""

from __future__ import annotations

from flask import Blueprint, request

from .. import bank
from ..rules.moves import waits
from .pages import game_by_table_token, page
from .present import board, history, standings

bp = Blueprint("table", __name__)

TABLE_HISTORY = 6  # the last actions the table screen shows


@bp.get("/t/<token>")
def screen(token: str):
    return table_screen(token, fragment=bool(request.args.get("fragment")))


def table_screen(token: str, fragment: bool) -> str:
    game = game_by_table_token(token)
    template = "table_live.html" if fragment else "table.html"
    return page(
        template,
        game,
        token=token,
        ranks=standings(game),
        cells=board(game),
        latest=history(game, limit=TABLE_HISTORY),
        waits=waits(bank.state_of(game), bank.edition_of(game)),
    )
