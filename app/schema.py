"""Is the database's schema the newest migration? Answered from the migration files' own
revision lines and the database's `alembic_version` row, without Alembic: a start at the
newest schema (every start but the first after an upgrade of tablebank) skips Alembic, which
costs a quarter of a second to import. Run as `python -m tablebank.schema`, it answers for
the database the app's settings name (exit 0: newest, and no game logged before its rows
kept what pages read; 1: an upgrade is due), with no more than the settings and the
database's driver (no Flask) imported: what gunicorn's master asks before it starts any worker."""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

from .paths import SHIPPED

# The log rows' format (models.Game.log_format): LOG_FORMAT when the rows keep their undo
# chain, checkpoint, worths and parties (logbook); here so that the check imports no model.
LOG_FORMAT = 1

REVISION = re.compile(r"^(revision|down_revision)\b[^=\n]*=\s*([^\n#]+)", re.M)
OLD_GAMES = f"SELECT 1 FROM game WHERE log_format < {LOG_FORMAT} LIMIT 1"  # noqa: S608


@cache
def newest(folder: Path = SHIPPED / "migrations" / "versions") -> frozenset[str]:
    """The head revisions: those that no other migration revises."""
    revisions, revised = set(), set()
    for path in folder.glob("*.py"):
        found = dict(REVISION.findall(path.read_text("utf-8")))
        if "revision" not in found:
            continue
        revisions.add(found["revision"].strip("\"'"))
        revised.update(re.findall(r"[\"']([0-9a-zA-Z_]+)[\"']", found.get("down_revision", "")))
    return frozenset(revisions - revised)


def stored(cursor) -> set[str] | None:
    """The revisions the database says it is at; None with no schema at all."""
    try:
        cursor.execute("SELECT version_num FROM alembic_version")
    except Exception:  # noqa: BLE001  no such table: an empty database
        return None
    return {row[0] for row in cursor.fetchall()}


def current(cursor) -> bool:
    """The schema is the newest and every game's rows keep what pages read (logbook)."""
    if stored(cursor) != newest():
        return False
    cursor.execute(OLD_GAMES)
    return cursor.fetchone() is None


def main() -> int:
    from .config import database_setting
    from .paths import instance_folder

    instance = instance_folder()
    try:
        connection = connect(database_setting(instance), instance)
    except Exception as error:  # noqa: BLE001  the upgrade that follows says what is wrong
        print(f"tablebank: the schema could not be checked: {error}", file=sys.stderr)
        return 1
    try:
        cursor = connection.cursor()
        return 0 if current(cursor) else 1
    except Exception:  # noqa: BLE001  rolled back and left to the upgrade
        return 1
    finally:
        connection.close()


def connect(url: str, instance: Path):
    """A plain DB-API connection to the app's database (SQLite: a relative path is in
    instance/, as Flask-SQLAlchemy puts it)."""
    scheme, _, rest = url.partition("://")
    if scheme.startswith("sqlite"):
        import sqlite3

        path = rest[1:] if rest.startswith("/") else rest
        if path in ("", ":memory:"):
            raise ValueError("a private in-memory database")
        path = Path(path) if Path(path).is_absolute() else instance / path
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    import psycopg

    return psycopg.connect(f"postgresql://{rest}", connect_timeout=10)


if __name__ == "__main__":
    sys.exit(main())
