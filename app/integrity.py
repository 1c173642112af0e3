"""Snapshot integrity: the bank seals the snapshot it writes (`game.state_sum`), an HMAC of
the game's id, version and state keyed with the server's SECRET_KEY, so a snapshot changed
behind the bank's back (a hand edit in the database, a damaged disk) cannot be sealed again
by whoever changed it. A game whose seal is empty or wrong is served read-only: every action
is refused with a clear message and its pages say so, until the host rebuilds it from the
log, which is the source of truth (`flask --app tablebank repair GAME`; `flask --app tablebank
check` lists the games whose snapshot disagrees with its seal or its log). Other games are
untouched. Both commands read each game as one consistent snapshot and wait politely for a
game that a running server is writing to.

Games sealed before the seal was keyed (a plain SHA-256) were sealed again with the key by
the migration b7d2e4f6a8c1, each only if its old seal still matched."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from .rules import RuleError
from .rules.setup import RULES

PURPOSE = b"tablebank snapshot seal\x00"  # the seal's key is the secret's, for this use only
BUSY_TRIES = 6  # repair: each try waits for the database's own lock timeout first


def canonical(state: dict) -> str:
    """The snapshot as the database gives it back (JSON keys are text), one way."""
    normal = json.loads(json.dumps(state))
    return json.dumps(normal, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def seal_key(secret: str | bytes) -> bytes:
    raw = secret.encode() if isinstance(secret, str) else secret
    return hashlib.sha256(PURPOSE + raw).digest()


def state_sum(game_id: str, version: int, state: dict, secret: str | bytes) -> str:
    """The seal: HMAC-SHA256 of the game's id, version and canonical state."""
    message = f"{game_id}\n{version}\n{canonical(state)}".encode()
    return hmac.new(seal_key(secret), message, hashlib.sha256).hexdigest()


def _sum_of(game) -> str:
    return state_sum(game.id, game.version, game.state, current_app.config["SECRET_KEY"])


def seal(game) -> None:
    game.state_sum = _sum_of(game)


def intact(game) -> bool:
    """True when the seal is the one the bank would write for this snapshot; an empty seal
    never is (every game has had one since the migration b7d2e4f6a8c1)."""
    return bool(game.state_sum) and hmac.compare_digest(game.state_sum, _sum_of(game))


def check(game) -> None:
    if not intact(game):
        raise RuleError(
            "integrity",
            "This game's saved state does not match its log, so nothing can be done in it. "
            "The host can repair it from the log.",
        )


def replayable(game) -> bool:
    """False for a game logged under earlier rules: its snapshot is what counts (bank.py)."""
    return game.setup.get("rules") == RULES


def replayed_state(game):
    """The state the log gives up to the snapshot's own version (the log only grows, so a
    snapshot and the rows up to its version are always one consistent picture)."""
    from .bank import edition_of
    from .models import Action, db
    from .rules import replay

    rows = db.session.execute(
        select(Action.kind, Action.payload)
        .where(Action.game_id == game.id, Action.seq <= game.version)
        .order_by(Action.seq)
    ).all()
    return replay(edition_of(game), game.setup, [(kind, payload) for kind, payload in rows])


def agrees_with_log(game) -> bool:
    return json.loads(json.dumps(replayed_state(game).to_dict())) == json.loads(
        json.dumps(game.state)
    )


def repair(game) -> bool:
    """Rebuild the snapshot from the log and seal it; True when it had to change."""
    rebuilt = replayed_state(game).to_dict()
    changed = json.loads(json.dumps(rebuilt)) != json.loads(json.dumps(game.state))
    game.state = rebuilt
    seal(game)
    return changed


# -- the host's commands ---------------------------------------------------------------------


def _snapshot_transaction() -> None:
    """A read transaction that sees one moment of the database: PostgreSQL's REPEATABLE READ
    (READ COMMITTED would show rows committed between two statements); SQLite's deferred BEGIN
    reads one snapshot of its WAL."""
    from .models import db

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
    from .models import Game, db

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
    from .bank import LOCK
    from .models import Game, db

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
        version, rebuilt = game.version, replayed_state(game).to_dict()
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
        changed = json.loads(json.dumps(rebuilt)) != json.loads(json.dumps(game.state))
        game.state = rebuilt
        seal(game)
        db.session.commit()
        return changed


@click.command("repair")
@click.argument("game_ids", nargs=-1, required=True)
@with_appcontext
def repair_command(game_ids: tuple[str, ...]) -> None:
    """Rebuild these games' snapshots from their logs and seal them again."""
    from .models import db

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
    app.add_template_global(lambda game: not intact(game), "unsealed")  # base.html's warning
