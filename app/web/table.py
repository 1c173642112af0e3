"""The table screen (/t/<token>): the board, whose turn, the balances and the last actions on
the TV everyone sees."""

from __future__ import annotations

from functools import partial

from flask import Blueprint, render_template, request
from markupsafe import Markup

from .. import bank
from ..models import Game
from . import shared
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
        squares=partial(squares, game),
        balance_row=partial(balance_row, game),
        latest=history(game, limit=TABLE_HISTORY),
        waits=waits_of(game),
    )


def balance_row(game: Game, player: dict, worth: int) -> Markup:
    """A player's line among the balances, drawn once per what it shows (shared.piece): an
    action moves one or two players' money, not the six lines."""
    shown = (player["seat"], player["name"], player["colour"], player["in_jail"], player["cash"])
    shows = ("balance row", game.edition, shown, worth)

    def drawn() -> str:
        edition = bank.edition_of(game)
        return render_template("_balance_row.html", p=player, worth=worth, edition=edition)

    return shared.piece(shows, drawn)


def squares(game: Game) -> Markup:
    """The board's squares, drawn once per board in the process (shared.piece): most
    actions move money, not tokens or deeds."""

    def drawn() -> str:
        return render_template("_squares.html", cells=board(game))

    return shared.piece(board_shows(game), drawn)


def board_shows(game: Game) -> tuple:
    """Everything present.board draws the squares from, as plain values: the edition, each
    player's name, colour, square, jail and bankruptcy, each deed's owner, buildings and
    mortgage (a fraction of the cost of drawing the cells to compare them)."""
    state = bank.state_of(game)
    players = tuple((p.name, p.colour, p.position, p.in_jail, p.bankrupt) for p in state.players)
    deeds = tuple((i, d.owner, d.houses, d.mortgaged) for i, d in state.deeds.items())
    return "squares", bank.edition_of(game).id, players, deeds
