"""A game out and back in, and what is kept how long.

- Export: a game as JSON, its setup and its whole log (every action, undos included), which
  is everything the game is; the snapshot and the indexes are rebuilt from them.
- Import: a new game made from an export by doing every action again through the bank, each
  one checked by the rules core, then the result compared with a replay of the log. Anything
  refused, and the new game is deleted: nothing half-imported stays.
- Retention (`flask --app tablebank prune`): finished games whose last action is older than
  KEEP_FINISHED_DAYS, and any game untouched for KEEP_IDLE_DAYS, are deleted with their log.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import delete, func, select

from . import bank, integrity
from .models import Action, Game, Party, Player, RateCount, db
from .rules import KINDS, RuleError

FORMAT = "tablebank-game"
MAX_LOG = 20_000  # actions in one import
IMPORT_BYTES = 4 * 1024 * 1024  # an import may be larger than an action (MAX_CONTENT_LENGTH)


def export(game: Game) -> dict:
    return {
        "format": FORMAT,
        "version": 1,
        "edition": game.edition,
        "created_at": _utc(game.created_at).isoformat(),
        "setup": game.setup,
        "log": [
            {
                "seq": row.seq,
                "kind": row.kind,
                "payload": row.payload,
                "actor": row.actor,
                "at": _utc(row.created_at).isoformat(),
            }
            for row in bank.log_of(game)
        ],
    }


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _actor(value: object) -> str:
    if isinstance(value, str) and (
        value in ("banker", "api", "clock")
        or (value.startswith("player:") and value[7:].isdigit() and len(value) < 10)
    ):
        return value
    return "banker"


def import_game(data: object) -> Game:
    """A new game from an export, every action checked again; RuleError if anything is off."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RuleError("input", "This is not a tablebank game export")
    log = data.get("log")
    if not isinstance(log, list) or len(log) > MAX_LOG:
        raise RuleError("input", "The export's log must be a list of at most 20,000 actions")
    game = bank.create_game(data.get("setup"))
    try:
        for number, entry in enumerate(log, start=1):
            if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
                raise RuleError("input", "Action {number} of the export cannot be read",
                                number=number)  # fmt: skip
            try:
                bank.perform(game.id, entry["kind"], entry.get("payload") or {},
                             actor=_actor(entry.get("actor")))  # fmt: skip
            except RuleError as refusal:
                raise RuleError(
                    "input",
                    "Action {number} of the export was refused: {why}",
                    number=number,
                    why=str(refusal),
                ) from None
        game = db.session.get(Game, game.id)
        if not integrity.agrees_with_log(game):
            raise RuleError("input", "The imported game does not replay to the same state")
    except BaseException:
        db.session.rollback()
        delete_game(game.id)
        raise
    return game


def delete_game(game_id: str) -> None:
    for table in (Party, Action, Player):
        db.session.execute(delete(table).where(table.game_id == game_id))
    db.session.execute(delete(Game).where(Game.id == game_id))
    db.session.commit()


def expired(now: datetime | None = None) -> list[str]:
    """The games retention deletes now: finished and quiet, or idle for long."""
    config = current_app.config
    now = now or datetime.now(UTC)
    finished_before = now - timedelta(days=config["KEEP_FINISHED_DAYS"])
    idle_before = now - timedelta(days=config["KEEP_IDLE_DAYS"])
    last = (
        select(Game.id, Game.created_at, func.max(Action.created_at))
        .outerjoin(Action, Action.game_id == Game.id)
        .group_by(Game.id, Game.created_at)
    )
    found = []
    for game_id, created, latest in db.session.execute(last):
        quiet_since = _utc(latest or created)
        if quiet_since < idle_before:
            found.append(game_id)
        elif quiet_since < finished_before:
            state = db.session.execute(select(Game.state).where(Game.id == game_id)).scalar()
            if isinstance(state, dict) and state.get("ended"):
                found.append(game_id)
    return found


@click.command("prune")
@click.option("--dry-run", is_flag=True, help="only list the games it would delete")
@with_appcontext
def prune_command(dry_run: bool) -> None:
    """Delete finished games after KEEP_FINISHED_DAYS and idle ones after KEEP_IDLE_DAYS."""
    games = expired()
    for game_id in games:
        if not dry_run:
            delete_game(game_id)
        click.echo(f"{game_id}: {'would be deleted' if dry_run else 'deleted'}")
    if not dry_run:
        db.session.execute(delete(RateCount).where(RateCount.expires_at < time.time()))
        db.session.commit()
    click.echo(f"{len(games)} game(s) {'to delete' if dry_run else 'deleted'}")


@click.command("export")
@click.argument("game_id")
@with_appcontext
def export_command(game_id: str) -> None:
    """Print a game as JSON (setup and log)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"no game {game_id}")
    click.echo(json.dumps(export(game), ensure_ascii=False))


@click.command("import")
@click.argument("source", type=click.File("rb"))
@with_appcontext
def import_command(source) -> None:
    """Make a new game from an export (a file, or - for standard input)."""
    try:
        game = import_game(json.loads(source.read()))
    except RuleError as refusal:
        raise click.ClickException(str(refusal)) from None
    click.echo(f"imported as {game.id}; banker key {game.banker_key}")


def register(app: Flask) -> None:
    for command in (prune_command, export_command, import_command):
        app.cli.add_command(command)
