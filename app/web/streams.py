"""Live pages' streams (Server-Sent Events): a player's phone, the table screen, the banker's
dashboard and auction page, each sent its live part at every new version of its game.

One action costs its open pages little: a stream reads what opened it (the seat behind a
token, the game's version and keys) once, with one query, as it opens; the version comes with
the news; the game at that version is read and parsed once per process (app/snapshots.py); a
live part that several pages show is drawn once per version, language, theme and time zone
(shared.py). The streams the action woke draw once the acting request is answered
(live.settle), so the page that acted comes first."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    request,
    session,
    stream_with_context,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from sqlalchemy import select, text
from werkzeug.exceptions import HTTPException

from .. import bank, db_setup, snapshots
from ..db_setup import deadline_paused, reads_only
from ..i18n import parsed, translations
from ..live import Waiting, hand_over, keys_of, keys_sql, watcher
from ..models import Game, Player, db
from ..serving import TAKEOVER
from ..stream_homes import HOMES, MOVED, hand, request_text
from . import shared
from .args import whole
from .auth import fingerprint
from .banker import DASHBOARD, dashboard_fragment
from .carried import CarriedStream, drawn_as_opened, reader_of
from .endgame import auction_fragment
from .filters import request_zone
from .pages import load
from .phone import live_name, player_fills, player_part, player_signature
from .table import table_fills, table_part, table_signature

bp = Blueprint("streams", __name__)

STREAM_SECONDS = 300  # a stream ends after this; EventSource reconnects by itself
AWAY_SECONDS = 20  # the same, for a stream its game's home worker could not take yet
KEEPALIVE = 15  # seconds: a waiting stream says it is still here (LIVE_KEEPALIVE_SECONDS)
RETRY_LATER_MS = (2000, 10000)  # when a stream cannot open now: come back in 2 to 10 s
SETTLE = 0.3  # seconds a stream waits, at most, for the request that acted to be answered
GONE = "event: gone\ndata: \n\n"  # what opened the stream no longer holds
# The page has seen versions its game no longer has (a restore of an older copy renumbers
# what comes after): it reloads, as app.js does for `gone`, and shows the game as it is.
RELOAD = "event: gone\ndata: reload\n\n"
EVENTS = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # no cache, no proxy buffer


@dataclass
class Page:
    """What a stream follows and sends: its game, its version and keys as it opened, the
    live part it shows (`part`, shared by the pages that show the same) and how to draw it
    from the game at a version, and whether what opened it still holds (`allowed`)."""

    game_id: str
    version: int
    keys: str
    part: str
    draw: Callable[[Game], str]
    allowed: Callable[[], bool]
    signature: Callable[[Game], object] | None = None  # what it shows, when it can say
    seat: int | None = None  # a player's phone: the one seat whose cash it shows (None: all)
    fills: Callable[[Game], dict] | None = None  # words put in at each version (shared.fill)

    def cash_shown(self, cash: list[str]) -> object:
        """What the page shows of every seat's cash."""
        return cash[self.seat] if self.seat is not None and self.seat < len(cash) else cash


def drawing(app) -> threading.BoundedSemaphore:
    """The process's bound on live streams drawing at once (LIVE_DRAWS)."""
    return bound(app, "LIVE_DRAWS")


def bound(app, setting: str) -> threading.BoundedSemaphore:
    found = app.extensions.get(f"tablebank.{setting}")
    if found is None:
        found = threading.BoundedSemaphore(app.config[setting])
        found = app.extensions.setdefault(f"tablebank.{setting}", found)
    return found


@contextmanager
def opening() -> Iterator[None]:
    """A stream's turn to read what opened it: at most LIVE_OPENINGS of a process at once,
    the others waiting their turn holding no pooled connection, off the request's deadline.
    A thousand pages reconnecting after a restart queue here instead of emptying the pool
    (and being told to come back later)."""
    turn = bound(current_app, "LIVE_OPENINGS")
    with deadline_paused():
        turn.acquire()
    try:
        yield
    finally:
        db.session.remove()  # the connection back in the pool before the next one's turn
        turn.release()


OPENINGS = (
    "streams.player_live",
    "streams.table_live",
    "streams.banker_live",
    "streams.auction_live",
)


def note_keys_mark() -> None:
    """before_request, before anything is read: where the changes of keys this process heard
    stand as a stream opens. A change heard after it, and before the stream follows its
    game, would wake no one: the stream checks what opened it as it starts following."""
    if request.endpoint in OPENINGS:
        g.keys_mark = watcher(current_app).keys_mark()


def read_opening(query: str, **params):
    """What opened a stream, in one query, in its turn."""
    with opening():
        return db.session.execute(text(query), params).first()


# -- the streams ---------------------------------------------------------------------------


@bp.get("/p/<token>/live")
def player_live(token: str):
    query = f"SELECT player.seat, game.id, game.version, {keys_sql(db.session)} FROM player"
    query += " JOIN game ON game.id = player.game_id WHERE player.token = :token"
    seat, game_id, version, keys = opened(read_opening(query, token=token))
    return stream(
        Page(
            game_id,
            version,
            keys,
            live_name(token),
            lambda game: player_part(game, seat, token),
            lambda: token_holds(Player.token, token),
            lambda game: player_signature(game, seat),
            seat,
            lambda game: player_fills(game, seat),
        ),
        url_for("phone.player_page", token=token),
    )


@bp.get("/t/<token>/live")
def table_live(token: str):
    query = f"SELECT game.id, game.version, {keys_sql(db.session)} FROM game"
    query += " WHERE game.table_token = :token"
    game_id, version, keys = opened(read_opening(query, token=token))
    return stream(
        Page(
            game_id,
            version,
            keys,
            "table",
            lambda game: table_part(game, token),
            lambda: token_holds(Game.table_token, token),
            table_signature,
            fills=table_fills,
        ),
        url_for("table.screen", token=token),
    )


@bp.get("/g/<game_id>/live")
def banker_live(game_id: str):
    page = banker_page(game_id, DASHBOARD, dashboard_fragment)
    return stream(page, url_for("banker.dashboard", game_id=game_id))


@bp.get("/g/<game_id>/auction/live")
def auction_live(game_id: str):
    """Bids from the phones on the banker's auction page at once (pushed like the others)."""
    page = banker_page(game_id, "auction", auction_fragment)
    return stream(page, url_for("endgame.auction", game_id=game_id))


def banker_page(game_id: str, part: str, draw: Callable[[Game], str]) -> Page:
    """A banker's page: its stream ends when the banker key it was let in with changes."""
    game = load(game_id)  # read by the banker check
    opened_with = fingerprint(game)

    def allowed() -> bool:
        return fingerprint(bank.find(game_id)) == opened_with

    with opening():
        keys = keys_of(db.session, game_id)
    return Page(game_id, game.version, keys, part, draw, allowed)


def opened(found):
    """What a link opened, or a 404 (no such link, or a replaced one)."""
    if found is None:
        abort(404)
    return tuple(found)


def token_holds(column, token: str) -> bool:
    return db.session.scalar(select(column).where(column == token)) is not None


def stream(page: Page, path: str) -> Response:
    """Server-Sent Events: at each new version, the page's live part (the same HTML as the
    page's `?fragment=1`, in this request's language), so the page needs no second request.
    The stream holds a database connection only while drawing and, under gevent, no thread;
    it ends after STREAM_SECONDS and the browser reconnects by itself, saying the last
    version it heard (a page ahead of the game, after a restore, is told to reload). When the
    game's keys change, `page.allowed()` says whether what opened
    the stream (a link, a banker key) still holds: if not, the stream says `gone` and ends
    (the page reloads and shows why). A database that cannot be reached ends it with a later
    retry, never an error once the answer has started. Under this product's servers the
    stream is carried on its connection once its request is let go (carried.py)."""
    seconds = homed(page.game_id)
    if isinstance(seconds, HandedAway):
        return seconds
    app = current_app._get_current_object()
    live = watcher(app)
    heard = [whole(request.args.get("v")), whole(request.headers.get("Last-Event-ID"))]
    seen = max((v for v in heard if v is not None), default=-1)
    g.page_path = path  # where a refused form of its live part goes back to
    reader = shared.reader()
    catalogue, zone = translations(), request_zone()  # as each wake finds them, no request
    key = (page.game_id, page.part, *reader)
    csrf = generate_csrf()  # the page's own, put in the shared part's forms
    mark = g.get("keys_mark", -1)
    keepalive = float(app.config.get("LIVE_KEEPALIVE_SECONDS", KEEPALIVE))
    takeover = request.environ.get(TAKEOVER)
    if takeover is not None:
        opened_with = session._get_current_object()
        page.draw = drawn_as_opened(app, reader_of(request.environ), path, page.draw, opened_with)
    db.session.remove()  # no connection held while the stream waits

    def events():
        yield "retry: 1000\n\n"  # the answer has started: from here on, no error status
        if seen > page.version:  # only newer versions would be sent: the page would wait
            yield RELOAD
            return
        with live.follow(page.game_id) as followed:
            keys = followed.keys  # from here on, a change of keys wakes this stream
            live.revoke(page.game_id, page.keys)  # the keys as they were when it opened
            if live.keys_changed(page.game_id, mark) and not still_allowed(page.allowed):
                yield GONE  # changed while it opened, before it followed
                return
            live.bump(page.game_id, page.version)  # what happened before we followed
            last, stop = seen, time.monotonic() + seconds
            shows = None  # the cash the page shows, when the stream knows it
            while time.monotonic() < stop and not live.stopped.is_set():
                waited = Waiting(live, followed, last, keys, keepalive)
                version, cash, now_keys = yield waited
                if now_keys != keys:
                    keys = now_keys
                    if not still_allowed(page.allowed):
                        yield GONE
                        return
                if version > last:
                    shown = None if cash is None else page.cash_shown(cash)
                    if shown is not None and shown != shows:  # a figure it shows changed
                        yield cash_event(version, cash)  # sent before the drawing starts
                        hand_over()
                    live.settle(followed, SETTLE)  # the page that acted is answered first
                    g.reader, g.locale_name, g.translations = reader, reader[0], catalogue
                    g.reader_zone = zone
                    last, event = news(page, key, version, csrf)
                    shows = shown if event.startswith(f"id: {version}\nevent: live") else None
                    if event is GONE:
                        yield GONE
                        return
                    if live.shown(followed, last):
                        snapshots.forget(page.game_id, last)
                    yield event
                    del event  # not kept while the stream waits
                else:
                    yield ": still here\n\n"

    if takeover is not None:
        locale = parsed(reader[0])
        return CarriedStream(events(), takeover, locale, mimetype=EVENTS, headers=HEADERS)
    return Response(stream_with_context(blocking(events())), mimetype=EVENTS, headers=HEADERS)


def homed(game_id: str) -> HandedAway | float:
    """Under gunicorn with several workers, the stream handed to its game's home worker,
    which carries it (app/stream_homes.py); else the seconds it may last here: STREAM_SECONDS
    at home, AWAY_SECONDS in a worker that stands in for a home that cannot take it now
    (booting, restarting), after which the page reconnects and finds it."""
    environ = request.environ
    homes, takeover = environ.get(HOMES), environ.get(TAKEOVER)
    if homes is None or takeover is None or homes.is_home(game_id):
        return STREAM_SECONDS
    door = None if environ.get(MOVED) else homes.door(game_id)
    if door is None or not hand(door, takeover.socket, request_text(environ)):
        return AWAY_SECONDS
    return HandedAway(takeover)


class HandedAway(Response):
    """The answer of a stream handed to another worker: nothing more written here."""

    def __init__(self, takeover) -> None:
        super().__init__(mimetype=EVENTS, headers=HEADERS)
        self.takeover = takeover

    def __call__(self, environ, start_response):
        return self.takeover.handed_away(self.status)


def blocking(events: Generator) -> Iterator[str]:
    """A stream as its request's answer: each of its waits blocks. An empty piece goes
    first: nothing is written for it, but the server's loop and werkzeug's would hold the
    last piece they were given (a live part, kBs) while the stream waits."""
    answer = None
    try:
        while True:
            try:
                piece = events.send(answer)
            except StopIteration:
                return
            answer = None
            if isinstance(piece, Waiting):
                yield ""
                answer = piece.block()
            else:
                yield piece
    finally:
        events.close()


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
    return Response(retry_later(), mimetype=EVENTS, headers=HEADERS)


class Gone(Exception):
    """The game is no longer there (deleted)."""


def news(page: Page, key: tuple, version: int, csrf: str) -> tuple[int, str]:
    """The event for a new version: the live part at that version or later, and the version
    it shows (a later action is sent again, never skipped); "version N is out" if it cannot
    be drawn here, and the page fetches it as it would when polling; GONE if the page's link
    or key no longer opens it."""

    def draw(before: tuple | None) -> tuple[int, str | None, object, dict]:
        with drawing(current_app), reads_only():  # no transaction: no BEGIN, no ROLLBACK
            game = snapshots.at(page.game_id, version)
            if game is None:
                raise Gone()
            signature = page.signature(game) if page.signature else None
            fills = page.fills(game) if page.fills else {}
            if before is not None and signature is not None and before[1] == signature:
                return game.version, None, signature, fills  # nothing else it shows changed
            return game.version, page.draw(game), signature, fills

    try:
        drawn, html, fills = shared.drawn(key, version, draw)
    except (Gone, HTTPException) as refused:  # 403, 404: the page is no longer this device's
        if isinstance(refused, Gone) or refused.code in (403, 404):
            return version, GONE
        return version, version_event(version)
    except db_setup.UNAVAILABLE:
        return version, version_event(version)
    except Exception:  # noqa: BLE001  a bad row: the page's own fetch says why
        current_app.logger.exception("live: could not draw game %s", page.game_id)
        return version, version_event(version)
    finally:
        db.session.remove()  # no connection held between two events
    drawn = max(drawn, version)
    return drawn, f"id: {drawn}\nevent: live\n{data_lines(shared.own(html, csrf, drawn, fills))}\n"


def data_lines(text: str) -> str:
    """`text` as an event's data: a `data:` line for each of its lines (an event's line ends
    at CR, LF or CRLF, and at nothing else)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    return "data: " + lines.replace("\n", "\ndata: ") + "\n"


def version_event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


def cash_event(version: int, cash: list[str]) -> str:
    """Every player's cash at `version`, ahead of the live part: the page puts each figure
    where it shows that seat's cash (no id: the live part that follows still has to come)."""
    return f"event: cash\ndata: {json.dumps({'version': version, 'cash': cash})}\n\n"
