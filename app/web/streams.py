"""Live pages' streams (Server-Sent Events): a player's phone, the table screen, the banker's
dashboard and auction page, each redrawn at every new version of its game."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable

from flask import Blueprint, Response, current_app, request, stream_with_context
from sqlalchemy import select
from werkzeug.exceptions import HTTPException

from .. import bank, db_setup
from ..live import hand_over, keys_of, watcher
from ..models import Game, Player, db
from .args import whole
from .auth import fingerprint
from .banker import dashboard_fragment
from .endgame import auction_fragment
from .pages import game_by_table_token, load, player_by_token
from .phone import player_screen
from .table import table_screen

bp = Blueprint("streams", __name__)

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


@bp.get("/g/<game_id>/auction/live")
def auction_live(game_id: str):
    """Bids from the phones on the banker's auction page at once (pushed like the others)."""
    return banker_stream(game_id, lambda: auction_fragment(bank.find(game_id)))


def banker_stream(game_id: str, draw: Callable[[], str]) -> Response:
    """A banker's page's stream: it ends when the banker key it was let in with changes."""
    game = load(game_id)
    opened_with = fingerprint(game)
    return stream(game, draw, lambda: fingerprint(bank.find(game_id)) == opened_with)


def token_holds(column, token: str) -> bool:
    return db.session.scalar(select(column).where(column == token)) is not None
