"""Players' phones and the table screen: private links, QR codes, live pages."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable

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
from werkzeug.exceptions import HTTPException

from .. import bank, db_setup
from ..live import announce_keys, hand_over, keys_of, watcher
from ..models import Game, Player, db, new_token
from ..rules import KINDS, RuleError, rent_due, score
from ..rules.actions import TURNS
from ..rules.moves import waits
from . import turns
from .args import arg, whole
from .auth import fingerprint
from .banker import dashboard_fragment
from .pages import expected_version, load, offer, page, payload_from_form
from .present import board, history, history_page
from .words import refused, said

bp = Blueprint("players", __name__)

OWN_HISTORY = 20  # the latest actions a player's page shows; the rest a page at a time
TABLE_HISTORY = 6  # the last actions the table screen shows
STREAM_SECONDS = 300  # a stream ends after this; EventSource reconnects by itself
KEEPALIVE = 15
RETRY_LATER_MS = (2000, 10000)  # when a stream cannot open now: come back in 2 to 10 s


def drawing(app) -> threading.BoundedSemaphore:
    """The process's bound on live streams drawing at once (LIVE_DRAWS)."""
    bound = app.extensions.get("tablebank.drawing")
    if bound is None:
        bound = threading.BoundedSemaphore(app.config["LIVE_DRAWS"])
        bound = app.extensions.setdefault("tablebank.drawing", bound)
    return bound


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
        if pending.offered_to(seat):
            who = {"player": seat, "offer": pending.id}
            decline = offer(game, "trade_decline", who, style="danger")
            found.append((offer(game, "trade_accept", who), decline))
    return found


def own_field(game: Game, kind: str) -> str | None:
    """The field a phone's own seat goes in, for a kind a phone may send now: always (pay,
    bid, answer a trade, pay a debt), or while phones take their own turns (R1)."""
    declared = KINDS.get(kind)
    if declared is None or declared.phone is None:
        return None
    if declared.phone == TURNS and not bank.state_of(game).settings.phone_turns:
        return None
    return declared.own_seat


def phone_panels(game: Game, seat: int) -> list:
    """What waits for this seat, with only the answers its phone may send (a bid for
    anyone; with phone turns, its throw, its choices, its bankruptcy)."""
    found = []
    for panel in turns.panels(game, seat):
        panel.options = [o for o in panel.options if own_field(game, o.kind)]
        panel.cards = [c for c in panel.cards if own_field(game, c.option.kind)]
        panel.pad = panel.pad and own_field(game, "roll") is not None
        if panel.options or panel.cards or panel.pad or panel.what == "debt":
            found.append(panel)
    return found


@bp.get("/p/<token>")
def player_page(token: str):
    return player_screen(token, fragment=bool(request.args.get("fragment")))


def player_screen(token: str, fragment: bool) -> str:
    """The player's page, or only its live part (`fragment`)."""
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
        panels=phone_panels(game, seat),
        presets=turns.PRESETS[:4],
    )
    pad_to = url_for("players.player_turn", token=token)
    return page("player_live.html" if fragment else "phone.html", game, pad_to=pad_to, **context)


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
    """A player's phone acts for their own seat only, and only in the kinds a phone may send
    (own_field); a form drawn for an earlier moment says the turn was taken."""
    player = player_by_token(token)
    kind = request.form.get("kind", "")
    own = own_field(player.game, kind)
    if own is None:
        abort(403)
    back = url_for("players.player_page", token=token)
    try:
        payload = payload_from_form()
        payload[own] = player.seat
        done = phone_perform(player, kind, payload)
        flash(said(done.action.lines, bank.edition_of(done.game), done.action.text), "done")
    except RuleError as refusal:
        if refusal.rule == "stale":
            return page("turn_taken.html", bank.find(player.game_id), back=back, token=token), 409
        flash(refused(refusal), "error")
    return redirect(back)


@bp.post("/p/<token>/pay")
def player_pay(token: str):
    """Pay someone: the payee, then one tap on the amount (the bank or another player)."""
    player = player_by_token(token)
    form = request.form
    amount = form.get("typed") if form.get("amount") == "typed" else form.get("amount")
    to = form.get("to", "bank")
    kind, payload = turns.money_move(player.seat, "bank" if to == "from_bank" else to, amount)
    try:
        done = phone_perform(player, kind, payload)
        flash(said(done.action.lines, bank.edition_of(done.game), done.action.text), "done")
    except RuleError as refusal:
        flash(refused(refusal), "error")
    return redirect(url_for("players.player_page", token=token))


@bp.get("/p/<token>/turn")
def player_turn(token: str):
    """The player's own throw, with phone turns on: the same pad, the same rules; a page
    drawn for an earlier moment says the turn was taken."""
    player = player_by_token(token)
    game = player.game
    dice = whole(request.args.get("dice"))
    if dice is None or not 2 <= dice <= 12 or own_field(game, "roll") is None:
        return redirect(url_for("players.player_page", token=token))
    back = url_for("players.player_page", token=token)
    if turns.turn_taken(game, player.seat, whole(request.args.get("v"))):
        return page("turn_taken.html", game, back=back, token=token), 409
    doubles = request.args.get("doubles") == "1"
    me = bank.state_of(game).players[player.seat]
    landing = turns.dice_options(game, player.seat, dice, doubles)
    return page("phone_turn.html", game, token=token, who=me, dice=dice, doubles=doubles, **landing)


def phone_perform(player: Player, kind: str, payload: dict):
    return bank.perform(
        player.game_id,
        kind,
        payload,
        actor=f"player:{player.seat}",
        key=request.form.get("key") or None,
        expected_version=expected_version(),
    )


@bp.get("/p/<token>/preview")
def player_preview(token: str):
    player = player_by_token(token)
    to = request.args.get("to")
    kind = request.args.get("kind") or ("bank_collect" if to == "bank" else "transfer")
    own = own_field(player.game, kind)
    if own is None:
        abort(403)
    fields = {k: v for k, v in request.args.items() if k not in ("kind", "typed") and v != "bank"}
    if fields.get("amount") == "typed":  # "Pay someone": the amount typed, not a preset
        fields["amount"] = request.args.get("typed", "")
    fields[own] = player.seat
    option = offer(player.game, kind, fields)
    return page("phone_confirm.html", player.game, option=option, token=token, seat=player.seat)


# -- the table screen ----------------------------------------------------------------------


@bp.get("/t/<token>")
def table(token: str):
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


# -- live streams ----------------------------------------------------------------------------


def stream(game: Game, draw: Callable[[], str], allowed: Callable[[], bool]) -> Response:
    """Server-Sent Events: at each new version, the page's live part drawn afresh by `draw`
    (the same HTML as the page's `?fragment=1`, in this request's language), so the page
    needs no second request. The stream holds a database connection only while drawing and,
    under gevent, no thread; it ends after STREAM_SECONDS and the browser reconnects by
    itself, saying the last version it heard. When the game's keys change, `allowed()` says
    whether what opened the stream (a link, a banker key) still holds: if not, the stream
    says `gone` and ends (the page reloads and shows why). A database that cannot be reached
    ends it with a later retry, never an error once the answer has started."""
    live = watcher(current_app._get_current_object())
    game_id = game.id
    heard = [whole(request.args.get("v")), whole(request.headers.get("Last-Event-ID"))]
    seen = max((v for v in heard if v is not None), default=-1)
    db.session.remove()

    def events():
        yield "retry: 1000\n\n"  # the answer has started: from here on, no error status
        with live.follow(game_id) as followed:
            keys = followed.keys  # from here on, a change of keys wakes this stream
            try:
                opened = opening(game_id, allowed)
            except db_setup.UNAVAILABLE:
                yield retry_later()
                return
            if opened is None:
                yield GONE
                return
            live.revoke(game_id, opened[1])  # the keys as they were when it opened
            live.bump(game_id, opened[0])  # what happened before we followed
            last, stop = seen, time.monotonic() + STREAM_SECONDS
            while time.monotonic() < stop and not live.stopped.is_set():
                version, cash, now_keys = live.wait(followed, last, KEEPALIVE, keys)
                if now_keys != keys:
                    keys = now_keys
                    if not still_allowed(allowed):
                        yield GONE
                        return
                if version > last:
                    if cash is not None:
                        yield cash_event(version, cash)  # sent before the drawing starts
                        hand_over()
                    last, event = news(game_id, version, draw)
                    if event is GONE:
                        yield GONE
                        return
                    yield event
                else:
                    yield ": still here\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=headers)


GONE = "event: gone\ndata: \n\n"  # what opened the stream no longer holds


def opening(game_id: str, allowed: Callable[[], bool]) -> tuple[int, str] | None:
    """The game's version and keys' fingerprint as the stream opens, or None if what opened
    it no longer holds. The keys are read first: a change after that read is seen either by
    `allowed` or by the next sweep against this fingerprint."""
    try:
        keys = keys_of(db.session, game_id)
        if not allowed():
            return None
        return version_of(game_id), keys
    finally:
        db.session.remove()


def allowed_now(allowed: Callable[[], bool]) -> bool:
    try:
        return allowed()
    finally:
        db.session.remove()


def still_allowed(allowed: Callable[[], bool]) -> bool:
    """Whether the stream may go on; a database that cannot say keeps it going (the sweep
    and the next change look again)."""
    try:
        return allowed_now(allowed)
    except db_setup.UNAVAILABLE:
        return True


def retry_later() -> str:
    """The browser's EventSource comes back after a while, spread so that a thousand pages
    turned away at once do not all come back at once."""
    return f"retry: {random.randint(*RETRY_LATER_MS)}\n\n"


def retry_stream() -> Response:
    """The answer to a stream that cannot open now (no pooled connection, the deadline): a
    stream that only says when to come back, instead of an error status, after which
    EventSource would give up."""
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(retry_later(), mimetype="text/event-stream", headers=headers)


def news(game_id: str, version: int, draw: Callable[[], str]) -> tuple[int, str]:
    """The event for a new version: the live part as it is now, and a version it shows at
    least (read before drawing: a later action is sent again, never skipped); "version N is
    out" if it cannot be drawn here, and the page fetches it as it would when polling; GONE
    if the page's link or key no longer opens it."""
    try:
        with drawing(current_app):
            drawn = version_of(game_id)
            html = draw()  # on the same checkout: one pre-ping, not two
    except HTTPException as refused:  # 403, 404: the page is no longer this device's
        if refused.code in (403, 404):
            return version, GONE
        return version, f"id: {version}\nevent: version\ndata: {version}\n\n"
    except db_setup.UNAVAILABLE:
        return version, f"id: {version}\nevent: version\ndata: {version}\n\n"
    except Exception:  # noqa: BLE001  a bad row: the page's own fetch says why
        current_app.logger.exception("live: could not draw game %s", game_id)
        return version, f"id: {version}\nevent: version\ndata: {version}\n\n"
    finally:
        db.session.remove()  # no connection held between two events
    drawn = max(drawn, version)
    lines = "".join(f"data: {line}\n" for line in html.splitlines())
    return drawn, f"id: {drawn}\nevent: live\n{lines}\n"


def cash_event(version: int, cash: list[str]) -> str:
    """Every player's cash at `version`, ahead of the live part: the page puts each figure
    where it shows that seat's cash (no id: the live part that follows still has to come)."""
    return f"event: cash\ndata: {json.dumps({'version': version, 'cash': cash})}\n\n"


def version_of(game_id: str) -> int:
    return db.session.scalar(select(Game.version).where(Game.id == game_id)) or 0


@bp.get("/p/<token>/live")
def player_live(token: str):
    return stream(
        player_by_token(token).game,
        lambda: player_screen(token, fragment=True),
        lambda: token_holds(Player.token, token),
    )


@bp.get("/t/<token>/live")
def table_live(token: str):
    return stream(
        game_by_table_token(token),
        lambda: table_screen(token, fragment=True),
        lambda: token_holds(Game.table_token, token),
    )


@bp.get("/g/<game_id>/live")
def banker_live(game_id: str):
    return banker_stream(game_id, lambda: dashboard_fragment(bank.find(game_id)))


def banker_stream(game_id: str, draw: Callable[[], str]) -> Response:
    """A banker's page's stream: it ends when the banker key it was let in with changes."""
    game = load(game_id)
    opened_with = fingerprint(game)
    return stream(game, draw, lambda: fingerprint(bank.find(game_id)) == opened_with)


def token_holds(column, token: str) -> bool:
    return db.session.scalar(select(column).where(column == token)) is not None


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
        phone_turns=offer(game, "phone_turns", {"allow": not state_turns(game)}, style="secondary"),
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


def state_turns(game: Game) -> bool:
    return bank.state_of(game).settings.phone_turns


@bp.post("/g/<game_id>/codes/<int:seat>/new")
def new_link(game_id: str, seat: int):
    """A lost phone: a new token for the player; the old link stops working at once."""
    game = load(game_id)
    player = seat_player(game, seat)
    player.token = new_token()
    announce_keys(db.session, game_id)  # the old link's open pages, in every process
    db.session.commit()
    watcher(current_app._get_current_object()).revoke(game_id)
    name = bank.state_of(game).players[seat].name
    flash(_("New link for %(player)s: the old one no longer works", player=name))
    return redirect(url_for("players.codes", game_id=game_id) + f"#seat{seat}")
