"""The database as a real one: SQLite with WAL, a busy timeout, foreign keys and immediate
write locks; schema upgrades that one process at a time applies; the request's deadline held
while a COMMIT's answer is awaited; the errors that say the database is down or its disk full
(answered in words by app/web/faults.py)."""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from functools import cache

from flask import Flask, current_app, g, has_request_context
from sqlalchemy import event, exc, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import Pool

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
        # WAL at NORMAL: a commit is safe from a killed process at once, and reaches the disk
        # at the next checkpoint, not by an fsync of its own (8 ms of a 17 ms tap). A power
        # cut may take back the last actions; the file stays whole.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection) -> None:
    if connection.dialect.name == "sqlite" and not connection.get_execution_options().get(
        "reads_only"
    ):
        # A write takes the lock before it reads, so two writers never interleave.
        immediate = connection.get_execution_options().get("sqlite_immediate")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


_reads_only: ContextVar[bool] = ContextVar("reads_only", default=False)


@contextmanager
def reads_only() -> Iterator[None]:
    """Reads that need no transaction around them (a live page's, at a new version: each asks
    for rows at a version it names, and rows of a version never change): the connections
    taken meanwhile read in autocommit, so no BEGIN and no ROLLBACK go to the database with
    them (on PostgreSQL, two round trips fewer in each process that draws)."""
    token = _reads_only.set(True)
    try:
        yield
    finally:
        _reads_only.reset(token)


@event.listens_for(Engine, "engine_connect")
def _autocommit_reads(connection) -> None:
    if _reads_only.get():
        connection.execution_options(reads_only=True)
        if connection.dialect.name != "sqlite":  # SQLite's connections are always autocommit
            connection.execution_options(isolation_level="AUTOCOMMIT")


# A pooled PostgreSQL connection may have outlived a database restart. One that the server
# closed (a stop or restart tells each client, then hangs up) is seen without a round trip:
# its socket has something to read while it sits in the pool. Only a connection idle for
# longer than this is also tested with a query (a round trip saved on each of the requests
# and live pages that follow an action); one that fails anyway (a network that went away
# without a word) ends its request in a 503, and the pool starts afresh.
IDLE_BEFORE_TEST = 1.0  # seconds


@event.listens_for(Pool, "checkin")
def _last_used(_dbapi_connection, record) -> None:
    if record is not None:
        record.info["last_used"] = time.monotonic()


@event.listens_for(Pool, "checkout")
def _tested_if_idle(dbapi_connection, record, _proxy) -> None:
    if not type(dbapi_connection).__module__.startswith("psycopg"):
        return
    if closed_by_server(dbapi_connection):
        raise exc.DisconnectionError()  # the pool tries a fresh one
    if time.monotonic() - record.info.get("last_used", 0.0) < IDLE_BEFORE_TEST:
        return
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True  # the test leaves no transaction open behind it
    try:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as gone:  # noqa: BLE001  any failure: the pool tries a fresh one
        raise exc.DisconnectionError() from gone
    finally:
        with suppress(Exception):  # a broken connection is discarded anyway
            dbapi_connection.autocommit = autocommit


def closed_by_server(dbapi_connection) -> bool:
    """A pooled connection the server spoke on, or hung up, while it sat unused: its socket
    is readable (a stop's "terminating connection", then the end of the stream). Nothing is
    read: a connection found so is not used again."""
    try:
        socket = dbapi_connection.fileno()
    except Exception:  # noqa: BLE001  closed already: psycopg says so
        return True
    poll = system_poll()
    if poll is None:  # Windows: its select() takes a socket of any number
        return bool(select.select([socket], [], [], 0)[0])
    watch = poll()
    watch.register(socket, select.POLLIN)  # a hang-up or an error is reported as well
    return bool(watch.poll(0))


@cache
def system_poll() -> Callable | None:
    """select.poll as the system has it, never gevent's (a poll that does not wait blocks
    no greenlet). Not select(): a busy server's connections are numbered past 1023, which
    select() refuses."""
    try:
        from gevent.monkey import get_original
    except ImportError:
        return getattr(select, "poll", None)
    try:
        return get_original("select", "poll")
    except AttributeError:
        return None


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


def upgrade_schema(app: Flask, then: Callable[[], object] | None = None) -> None:
    """Bring the database to the newest migration (Alembic), keeping every game in it; `then`
    runs under the same lock, after the upgrade (what the app fills in for old rows)."""
    from flask_migrate import upgrade

    from .models import db

    global _upgrading
    with app.app_context():
        db.engine.dispose()
        _upgrading = True  # an upgrade may wait for another process's and run long
        try:
            with migration_lock(db.engine):
                upgrade()
                if then is not None:
                    then()
            db.session.remove()
        finally:
            _upgrading = False
            db.engine.dispose()  # no connection crosses a fork; requests' ones are timed


# -- a database that does not answer --------------------------------------------------------

UNAVAILABLE = (exc.OperationalError, exc.InterfaceError, exc.TimeoutError)


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


SQLITE_FULL = 13  # sqlite3's "database or disk is full"
POSTGRES_DISK_FULL = "53100"  # SQLSTATE disk_full


def disk_full(error: exc.DBAPIError) -> bool:
    """The database could not write for want of disk space (or SQLite's max_page_count)."""
    original = getattr(error, "orig", None)
    return (
        getattr(original, "sqlite_errorcode", None) == SQLITE_FULL
        or getattr(original, "sqlstate", None) == POSTGRES_DISK_FULL
    )


def gevent_patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("socket"))
