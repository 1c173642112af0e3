"""Snapshot integrity: the bank keeps a checksum of the snapshot it wrote (`game.state_sum`).
A snapshot changed behind the bank's back (a hand edit, a damaged disk) no longer matches it:
the game refuses every action with a clear error until the host repairs it from the log,
which is the source of truth (`flask --app tablebank repair GAME`; `flask --app tablebank
check` lists the games whose snapshot disagrees with their checksum or their log). Other
games are untouched."""

from __future__ import annotations

import hashlib
import json

import click
from flask import Flask
from flask.cli import with_appcontext

from .rules import RuleError


def state_sum(state: dict) -> str:
    """The checksum of a snapshot as the database gives it back (JSON keys are text)."""
    normal = json.loads(json.dumps(state))
    text = json.dumps(normal, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def seal(game) -> None:
    game.state_sum = state_sum(game.state)


def intact(game) -> bool:
    """True unless the snapshot differs from what the bank last wrote (games saved before
    checksums were kept have none, and count as intact)."""
    return game.state_sum is None or state_sum(game.state) == game.state_sum


def check(game) -> None:
    if not intact(game):
        raise RuleError(
            "integrity",
            "This game's saved state does not match its log, so nothing can be done in it. "
            "The host can repair it from the log.",
        )


def agrees_with_log(game) -> bool:
    from .bank import replayed_state

    return json.loads(json.dumps(replayed_state(game).to_dict())) == json.loads(
        json.dumps(game.state)
    )


def repair(game) -> bool:
    """Rebuild the snapshot from the log; True when it had to change."""
    from .bank import replayed_state

    rebuilt = replayed_state(game).to_dict()
    changed = json.loads(json.dumps(rebuilt)) != json.loads(json.dumps(game.state))
    game.state = rebuilt
    seal(game)
    return changed


@click.command("check")
@with_appcontext
def check_command() -> None:
    """List the games whose snapshot disagrees with its checksum or its log."""
    from sqlalchemy import select

    from .models import Game, db

    bad = 0
    for game in db.session.scalars(select(Game).execution_options(yield_per=50)):
        try:
            fine = intact(game) and agrees_with_log(game)
        except Exception as error:  # noqa: BLE001  a log that cannot be replayed is damage too
            fine, why = False, f" ({error})"
        else:
            why = ""
        if not fine:
            bad += 1
            click.echo(f"{game.id}: snapshot disagrees with its log{why}")
    click.echo(f"{bad} damaged game(s)")


@click.command("repair")
@click.argument("game_ids", nargs=-1, required=True)
@with_appcontext
def repair_command(game_ids: tuple[str, ...]) -> None:
    """Rebuild these games' snapshots from their logs."""
    from .models import Game, db

    for game_id in game_ids:
        game = db.session.get(Game, game_id)
        if game is None:
            raise click.ClickException(f"no game {game_id}")
        changed = repair(game)
        db.session.commit()
        click.echo(f"{game_id}: {'rebuilt from its log' if changed else 'already matched its log'}")


def register(app: Flask) -> None:
    app.cli.add_command(check_command)
    app.cli.add_command(repair_command)
