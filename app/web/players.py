"""Players' phones and the table screen: private links, QR codes, live pages."""

from __future__ import annotations

import time

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from .. import bank
from ..live import watcher
from ..models import Game, Player, db, new_token
from ..rules import KINDS, RuleError, rent_due, score
from .args import arg, whole
from .banker import expected_version, load, offer, page, payload_from_form
from .present import CELL, board, history, history_page
from .words import refused, said

bp = Blueprint("players", __name__)

# What a player's own phone may do (declared with each kind), and the field set to their seat.
PLAYER_ACTIONS = {kind.name: kind.own_seat for kind in KINDS.values() if kind.own_seat}
OWN_HISTORY = 20  # the latest actions a player's page shows; the rest a page at a time
TABLE_HISTORY = 6  # the last actions the table screen shows
STREAM_SECONDS = 300  # a stream ends after this; EventSource reconnects by itself
KEEPALIVE = 15


def qr_svg(url: str) -> Markup:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


def player_by_token(token: str) -> Player:
    query = select(Player).where(Player.token == token).options(joinedload(Player.game))
    found = db.session.scalars(query).one_or_none()
    if found is None:
        abort(404)
    return found


def game_by_table_token(token: str) -> Game:
    found = db.session.scalars(select(Game).where(Game.table_token == token)).one_or_none()
    if found is None:
        abort(404)
    return found


def standings(game: Game) -> list[tuple[int, int]]:
    """(seat, SG4 score) of the players still in, richest first."""
    state, edition = bank.state_of(game), bank.edition_of(game)
    ranked = [(p.seat, score(state, edition, p.seat)) for p in state.in_play()]
    return sorted(ranked, key=lambda pair: pair[1], reverse=True)


# -- the player's own page -----------------------------------------------------------------


def offers_to(game: Game, state, seat: int) -> list[tuple]:
    """Trades offered to this player: what accepting does, and the way to say no."""
    found = []
    for pending in state.offers:
        if str(pending["trade"]["partner"]) == str(seat):
            who = {"player": seat, "offer": pending["id"]}
            decline = offer(game, "trade_decline", who, style="danger")
            found.append((offer(game, "trade_accept", who), decline))
    return found


@bp.get("/p/<token>")
def player_page(token: str):
    player = player_by_token(token)
    game = player.game
    state, edition = bank.state_of(game), bank.edition_of(game)
    seat = player.seat
    ranks = [s for s, _ in standings(game)]
    groups = {}
    for index in state.held_by(seat):
        space = edition.spaces[index]
        rent = rent_due(state, edition, index, dice=7)
        groups.setdefault(space.group, []).append((space, state.deeds[index], rent))
    context = dict(
        seat=seat,
        token=token,
        groups=groups,
        rank=ranks.index(seat) + 1 if seat in ranks else None,
        worth=score(state, edition, seat),
        mine=history(game, limit=OWN_HISTORY, seat=seat),
        own_history=OWN_HISTORY,
        auction=state.auction,
        offers=offers_to(game, state, seat),
    )
    if request.args.get("fragment"):
        return page("player_live.html", game, **context)
    return page("phone.html", game, **context)


@bp.get("/p/<token>/history")
def player_history(token: str):
    """Everything that concerned the player, a page at a time, newest first."""
    player = player_by_token(token)
    entries, older = history_page(player.game, arg("before"), seat=player.seat)
    return page(
        "phone_history.html",
        player.game,
        seat=player.seat,
        token=token,
        entries=entries,
        older=older,
    )


@bp.post("/p/<token>/do")
def player_do(token: str):
    """A player may spend only their own money and bid: nothing else, for nobody else."""
    player = player_by_token(token)
    kind = request.form.get("kind", "")
    if kind not in PLAYER_ACTIONS:
        abort(403)
    try:
        payload = payload_from_form()
        payload[PLAYER_ACTIONS[kind]] = player.seat
        done = bank.perform(
            player.game_id,
            kind,
            payload,
            actor=f"player:{player.seat}",
            key=request.form.get("key") or None,
            expected_version=expected_version(),
        )
        flash(said(done.action.lines, bank.edition_of(done.game), done.action.text), "done")
    except RuleError as refusal:
        flash(refused(refusal), "error")
    return redirect(url_for("players.player_page", token=token))


@bp.get("/p/<token>/preview")
def player_preview(token: str):
    player = player_by_token(token)
    to = request.args.get("to")
    kind = request.args.get("kind") or ("bank_collect" if to == "bank" else "transfer")
    if kind not in PLAYER_ACTIONS:
        abort(403)
    fields = {k: v for k, v in request.args.items() if k not in ("kind",) and v != "bank"}
    fields[PLAYER_ACTIONS[kind]] = player.seat
    option = offer(player.game, kind, fields)
    return page("phone_confirm.html", player.game, option=option, token=token, seat=player.seat)


# -- the table screen ----------------------------------------------------------------------


@bp.get("/t/<token>")
def table(token: str):
    game = game_by_table_token(token)
    template = "table_live.html" if request.args.get("fragment") else "table.html"
    return page(
        template,
        game,
        token=token,
        ranks=standings(game),
        cells=board(game),
        cell=CELL,
        latest=history(game, limit=TABLE_HISTORY),
    )


# -- live streams ----------------------------------------------------------------------------


def stream(game: Game) -> Response:
    """Server-Sent Events: "version N is out"; the page then fetches what changed. The stream
    holds no database connection and, under gevent, no thread; it ends after STREAM_SECONDS
    and the browser reconnects by itself, saying the last version it heard."""
    live = watcher(current_app._get_current_object())
    game_id = game.id
    heard = [whole(request.args.get("v")), whole(request.headers.get("Last-Event-ID"))]
    seen = max((v for v in heard if v is not None), default=-1)
    db.session.remove()

    def events():
        with live.follow(game_id) as followed:
            live.bump(game_id, version_now(game_id))  # what happened before we followed
            last, stop = seen, time.monotonic() + STREAM_SECONDS
            yield "retry: 1000\n\n"
            while time.monotonic() < stop and not live.stopped.is_set():
                version = live.wait(followed, last, KEEPALIVE)
                if version > last:
                    last = version
                    yield f"id: {version}\nevent: version\ndata: {version}\n\n"
                else:
                    yield ": still here\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=headers)


def version_now(game_id: str) -> int:
    try:
        return db.session.scalar(select(Game.version).where(Game.id == game_id)) or 0
    finally:
        db.session.remove()  # the stream goes on without a database connection


@bp.get("/p/<token>/live")
def player_live(token: str):
    return stream(player_by_token(token).game)


@bp.get("/t/<token>/live")
def table_live(token: str):
    return stream(game_by_table_token(token))


@bp.get("/g/<game_id>/live")
def banker_live(game_id: str):
    return stream(load(game_id))


# -- links and QR codes on the banker's phone --------------------------------------------------


def links(game: Game) -> list[dict]:
    state = bank.state_of(game)
    rows = []
    for player in game.players:
        url = url_for("players.player_page", token=player.token, _external=True)
        rows.append({"player": state.players[player.seat], "url": url, "qr": qr_svg(url)})
    return rows


def banker_link(game: Game) -> str:
    """The banker's way back in: opening it on any phone makes that phone the banker's."""
    return url_for("banker.dashboard", game_id=game.id, key=game.banker_key, _external=True)


@bp.get("/g/<game_id>/codes")
def codes(game_id: str):
    game = load(game_id)
    table_url = url_for("players.table", token=game.table_token, _external=True)
    printable = request.args.get("print") == "1"
    return page(
        "codes.html",
        game,
        rows=links(game),
        table_url=table_url,
        table_qr=qr_svg(table_url),
        banker_url=banker_link(game),
        banker_qr=qr_svg(banker_link(game)),
        printable=printable,
    )


@bp.app_template_global()
def banker_recovery(game: Game) -> dict:
    """The banker link and its QR, shown once when a game starts (to print or screenshot)."""
    link = banker_link(game)
    return {"url": link, "qr": qr_svg(link)}


def seat_player(game: Game, seat: int) -> Player:
    player = next((p for p in game.players if p.seat == seat), None)
    if player is None:
        abort(404)
    return player


@bp.get("/g/<game_id>/codes/<int:seat>/new")
def new_link_confirm(game_id: str, seat: int):
    """A lost phone, asked first: one mis-tap must not cut a player off."""
    game = load(game_id)
    seat_player(game, seat)
    return page("new_link.html", game, who=bank.state_of(game).players[seat])


@bp.post("/g/<game_id>/codes/<int:seat>/new")
def new_link(game_id: str, seat: int):
    """A lost phone: a new token for the player; the old link stops working at once."""
    game = load(game_id)
    player = seat_player(game, seat)
    player.token = new_token()
    db.session.commit()
    name = bank.state_of(game).players[seat].name
    flash(_("New link for %(player)s: the old one no longer works", player=name))
    return redirect(url_for("players.codes", game_id=game_id) + f"#seat{seat}")
