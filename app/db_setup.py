"""SQLite as a real database: WAL, a busy timeout, foreign keys, and immediate write locks."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine import Engine


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
