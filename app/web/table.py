"""The table screen (/t/<token>): the board, whose turn, the balances and the last actions on
the TV everyone sees."""

from __future__ import annotations

from collections import OrderedDict

from flask import Blueprint, g, render_template, request
from markupsafe import Markup

from .. import bank
from ..i18n import locale_name
from ..models import Game
from .pages import game_by_table_token, page
from .present import NEWEST, board, history, standings, waits_of

bp = Blueprint("table", __name__)

TABLE_HISTORY = NEWEST  # the last actions the table screen shows


@bp.get("/t/<token>")
def screen(token: str):
    game = game_by_table_token(token)
    bank.end_if_time_is_up(game)
    return table_part(game, token, fragment=bool(request.args.get("fragment")))


def table_part(game: Game, token: str, fragment: bool = True) -> str:
    """The table screen, or only its live part (`fragment`: what its stream sends)."""
    template = "table_live.html" if fragment else "table.html"
    return page(
        template,
        game,
        token=token,
        ranks=standings(game),
        squares=lambda: squares(board(game)),
        latest=history(game, limit=TABLE_HISTORY),
        waits=waits_of(game),
    )


SQUARES_KEPT = 256
_squares: OrderedDict[tuple, Markup] = OrderedDict()


def squares(cells: list[dict]) -> Markup:
    """The board's squares, drawn once per board (in a language, with the players' token
    letters) in the process: most actions move money, not tokens or deeds."""
    shown = [
        {**cell, "tokens": [(p.seat, p.name, p.colour, p.in_jail) for p in cell["tokens"]]}
        for cell in cells
    ]  # what the squares show of the players on them
    key = (repr(shown), locale_name(), tuple(g.get("marks") or ()))  # plain values
    found = _squares.get(key)
    if found is None:
        found = Markup(render_template("_squares.html", cells=cells))
        _squares[key] = found
        while len(_squares) > SQUARES_KEPT:
            _squares.popitem(last=False)
    return found
