"""The table screen (/t/<token>): the board, whose turn, the balances and the last actions on
the TV everyone sees."""

from __future__ import annotations

import hashlib
from functools import partial

from flask import Blueprint, g, render_template, request
from markupsafe import Markup

from .. import bank
from ..i18n import locale_name
from ..models import Game
from ..snapshots import worked_out
from . import fills, shared
from .filters import news, request_zone
from .pages import game_by_table_token, mark_players, page
from .present import NEWEST, board, everyone_sees, game_view, history, standings, waits_of

bp = Blueprint("table", __name__)

TABLE_HISTORY = NEWEST  # the last actions the table screen shows


@bp.get("/t/<token>")
def screen(token: str):
    game = game_by_table_token(token)
    bank.end_if_time_is_up(game)
    g.passing = shared.passes_through(game.id)  # its stream goes home: its squares stay there
    if request.args.get("fragment"):
        return shared.fetched(game.version, table_part(game, token))
    return table_part(game, token, fragment=False)


def table_part(game: Game, token: str, fragment: bool = True) -> str:
    """The table screen, or only its live part (`fragment`: what its stream sends)."""
    template = "table_live.html" if fragment else "table.html"
    return page(
        template,
        game,
        token=token,
        squares=partial(squares, game),
        throw=last_throw(last_actions(game)),
        waits=waits_of(game),
        fills=table_fills(game),
    )


def last_actions(game: Game) -> list[dict]:
    """The last actions the screen shows, worked out once per version (its part, its fills
    and its signature all ask)."""
    return worked_out(game, "table's last actions", lambda: history(game, limit=TABLE_HISTORY))


def last_throw(latest: list[dict]) -> dict | None:
    """The newest throw among the last actions still in force, which the screen names."""
    return next((e for e in latest if e["kind"] == "roll" and not e["undone"]), None)


def table_fills(game: Game) -> dict[str, Markup]:
    """What the table's live part puts in at each version (shared.fill), all a payment
    changes: the news said aloud, the balances (richest first) and the last actions. Worked
    out once per version, language and reader's zone (its times)."""
    key = ("table fills", locale_name(), request_zone())
    return worked_out(game, key, lambda: fills_of(game))


def fills_of(game: Game) -> dict[str, Markup]:
    view, edition = game_view(game), bank.edition_of(game)
    latest = last_actions(game)
    mark_players(view)
    players, ranked = view["players"], standings(game)
    balances = "".join(fills.balance_line(players[s], worth, edition) for s, worth in ranked)
    return {
        "news": news(latest[0] if latest else None, view["auction"], edition),
        "balances": Markup(balances),
        "history": fills.history_lines(latest, view["settings"]["time_zone"], own=False),
    }


def table_signature(game: Game) -> bytes:
    """Everything the table's live part shows but its fills, as plain values, digested: the
    same signature at two versions, the same part, so it is not drawn again."""
    view = game_view(game)
    throw = last_throw(last_actions(game))
    shown = (
        everyone_sees(game),
        board_shows(game),
        [(w.what, w.seat, w.space, w.figures) for w in waits_of(game)],
        (view["houses"], view["hotels"], view["pot"]),
        throw and (throw["seq"], throw["payload"]),
    )
    return hashlib.blake2b(repr(shown).encode(), digest_size=16).digest()


def squares(game: Game) -> Markup:
    """The board's squares, drawn once per board in the process (shared.piece): most
    actions move money, not tokens or deeds."""

    def drawn() -> str:
        language = bank.edition_of(game).language
        return render_template("_squares.html", cells=board(game), language=language)

    return shared.piece(board_shows(game), drawn)


def board_shows(game: Game) -> tuple:
    """Everything present.board draws the squares from, as plain values: the edition, each
    player's name, colour, square, jail and bankruptcy, each deed's owner, buildings and
    mortgage (a fraction of the cost of drawing the cells to compare them)."""
    state = bank.state_of(game)
    players = tuple((p.name, p.colour, p.position, p.in_jail, p.bankrupt) for p in state.players)
    deeds = tuple((i, d.owner, d.houses, d.mortgaged) for i, d in state.deeds.items())
    return "squares", bank.edition_of(game).id, players, deeds
