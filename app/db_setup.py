"""The database as a real one: SQLite with WAL, a busy timeout, foreign keys and immediate
write locks; schema upgrades that one process at a time applies; and a database that is down,
slow or frozen answered with a 503 in plain words within seconds, recovering by itself."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from flask import Flask, current_app, g, has_request_context, jsonify, request
from flask_babel import gettext
from sqlalchemy import event, exc, text
from sqlalchemy.engine import Engine

from . import writers

try:
    import fcntl
except ImportError:  # Windows: one embedded server process, nothing to race
    fcntl = None


@event.listens_for(Engine, "connect")
def _sqlite_connect(dbapi_connection, _record) -> None:
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        # Let SQLAlchemy's "begin" event below emit BEGIN itself (pysqlite's own is lazy).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection) -> None:
    if connection.dialect.name == "sqlite":
        # A write takes the lock before it reads, so two writers never interleave.
        immediate = connection.get_execution_options().get("sqlite_immediate")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


_upgrading = False  # connections made while the schema upgrades have no statement timeout


@event.listens_for(Engine, "connect")
def _untimed_while_upgrading(dbapi_connection, _record) -> None:
    if _upgrading and type(dbapi_connection).__module__.startswith("psycopg"):
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = 0; SET lock_timeout = 0")
        dbapi_connection.commit()


MIGRATION_LOCK = 0x7461_626C  # "tabl": the advisory lock one upgrading process holds


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """One process at a time upgrades the schema: several workers may start at once, and two
    upgrades racing would both try to create the same tables."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                connection.commit()
        return
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if fcntl is None or not path or path == ":memory:" or path.startswith("file:"):
        yield  # a private in-memory database, or a system without flock: nothing to race
        return
    lock = os.open(f"{path}.migrate-lock", os.O_WRONLY | os.O_CREAT, 0o600)  # beside the games
    with os.fdopen(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade_schema(app: Flask) -> None:
    """Bring the database to the newest migration (Alembic), keeping every game in it."""
    from flask_migrate import upgrade

    from .logbook import reindex_old_games
    from .models import db

    global _upgrading
    with app.app_context():
        db.engine.dispose()
        _upgrading = True  # an upgrade may wait for another process's and run long
        try:
            with migration_lock(db.engine):
                upgrade()
                reindex_old_games(app.extensions["tablebank.editions"])
            db.session.remove()
        finally:
            _upgrading = False
            db.engine.dispose()  # no connection crosses a fork; requests' ones are timed


# -- a database that does not answer --------------------------------------------------------

UNAVAILABLE = (exc.OperationalError, exc.InterfaceError, exc.TimeoutError)
STREAMS = (
    "players.player_live",
    "players.table_live",
    "players.banker_live",
    "endgame.auction_live",
)


def unavailable_message() -> str:
    return gettext("The game's database is not answering. Try again in a few seconds.")


def _unavailable(error: Exception):
    """503 in plain words (JSON under /api); the pool tests each connection before use
    (pool_pre_ping), so the next request after the database is back simply works."""
    from .models import db

    with suppress(Exception):  # the connection is gone: nothing to roll back
        db.session.rollback()
    writers.database_failed()  # and the writers waiting for this game's turn are told at once
    if request.endpoint in STREAMS:  # EventSource gives up on an error status: come back later
        from .web.players import retry_stream

        return retry_stream()
    if request.path.startswith("/api/"):
        answer = jsonify({"error": unavailable_message(), "rule": "unavailable"})
    else:
        answer = unavailable_message()
    return answer, 503, {"Retry-After": "5", "Content-Type": _type(answer)}


def _type(answer) -> str:
    return "application/json" if not isinstance(answer, str) else "text/plain; charset=utf-8"


def with_deadline(app: Flask) -> None:
    """Under gevent only: a request whose handler (not its streamed body) has not finished
    after REQUEST_DEADLINE seconds is answered 503. This catches a database that accepts
    connections but never answers (a frozen server, a cut network), which no server-side
    timeout can. The connection the deadline interrupted is dropped, never reused."""
    import gevent

    from .models import db

    dispatch = app.full_dispatch_request

    def full_dispatch_request():
        deadline = gevent.Timeout(app.config["REQUEST_DEADLINE"])
        g.deadline, g.deadline_started = deadline, time.monotonic()
        g.deadline_timer = deadline  # what is armed now (see awaiting_commit)
        deadline.start()
        try:
            return dispatch()
        except gevent.Timeout as expired:
            if expired is not deadline:
                raise
            app.logger.error("%s %s: no answer in time", request.method, request.path)
            session = db.session()
            with suppress(Exception):
                # The connections the session holds (never a new one: that would wait too).
                held = getattr(session.get_transaction(), "_connections", None) or {}
                for connection, *_ in list(held.values()):
                    connection.invalidate()
            with suppress(Exception):
                session.rollback()
            return app.make_response(_unavailable(RuntimeError("deadline")))
        finally:
            g.deadline_timer.close()

    app.full_dispatch_request = full_dispatch_request


@contextmanager
def awaiting_commit() -> Iterator[None]:
    """An action's COMMIT, sent to the database: the request's deadline waits for its answer.
    Cut short while it waits, the request would say 503 ("not answering, try again") for an
    action the database may have committed, and a banker trying again from a fresh page
    would do it twice. A database that never answers the COMMIT (frozen) still ends the
    request after DB_COMMIT_TIMEOUT seconds, as the deadline would: the connection dropped, a
    503. Once the COMMIT is answered, what is left of the deadline applies again to what the
    request does next with the database; answering an action touches none, so a done action
    is answered as done."""
    deadline = g.get("deadline") if has_request_context() else None
    if deadline is None:  # no gevent (SQLite calls block; tests): nothing cuts a commit short
        yield
        return
    import gevent

    config = current_app.config
    g.deadline_timer.close()
    g.deadline_timer = gevent.Timeout(config["DB_COMMIT_TIMEOUT"], deadline)  # raises it
    g.deadline_timer.start()
    yield  # an error (the COMMIT failed, or no answer in time) goes on as it is
    g.deadline_timer.close()
    left = g.deadline_started + config["REQUEST_DEADLINE"] - time.monotonic()
    g.deadline_timer = gevent.Timeout(max(left, 0.01), deadline)
    g.deadline_timer.start()


@contextmanager
def deadline_paused(then: float | None = None) -> Iterator[None]:
    """A wait or a piece of work that is not the database's (a game's turn among this
    process's writers; an import's replay, which keeps a budget of its own): the request's
    deadline stops while it lasts, then goes on with what was left of it, or (`then`) starts
    afresh for that many seconds, for what the request then does with the database."""
    deadline = g.get("deadline") if has_request_context() else None
    if deadline is None:
        yield
        return
    import gevent

    g.deadline_timer.close()
    paused = time.monotonic()
    try:
        yield
    finally:
        if then is None:
            g.deadline_started += time.monotonic() - paused
        else:
            g.deadline_started = time.monotonic() + then - current_app.config["REQUEST_DEADLINE"]
        left = g.deadline_started + current_app.config["REQUEST_DEADLINE"] - time.monotonic()
        g.deadline_timer = gevent.Timeout(max(left, 0.01), deadline)
        g.deadline_timer.start()


def busy_message() -> str:
    return gettext("This game is busy: many actions are waiting. Try again in a few seconds.")


def _busy(_error: Exception):
    if request.path.startswith("/api/"):
        answer = jsonify({"error": busy_message(), "rule": "busy"})
    else:
        answer = busy_message()
    return answer, 503, {"Retry-After": "5", "Content-Type": _type(answer)}


SQLITE_FULL = 13  # sqlite3's "database or disk is full"
POSTGRES_DISK_FULL = "53100"  # SQLSTATE disk_full


def disk_full(error: exc.DBAPIError) -> bool:
    """The database could not write for want of disk space (or SQLite's max_page_count)."""
    original = getattr(error, "orig", None)
    return (
        getattr(original, "sqlite_errorcode", None) == SQLITE_FULL
        or getattr(original, "sqlstate", None) == POSTGRES_DISK_FULL
    )


def disk_full_message() -> str:
    return gettext("The server's disk is full: nothing was saved. Ask the host to free some space.")


def _disk_full(error: exc.DBAPIError):
    """507 in plain words, and a line in the log for the host; nothing was written."""
    from .models import db

    current_app.logger.error("the database's disk is full: %s", type(error.orig).__name__)
    with suppress(Exception):
        db.session.rollback()
    if request.path.startswith("/api/"):
        answer = jsonify({"error": disk_full_message(), "rule": "disk_full"})
    else:
        answer = disk_full_message()
    return answer, 507, {"Content-Type": _type(answer)}


def _database_error(error: exc.DBAPIError):
    """A full disk: 507. A dropped connection, a timeout, or any driver error once the
    request's deadline has passed (an interrupted connection fails in odd ways): 503.
    Anything else stays a bug."""
    if disk_full(error):
        return _disk_full(error)
    started = g.get("deadline_started")
    late = started is not None and time.monotonic() - started >= _deadline_seconds()
    if isinstance(error, UNAVAILABLE) or error.connection_invalidated or late:
        return _unavailable(error)
    raise error


def _deadline_seconds() -> float:
    from flask import current_app

    return float(current_app.config.get("REQUEST_DEADLINE") or 0) or float("inf")


def register_faults(app: Flask) -> None:
    app.register_error_handler(exc.DBAPIError, _database_error)
    app.register_error_handler(exc.TimeoutError, _unavailable)  # no pooled connection free
    app.register_error_handler(writers.Busy, _busy)
    if gevent_patched() and app.config.get("REQUEST_DEADLINE"):
        with_deadline(app)


def gevent_patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("socket"))
