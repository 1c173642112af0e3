"""The host's checks of the games' snapshots against their seals and logs: `flask --app
tablebank check` lists the games whose snapshot disagrees with its seal (app/integrity.py) or
its log; `flask --app tablebank repair GAME` rebuilds a snapshot from its log, the source of
truth, and seals it again. Both read each game as one consistent snapshot and wait politely
for a game that a running server is writing to."""

from __future__ import annotations

import json
import time

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from .bank import LOCK, edition_of
from .integrity import intact, seal
from .logbook import replayable, replayed_state
from .models import Game, db

BUSY_TRIES = 6  # repair: each try waits for the database's own lock timeout first


def rebuilt(game) -> dict:
    """The snapshot the game's log gives (logbook.replayed_state)."""
    return replayed_state(game, edition_of(game)).to_dict()


def same(one: dict, other: dict) -> bool:
    """Two snapshots alike as the database gives them back (JSON keys are text)."""
    return json.loads(json.dumps(one)) == json.loads(json.dumps(other))


def agrees_with_log(game) -> bool:
    return same(rebuilt(game), game.state)


# -- the host's commands ---------------------------------------------------------------------


def _snapshot_transaction() -> None:
    """A read transaction that sees one moment of the database: PostgreSQL's REPEATABLE READ
    (READ COMMITTED would show rows committed between two statements); SQLite's deferred BEGIN
    reads one snapshot of its WAL."""

    db.session.rollback()
    options = {"isolation_level": "REPEATABLE READ"} if db.engine.dialect.name != "sqlite" else {}
    db.session.connection(execution_options=options)


def fault_of(game) -> str | None:
    """What is wrong with a game's snapshot, in words; None when nothing is."""
    try:
        if not game.state_sum:
            return "its seal is empty"
        if not intact(game):
            return "its seal does not match (edited, or the server's SECRET_KEY changed)"
        if replayable(game) and not agrees_with_log(game):
            return "its snapshot disagrees with its log"
    except Exception as error:  # noqa: BLE001  a log that cannot be replayed is damage too
        return f"its log cannot be replayed ({error})"
    return None


@click.command("check")
@with_appcontext
def check_command() -> None:
    """List the games whose snapshot disagrees with its seal or its log (a game logged under
    earlier rules: its seal only)."""

    bad = 0
    for game_id in db.session.scalars(select(Game.id).order_by(Game.id)).all():
        _snapshot_transaction()
        game = db.session.get(Game, game_id)
        fault = fault_of(game) if game is not None else None  # deleted meanwhile: fine
        db.session.rollback()
        if fault is not None:
            bad += 1
            click.echo(f"{game_id}: {fault}")
    click.echo(f"{bad} damaged game(s)")


def _repair_one(game_id: str) -> bool:
    """Replay outside any lock, then take the game's write lock (waiting for it as the bank
    does) and write, unless an action came in meanwhile: then replay again."""

    while True:
        _snapshot_transaction()
        game = db.session.get(Game, game_id)
        if game is None:
            raise click.ClickException(f"no game {game_id}")
        if not replayable(game):
            raise click.ClickException(
                f"{game_id} was logged under an earlier version of the rules: its log cannot "
                "rebuild it; nothing was changed"
            )
        version, state = game.version, rebuilt(game)
        db.session.rollback()
        db.session.connection(execution_options=LOCK)  # SQLite: BEGIN IMMEDIATE
        game = db.session.scalars(
            select(Game)
            .where(Game.id == game_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one()
        if game.version != version:
            db.session.rollback()
            continue
        changed = not same(state, game.state)
        game.state = state
        seal(game)
        db.session.commit()
        return changed


@click.command("repair")
@click.argument("game_ids", nargs=-1, required=True)
@with_appcontext
def repair_command(game_ids: tuple[str, ...]) -> None:
    """Rebuild these games' snapshots from their logs and seal them again."""

    for game_id in game_ids:
        for attempt in range(1, BUSY_TRIES + 1):
            try:
                changed = _repair_one(game_id)
                break
            except OperationalError:  # the lock was not granted in time: a busy server
                db.session.rollback()
                if attempt == BUSY_TRIES:
                    raise click.ClickException(
                        f"{game_id}: the database stayed busy; nothing was changed. "
                        "Try again in a minute."
                    ) from None
                click.echo(f"{game_id}: the game is busy, waiting…", err=True)
                time.sleep(attempt)
        click.echo(
            f"{game_id}: " + ("rebuilt from its log" if changed else "matched its log") + ", sealed"
        )


def register(app: Flask) -> None:
    app.cli.add_command(check_command)
    app.cli.add_command(repair_command)
