"""The database as a real one: SQLite with WAL, a busy timeout, foreign keys and immediate
write locks; and schema upgrades that one process at a time applies."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.engine import Engine

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
    with open(f"{path}.migrate-lock", "a") as handle:
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

    with app.app_context():
        with migration_lock(db.engine):
            upgrade()
            reindex_old_games(app.extensions["tablebank.editions"])
        db.session.remove()
        db.engine.dispose()  # no connection crosses a fork into a worker process
