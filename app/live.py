"""Live updates: news of a game's new version reaches every open page, in every process.

After an action commits, the bank bumps the game's version in this process's watcher, which
wakes the streams here at once. The other processes hear of it from the database:

- PostgreSQL: the action's own transaction sends `NOTIFY tablebank, '<game> <version>
  <cash>'` (`announce`), so the news of an action that rolled back is never sent; each
  process's watcher LISTENs on one connection of its own.
- SQLite (one machine): nothing is sent. Each process's watcher asks SQLite every TICK
  whether anyone has committed since (`PRAGMA data_version`: shared memory, no table read),
  and only then reads the versions of the games its pages follow.

The news carries every player's cash as the edition prints it (not on SQLite across
processes): a stream sends those figures at once, before it draws the live part, so a
phone's balance changes without waiting for the drawing (or, under gevent, for the banker's
dashboard being drawn in the same process at that moment). On PostgreSQL it also carries the
action's log row, so the pages of the other processes need not read it (logbook.heard).

Either way the watcher re-reads those versions every SWEEP seconds, a safety net for news
missed while its connection was down. A watcher that loses its connection logs it and
reconnects; a stream that finds its watcher gone starts it again.

A page's stream follows its game for the stream's whole life and waits on that game's own
event: no thread of its own under gevent (a stream is a greenlet), and an action wakes only
the pages of its game.

Revocation travels the same way: a new banker key or a player's new link wakes the game's
streams (`revoke`: at once in this process; `NOTIFY tablebank '<game> keys'` on PostgreSQL;
on SQLite each sweep also reads a fingerprint of the game's keys), and each stream checks
that what opened it still holds, ending if not.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import text

from . import logbook
from .models import db

CHANNEL = "tablebank"
TICK = 0.02  # seconds between two looks at SQLite's commit counter
SWEEP = 10.0  # seconds between two reads of every followed version (LIVE_SWEEP_SECONDS)
LISTEN_WAIT = 1.0  # seconds a PostgreSQL watcher waits for notices before looking around
IN_CHUNKS = 500  # game ids per query when reading versions
NOTICE_MOST = 8000  # bytes: PostgreSQL refuses a longer notice
RECENT = 1024  # news of games no page follows, kept for the pages about to open
# A game's keys as a sweep reads them: its banker key and its players' tokens; a new one
# wakes the game's streams to check what opened them.
TOKENS = "(SELECT {} FROM player WHERE player.game_id = game.id)"
FINGERPRINT = {
    "postgresql": "banker_key || COALESCE("
    + TOKENS.format("string_agg(token, ',' ORDER BY seat)")
    + ", '')",
    "sqlite": "banker_key || COALESCE(" + TOKENS.format("group_concat(token)") + ", '')",
}
_making = threading.Lock()


def announce(session, game_id: str, version: int, cash: list[str], row=None, seats=()) -> None:
    """Tell the other processes, inside the action's transaction (PostgreSQL only). The
    version's log row and the seats it concerns (logbook.news_of) go on a line of their own
    when the notice stays within PostgreSQL's bound: the pages there need not read it."""
    if session.get_bind().dialect.name == "postgresql":
        news = f"{game_id} {version} {json.dumps(cash, ensure_ascii=False)}"
        carried = "" if row is None else logbook.news_of(row, seats)
        if carried and len(news.encode()) + len(carried.encode()) < NOTICE_MOST:
            news = f"{news}\n{carried}"
        session.execute(
            text("SELECT pg_notify(:channel, :news)"), {"channel": CHANNEL, "news": news}
        )


KEYS = "keys"  # the notice's word for "this game's keys changed"


def announce_keys(session, game_id: str) -> None:
    """Tell the other processes that a game's banker key or a player's link changed, inside
    the transaction that changes it (PostgreSQL only)."""
    if session.get_bind().dialect.name == "postgresql":
        news = f"{game_id} {KEYS}"
        session.execute(
            text("SELECT pg_notify(:channel, :news)"), {"channel": CHANNEL, "news": news}
        )


def keys_sql(session) -> str:
    """The SQL expression of a game's keys' fingerprint (on `game`), as the sweeps read it."""
    return FINGERPRINT[session.get_bind().dialect.name]


def keys_of(session, game_id: str) -> str:
    """The game's keys' fingerprint as the sweeps read it (a stream's baseline)."""
    dialect = session.get_bind().dialect.name
    query = text(f"SELECT {FINGERPRINT[dialect]} FROM game WHERE id = :game")  # noqa: S608
    return session.scalar(query, {"game": game_id}) or ""


def heard_keys(payload: str) -> str | None:
    """The game of a notice that its keys changed; None for any other notice."""
    game_id, _, rest = payload.partition(" ")
    return game_id if rest == KEYS else None


def heard(payload: str) -> tuple[str, int, list[str] | None] | None:
    """A notice's game, version and cash; None for a notice that is not ours."""
    game_id, _, rest = payload.partition("\n")[0].partition(" ")
    version, _, cash = rest.partition(" ")
    if not version.isdigit():
        return None
    try:
        amounts = json.loads(cash) if cash else None
    except ValueError:
        amounts = None
    if not (isinstance(amounts, list) and all(isinstance(a, str) for a in amounts)):
        amounts = None
    return game_id, int(version), amounts


def hand_over() -> None:
    """Let the greenlets that are ready run first (under gevent a greenlet runs until it
    yields; with threads this only yields the GIL): after a bump, the streams it woke send
    their cash before the action's request goes on; after the cash, the request finishes
    before the stream starts drawing."""
    time.sleep(0)


class Followed:
    """A game some open page of this process follows: its latest known version, every
    player's cash at that version when the news said it, how many times its keys changed
    (and their fingerprint as a sweep last read it), the event its streams wait on
    (replaced by a fresh one at each news), the streams the latest news woke that have not
    shown it yet (`behind`), and the requests of this process that acted on it and are still
    being answered (`acting`; `answered` is set when there are none)."""

    __slots__ = (
        "version",
        "cash",
        "followers",
        "behind",
        "news",
        "keys",
        "fingerprint",
        "acting",
        "answered",
    )

    def __init__(self) -> None:
        self.version = -1
        self.cash: list[str] | None = None
        self.followers = 0
        self.behind = 0
        self.news = threading.Event()
        self.keys = 0
        self.fingerprint: object = None
        self.acting = 0
        self.answered = threading.Event()
        self.answered.set()


class Watcher:
    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.url = db.engine.url  # as the app resolved it (SQLite: a path in instance/)
        self.sweep = float(app.config.get("LIVE_SWEEP_SECONDS", SWEEP))
        self.lock = threading.Lock()
        self.games: dict[str, Followed] = {}
        self.recent: OrderedDict[str, tuple[int, list[str] | None]] = OrderedDict()
        self.keys_heard = 0  # changes of keys heard by this process, any game
        self.recent_keys: OrderedDict[str, int] = OrderedDict()  # game -> its latest, by count
        self.thread: threading.Thread | None = None
        self.stopped = threading.Event()
        self.failures = 0

    # -- what streams and the bank call ------------------------------------------------------

    def bump(self, game_id: str, version: int, cash: list[str] | None = None) -> None:
        with self.lock:
            followed = self.games.get(game_id)
            if followed is None:
                self._heard(game_id, version, cash)
                return
            if version == followed.version and followed.cash is None and cash is not None:
                followed.cash = cash  # SQLite's sweep saw the commit before the request's bump
                return
            if version <= followed.version:
                return
            followed.version, followed.cash = version, cash
            followed.behind = followed.followers
            news, followed.news = followed.news, threading.Event()
        news.set()

    def follows(self, game_id: str) -> bool:
        """Whether some open page of this process follows the game."""
        with self.lock:
            return game_id in self.games

    def shown(self, followed: Followed, version: int) -> bool:
        """A stream has shown the game at `version`: whether it was the last of the streams
        the latest news woke (then what was kept to draw that version is of no more use)."""
        with self.lock:
            if version < followed.version or followed.behind <= 0:
                return False
            followed.behind -= 1
            return followed.behind == 0

    def acting(self, game_id: str) -> Followed | None:
        """A request of this process did an action on the game and is still being answered:
        the game's streams draw once it is (`settle`), so the page that acted is answered
        first. Returns what `done_acting` must be given, None if no page here follows it."""
        with self.lock:
            followed = self.games.get(game_id)
            if followed is None:
                return None
            followed.acting += 1
            followed.answered.clear()
        return followed

    def done_acting(self, followed: Followed) -> None:
        with self.lock:
            followed.acting -= 1
            if followed.acting <= 0:
                followed.acting = 0
                followed.answered.set()

    @staticmethod
    def settle(followed: Followed, most: float) -> None:
        """Wait, at most `most` seconds, until the requests that acted on the game are
        answered."""
        followed.answered.wait(most)

    def revoke(self, game_id: str, fingerprint: object = None) -> None:
        """The game's keys changed (or, from a sweep, their fingerprint is not the one read
        before): its streams wake and check what opened them."""
        with self.lock:
            followed = self.games.get(game_id)
            if fingerprint is None:
                self._heard_keys(game_id)
            if followed is None:
                return
            if fingerprint is not None:
                before, followed.fingerprint = followed.fingerprint, fingerprint
                if before is None or before == fingerprint:
                    return
            followed.keys += 1
            news, followed.news = followed.news, threading.Event()
        news.set()

    def _heard_keys(self, game_id: str) -> None:
        """A change of the game's keys, kept a while (under the lock): a stream that read
        what opened it before the change and follows the game after it asks (`keys_changed`)."""
        self.keys_heard += 1
        self.recent_keys[game_id] = self.keys_heard
        self.recent_keys.move_to_end(game_id)
        while len(self.recent_keys) > RECENT:
            self.recent_keys.popitem(last=False)

    def keys_mark(self) -> int:
        """Where the changes of keys this process heard stand: a stream notes it before it
        reads what opened it."""
        with self.lock:
            return self.keys_heard

    def keys_changed(self, game_id: str, mark: int) -> bool:
        """Whether the game's keys changed after `mark`, as far as this process heard."""
        with self.lock:
            return self.recent_keys.get(game_id, -1) > mark

    def _heard(self, game_id: str, version: int, cash: list[str] | None) -> None:
        """News of a game no page here follows yet, kept a while: a page whose stream opens
        just after (its game read before it followed) still gets it."""
        if version > self.recent.get(game_id, (-1, None))[0]:
            self.recent[game_id] = (version, cash)
            self.recent.move_to_end(game_id)
            while len(self.recent) > RECENT:
                self.recent.popitem(last=False)

    @contextmanager
    def follow(self, game_id: str) -> Iterator[Followed]:
        """Follow a game while the block runs (a stream's whole life)."""
        self._start()
        with self.lock:
            followed = self.games.get(game_id)
            if followed is None:
                followed = self.games[game_id] = Followed()
                followed.version, followed.cash = self.recent.pop(game_id, (-1, None))
            followed.followers += 1
        try:
            yield followed
        finally:
            with self.lock:
                followed.followers -= 1
                if not followed.followers:
                    del self.games[game_id]

    def wait(
        self, followed: Followed, seen: int, timeout: float, keys: int = 0
    ) -> tuple[int, list | None, int]:
        """Block until the game is past version `seen`, its keys changed since `keys`, the
        timeout, or a stop; the version, the cash the news gave with it (None if it gave
        none) and the keys' count of changes."""
        news = self.news_after(followed, seen, keys)
        if news is not None:
            news.wait(timeout)
        return self.now(followed)

    def news_after(self, followed: Followed, seen: int, keys: int = 0) -> threading.Event | None:
        """The event the game's next news sets; None if there is no need to wait: the game is
        past version `seen`, its keys changed since `keys`, or the watcher stopped."""
        with self.lock:
            if followed.version > seen or followed.keys != keys or self.stopped.is_set():
                return None
            return followed.news

    def now(self, followed: Followed) -> tuple[int, list | None, int]:
        """The game's version, the cash the news gave with it and its keys' count of changes."""
        with self.lock:
            return followed.version, followed.cash, followed.keys

    def stop(self) -> None:
        """End the watcher (a server shutting down); waiting streams wake at once."""
        self.stopped.set()
        with self.lock:
            waiting = [followed.news for followed in self.games.values()]
        for news in waiting:
            news.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=5)

    # -- the watcher's own loop --------------------------------------------------------------

    def _start(self) -> None:
        with self.lock:
            if self.stopped.is_set() or (self.thread is not None and self.thread.is_alive()):
                return
            self.thread = threading.Thread(target=self._run, name="live-watcher", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        while not self.stopped.is_set():
            try:
                if self.url.get_backend_name() == "postgresql":
                    self._listen_postgresql()
                else:
                    self._watch_sqlite()
            except Exception:  # noqa: BLE001  logged, then reconnect: the watcher must live on
                self.failures += 1
                self.app.logger.exception("live watcher: lost the database; reconnecting")
                self.stopped.wait(min(0.5 * self.failures, 10))

    def _followed_ids(self) -> list[str]:
        with self.lock:
            return list(self.games)

    def _sweep(self, read) -> bool:
        """Read every followed game's version and keys' fingerprint with `read(ids)` and wake
        what moved on. A game that a request of this process is acting on is left to that
        request, whose news carries every seat's cash (a sweep that saw its commit first
        would wake the streams without it): returns whether one was, to sweep again soon."""
        left = False
        ids = self._followed_ids()
        for start in range(0, len(ids), IN_CHUNKS):
            for game_id, version, fingerprint in read(ids[start : start + IN_CHUNKS]):
                if self.acted_on_here(game_id):
                    left = True
                else:
                    self.bump(game_id, version)
                self.revoke(game_id, fingerprint or "")
        return left

    def acted_on_here(self, game_id: str) -> bool:
        """Whether a request of this process acted on the game and is still being answered
        (it announces the version itself, after its commit)."""
        with self.lock:
            followed = self.games.get(game_id)
            return followed is not None and followed.acting > 0

    def _listen_postgresql(self) -> None:
        import psycopg

        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")

            def read(ids: list[str]):
                return connection.execute(
                    f"SELECT id, version, {FINGERPRINT['postgresql']} FROM game WHERE id = ANY(%s)",
                    [ids],
                ).fetchall()

            self.failures = 0
            swept = 0.0
            while not self.stopped.is_set():
                if time.monotonic() - swept >= self.sweep:
                    self._sweep(read)  # also the catch-up right after (re)connecting
                    swept = time.monotonic()
                for notice in connection.notifies(timeout=LISTEN_WAIT):
                    news = heard(notice.payload)
                    if news is not None:
                        row = notice.payload.partition("\n")[2]
                        if row and self.follows(news[0]):  # its pages' newest rows, unread
                            logbook.heard(news[0], news[1], row)
                        self.bump(*news)
                    elif (revoked := heard_keys(notice.payload)) is not None:
                        self.revoke(revoked)

    def _watch_sqlite(self) -> None:
        path = self.url.database
        if not path or path == ":memory:":
            self.stopped.wait()  # a private in-memory database: only this process acts
            return
        connection = sqlite3.connect(
            f"file:{path}?mode=rw",
            uri=True,
            timeout=1,
            isolation_level=None,
            check_same_thread=False,
        )
        try:

            def read(ids: list[str]):
                marks = ",".join("?" * len(ids))
                keys = FINGERPRINT["sqlite"]
                query = f"SELECT id, version, {keys} FROM game WHERE id IN ({marks})"  # noqa: S608
                return connection.execute(query, ids).fetchall()

            self.failures = 0
            counter, swept, left = None, 0.0, False
            while not self.stopped.is_set():
                now = connection.execute("PRAGMA data_version").fetchone()[0]
                if now != counter or left or time.monotonic() - swept >= self.sweep:
                    counter, swept = now, time.monotonic()
                    left = self._sweep(read)
                self.stopped.wait(TICK)
        finally:
            connection.close()


class Waiting:
    """What a stream waits for, yielded to whoever runs it: news of its game past version
    `seen`, a change of its keys since `keys`, `timeout` seconds, or the watcher's stop. The
    runner sends back `now()` once one has come: a request's answer blocks (`block`); a
    stream carried on its connection is woken by the news without a greenlet of its own
    meanwhile (web/carried.py)."""

    __slots__ = ("watcher", "followed", "seen", "keys", "timeout")

    def __init__(
        self, watcher: Watcher, followed: Followed, seen: int, keys: int, timeout: float
    ) -> None:
        self.watcher, self.followed, self.seen = watcher, followed, seen
        self.keys, self.timeout = keys, timeout

    def block(self) -> tuple[int, list | None, int]:
        return self.watcher.wait(self.followed, self.seen, self.timeout, self.keys)

    def news(self) -> threading.Event | None:
        """The event the next news sets; None if there is no need to wait."""
        return self.watcher.news_after(self.followed, self.seen, self.keys)

    def now(self) -> tuple[int, list | None, int]:
        return self.watcher.now(self.followed)


def watcher(app: Flask) -> Watcher:
    """This process's watcher for the app (given as itself or as `current_app`)."""
    # The thread needs the app itself: a `current_app` proxy means nothing outside a request.
    app = app._get_current_object() if hasattr(app, "_get_current_object") else app
    with _making:  # two first requests at once must not make two watchers
        if "tablebank.watcher" not in app.extensions:
            app.extensions["tablebank.watcher"] = Watcher(app)
        return app.extensions["tablebank.watcher"]
