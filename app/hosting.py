"""What a host runs beside the server: the version, owner-only instance files, and a backup
and restore of the whole database (`flask --app tablebank backup FILE` / `restore FILE`).

The instance folder holds every game's keys and tokens (the SQLite database) and the secret
key: the folder is made owner-only (0700) and the files the app keeps there are 0600, also
when an older version made them readable by others.

SQLite is copied online with its own backup API: one consistent snapshot, taken while the
server goes on serving (readers never block the WAL's writers). PostgreSQL has pg_dump.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing, suppress
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import make_url

OWNER_ONLY_FOLDER = 0o700
OWNER_ONLY_FILE = 0o600
SQLITE_SIDE_FILES = ("-wal", "-shm", ".migrate-lock")
POSTGRES_ADVICE = (
    "The database is PostgreSQL: back it up with its own tools, online and consistent, into\n"
    "an owner-only file (it holds every game's keys and tokens):\n"
    '  (umask 077 && pg_dump --format=custom --file=tablebank.dump "$DATABASE_URL")\n'
    "and restore it (the server stopped) with:\n"
    '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" tablebank.dump'
)


def sqlite_path(app: Flask) -> Path | None:
    """The SQLite database's file, as Flask-SQLAlchemy resolves it (relative: in instance/);
    None for PostgreSQL or an in-memory database."""
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    if url.database.startswith("file:"):
        return None
    path = Path(url.database)
    return path if path.is_absolute() else Path(app.instance_path) / path


def owner_only(app: Flask) -> None:
    """The instance folder 0700 and the database's files 0600; a missing database file is
    made 0600 before SQLite makes it (SQLite gives its -wal and -shm the same mode)."""
    instance = Path(app.instance_path)
    instance.mkdir(mode=OWNER_ONLY_FOLDER, parents=True, exist_ok=True)
    _tighten(instance, OWNER_ONLY_FOLDER)
    _tighten(instance / "secret_key", OWNER_ONLY_FILE)
    path = sqlite_path(app)
    if path is None:
        return
    if not path.exists() and path.parent.is_dir():
        with suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY_FILE))
    for file in (path, *(Path(f"{path}{end}") for end in SQLITE_SIDE_FILES)):
        _tighten(file, OWNER_ONLY_FILE)


def _tighten(path: Path, mode: int) -> None:
    with suppress(OSError):  # missing, or not ours to change: leave it as it is
        if path.stat().st_mode & 0o777 & ~mode:
            path.chmod(mode)


# -- backup and restore -----------------------------------------------------------------------


def _live_database() -> Path:
    path = sqlite_path(current_app)
    if path is None:
        raise click.ClickException(POSTGRES_ADVICE)
    if not path.exists():
        raise click.ClickException(f"there is no database at {path}")
    return path


def backup(source: Path, target: Path) -> None:
    """A consistent copy of the live database, as one self-contained file (0600)."""
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY_FILE))
    try:
        with (
            closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)) as live,
            closing(sqlite3.connect(target)) as copy,
        ):
            live.backup(copy)  # all pages in one step: one snapshot of the database
            copy.execute("PRAGMA journal_mode=DELETE")  # no -wal beside the copy
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def check_backup(path: Path) -> str:
    """The schema revision of a tablebank backup; ClickException if it is not one."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as copy:
            if copy.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise click.ClickException(f"{path} is damaged (PRAGMA quick_check)")
            tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master")}
            if not {"game", "player", "action", "alembic_version"} <= tables:
                raise click.ClickException(f"{path} is not a tablebank database")
            return copy.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise click.ClickException(f"{path} is not a tablebank database ({error})") from None


def restore(source: Path, live: Path) -> None:
    """The backup's pages written over the live database, in one transaction of SQLite's."""
    with (
        closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as copy,
        closing(sqlite3.connect(live, timeout=30)) as target,
    ):
        copy.backup(target)


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(target: Path) -> None:
    """Copy every game to TARGET (SQLite; the server may go on running)."""
    live = _live_database()
    if target.exists():
        raise click.ClickException(f"{target} exists already: choose a new file name")
    backup(live, target)
    click.echo(f"backed up {live} to {target} (revision {check_backup(target)})")


@click.command("restore")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="do not ask for a confirmation")
@with_appcontext
def restore_command(source: Path, yes: bool) -> None:
    """Replace every game with those of a backup made by `backup` (SQLite)."""
    from . import db_setup, kept, logbook

    live = _live_database()
    revision = check_backup(source)
    if not yes:
        click.confirm(f"Replace every game in {live} with those of {source}?", abort=True)
    restore(source, live)
    kept.forget_everything()  # this process's; a server in another one is restarted (README)
    editions = current_app.extensions["tablebank.editions"]
    reindex = lambda: logbook.reindex_old_games(editions)  # noqa: E731
    db_setup.upgrade_schema(current_app, then=reindex)  # a backup made by an older version
    owner_only(current_app)
    click.echo(f"restored {source} (revision {revision}) into {live}")


def register(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
