"""A game out and back in, and what is kept how long.

- Export (`export_lines`): a game as JSON, streamed a chunk of its log at a time with no
  ceiling on its length: its setup, its whole log (every action, undos included, each with its
  time), its final snapshot, the format's version and a SHA-256 checksum of all of them.
- Import (`import_game`): the archive is checked whole before anything is written: its format
  version and rules (a log of the earlier rules cannot be played again), its checksum (an
  archive edited after it was made is refused), every action done again in memory through
  the rules core in order (`rules.apply`, undo as the log's own stack, as `logbook.reindex`
  does), the result compared with the archive's final snapshot. Then the game, its players
  and every log row are written in one transaction, with their original times: a finished
  time-limited game comes back finished. It is bounded: at most MAX_LOG actions and
  IMPORT_BYTES, one import at a time per process (another is refused at once),
  IMPORT_SECONDS of checks and replay, done off the event loop (`_off_the_loop`) so that
  other requests are served meanwhile.
- Retention (`flask --app tablebank prune`): finished games whose last action is older than
  KEEP_FINISHED_DAYS, and any game untouched for KEEP_IDLE_DAYS, are deleted with their log.

The checksum is not a signature: it catches an archive changed by hand or damaged on the way,
not a forger who recomputes it. A forged archive is still replayed through every rule, so it
can only be a game that could have been played.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import delete, func, insert, select

from . import bank, integrity, logbook
from .db_setup import awaiting_commit, deadline_paused, gevent_patched
from .inputs import clean_payload, clean_setup, clean_texts, parse_json
from .models import LOG_FORMAT, Action, Game, Party, Player, RateCount, db, new_game_id
from .rules import UNDO, GameState, Outcome, RuleError, apply, new_game
from .rules.setup import REPLAYABLE

FORMAT = "tablebank-game"
VERSION = 2  # 2: times, final snapshot, checksum; 1 (none of them) came from RULES 1 games
MAX_LOG = 20_000  # actions in one import
IMPORT_BYTES = 4 * 1024 * 1024  # an import may be larger than an action (MAX_CONTENT_LENGTH)
IMPORT_SECONDS = 60  # the most one import may replay for (setting IMPORT_SECONDS)
WRITE_SECONDS = 30  # the request's deadline for writing an import's rows, once replayed
DEPTH = 12  # an archive nests its payloads and its snapshot a few levels deeper than a body
CHUNK = 1000  # log rows read (export) or written (import) per statement
ONE_AT_A_TIME = threading.Lock()  # gevent's, once patched: one import per process


# -- the checksum ---------------------------------------------------------------------------


def canonical(value: object) -> str:
    """One text for one value: sorted keys, no spaces, ASCII, text in NFC."""
    return json.dumps(_nfc(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _nfc(value: object) -> object:
    if isinstance(value, str):
        return value if value.isascii() else unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_nfc(item) for item in value]
    if isinstance(value, dict):
        return {_nfc(key): _nfc(item) for key, item in value.items()}
    return value


def _header(edition: str, created_at: str, setup: dict) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": edition,
        "created_at": created_at,
        "setup": setup,
    }


class Checksum:
    """SHA-256 of the header, each log entry and the final snapshot, one canonical line each."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def add(self, line: str) -> str:
        self.digest.update(line.encode() + b"\n")
        return line

    def text(self) -> str:
        return "sha256:" + self.digest.hexdigest()


# -- export ---------------------------------------------------------------------------------


def export_lines(game: Game) -> Iterator[str]:
    """The archive as JSON text, a chunk at a time: the log's rows up to the snapshot's
    version (rows are never changed, so the snapshot and they are one picture), read CHUNK at
    a time, the database let go between chunks."""
    game_id, version, final = game.id, game.version, {"version": game.version, "state": game.state}
    header = _header(game.edition, _utc(game.created_at).isoformat(), game.setup)
    checksum = Checksum()
    opened = checksum.add(canonical(header))
    yield opened[:-1] + ',"log":['
    separator = ""
    for first in range(1, version + 1, CHUNK):
        rows = db.session.execute(
            select(Action.seq, Action.kind, Action.payload, Action.actor, Action.created_at)
            .where(Action.game_id == game_id, Action.seq >= first, Action.seq < first + CHUNK)
            .where(Action.seq <= version)
            .order_by(Action.seq)
        ).all()
        db.session.rollback()  # a slow download holds no connection
        for seq, kind, payload, actor, at in rows:
            yield separator + checksum.add(canonical(_entry(seq, kind, payload, actor, at)))
            separator = ","
    closing = checksum.add(canonical(final))
    yield f'],"final":{closing},"checksum":"{checksum.text()}"}}\n'


def _entry(seq: int, kind: str, payload: dict, actor: str, at: datetime) -> dict:
    return {
        "seq": seq,
        "kind": kind,
        "payload": payload,
        "actor": actor,
        "at": _utc(at).isoformat(),
    }


def export(game: Game) -> dict:
    """The archive as one value (the CLI, the tests)."""
    return json.loads("".join(export_lines(game)))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


# -- import: checking ------------------------------------------------------------------------


def _moment(value: object) -> datetime | None:
    """An ISO time with its offset, in UTC; None when it is not one."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo is not None else None


def _actor(value: object) -> str | None:
    if isinstance(value, str) and (
        value in ("banker", "api", "clock")
        or (value.startswith("player:") and value[7:].isdigit() and len(value) < 10)
    ):
        return value
    return None


def _checked(data: object) -> tuple[dict, list, dict]:
    """The archive's setup, log and final snapshot, once its form, version, rules and checksum
    are right; RuleError("input") in words otherwise."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RuleError("input", "This is not a tablebank game export")
    log = data.get("log")
    if not isinstance(log, list) or len(log) > MAX_LOG:
        raise RuleError(
            "input", "The export's log must be a list of at most {most:,} actions", most=MAX_LOG
        )
    setup, final = data.get("setup"), data.get("final")
    replays = isinstance(setup, dict) and setup.get("rules") in REPLAYABLE
    if data.get("version") == 1 or (isinstance(setup, dict) and not replays):
        raise RuleError(  # format 1 came only from games logged under the earlier rules
            "input",
            "This game was logged under an earlier version of the rules: its log cannot be "
            "played again, so it cannot be imported",
        )
    if data.get("version") != VERSION:
        raise RuleError("input", "This export's format version is not one this tablebank reads")
    if not isinstance(final, dict) or not isinstance(setup, dict):
        raise RuleError("input", "The export has no final state")
    checksum = Checksum()
    checksum.add(canonical(_header(data.get("edition"), data.get("created_at"), setup)))
    for entry in log:
        checksum.add(canonical(entry))
    checksum.add(canonical(final))
    if data.get("checksum") != checksum.text():
        raise RuleError(
            "input",
            "This export was changed after it was made (its checksum does not match), so it "
            "is not imported",
        )
    return setup, log, final


def _read_entry(number: int, entry: object) -> tuple[str, dict, str, datetime | None]:
    """One log entry's kind, payload (as the bank would store it), actor and time."""
    if not isinstance(entry, dict) or entry.get("seq", number) != number:
        raise RuleError("input", "Action {number} of the export cannot be read", number=number)
    actor, at = _actor(entry.get("actor", "banker")), _moment(entry.get("at"))
    if actor is None or ("at" in entry and at is None):
        raise RuleError("input", "Action {number} of the export cannot be read", number=number)
    try:
        payload = clean_payload(entry.get("kind"), entry.get("payload") or {})
    except RuleError as refusal:
        raise refused_at(number, refusal) from None
    return entry["kind"], payload, actor, at


def refused_at(number: int, refusal: RuleError) -> RuleError:
    """An entry of the export that the bank would not take: which one, and why."""
    return RuleError(
        "input", "Action {number} of the export was refused: {why}", number=number, why=str(refusal)
    )


# -- import: replaying in memory ----------------------------------------------------------------


class Replay:
    """The log done again in memory, each action as the bank does it, its rows built as
    `logbook.record` fills them; nothing written."""

    def __init__(self, edition, setup: dict, game_id: str) -> None:
        self.edition, self.setup, self.game_id = edition, setup, game_id
        self.state: GameState = new_game(edition, setup)
        self.top = SimpleNamespace(last_standing=None)  # the game, as far as the chain goes
        self.rows: list[SimpleNamespace] = []
        self.parties: list[dict] = []
        self.seats: dict[int, set[int]] = {}  # the seats each action concerns, by number

    def step(self, number: int, kind: str, payload: dict, actor: str, at: datetime) -> None:
        undone = self.rows[self.top.last_standing - 1] if self.top.last_standing else None
        try:
            outcome = self._outcome(kind, payload, undone)
        except RuleError as refusal:
            raise refused_at(number, refusal) from None
        row = SimpleNamespace(
            game_id=self.game_id,
            seq=number,
            kind=kind,
            payload=payload,
            actor=actor,
            idempotency_key=None,
            created_at=at,
            text=outcome.text[:500],
            movements=[[m.payer, m.payee, m.amount] for m in outcome.movements],
            lines=outcome.lines,
            below=None,
            undoes=None,
            checkpoint=None,
            worths=None,
        )
        parties = self.seats[undone.seq] if kind == UNDO else outcome.parties
        seats = logbook.fill(self.top, row, outcome.state, self.edition, undone, parties)
        self.seats[number] = seats
        self.parties += [{"game_id": self.game_id, "seat": s, "seq": number} for s in seats]
        self.rows.append(row)
        self.state = outcome.state

    def _outcome(self, kind: str, payload: dict, undone) -> Outcome:
        if kind != UNDO:
            return apply(self.state, self.edition, kind, payload)
        if undone is None:
            raise RuleError("input", "There is nothing to undo")
        below = self.rows[undone.below - 1] if undone.below else None
        state = logbook.unpack(below.checkpoint) if below else new_game(self.edition, self.setup)
        return Outcome(state, f"Undo: {undone.text}", lines=undone.lines or [])


@dataclass
class Prepared:
    """A checked archive, ready to be written: the new game and its rows."""

    game_id: str
    edition: str
    created: datetime
    setup: dict
    state: dict
    version: int
    seats: list[int]
    last_standing: int | None
    rows: list | Bound  # Bound for SQLite, else dicts
    parties: list | Bound


def _broken() -> RuleError:
    """An archive that is not JSON at all: a file cut short or damaged on the way."""
    return RuleError(
        "input", "This export is cut short or damaged (it is not valid JSON), so it is not imported"
    )


def _prepared(text, editions: dict, budget: float, dialect) -> Prepared:
    """Everything an import does before it writes, CPU only (no database, no app context):
    parse, checksum, replay within `budget` seconds, final state compared, rows built."""
    started = time.monotonic()
    data = text if isinstance(text, dict) else parse_json(text, DEPTH, False, _broken)
    log = data.get("log") if isinstance(data, dict) else None
    if isinstance(log, list) and len(log) > MAX_LOG:  # refused before any more work
        raise RuleError(
            "input", "The export's log must be a list of at most {most:,} actions", most=MAX_LOG
        )
    setup, log, final = _checked(clean_texts(data))
    rules = setup["rules"]  # the rules its log was written under (_checked: they replay)
    setup = {**clean_setup(setup), "rules": rules}  # as bank.create_game stores it
    edition = editions.get(setup.get("edition"))
    if edition is None:
        raise RuleError("input", "Choose an edition")
    created = _moment(data.get("created_at")) or datetime.now(UTC)
    replay = Replay(edition, setup, new_game_id())
    for number, entry in enumerate(log, start=1):
        kind, payload, actor, at = _read_entry(number, entry)
        replay.step(number, kind, payload, actor, at or created)
        if time.monotonic() - started > budget:
            raise RuleError(
                "input",
                "The import took longer than {seconds} seconds and was stopped; nothing was "
                "imported",
                seconds=budget,
            )
    state = json.loads(json.dumps(replay.state.to_dict()))  # as the database gives it back
    if final.get("version") != len(log) or canonical(final.get("state")) != canonical(state):
        raise RuleError("input", "The export's final state is not what its log gives")
    rows, parties = [vars(row) for row in replay.rows], replay.parties
    if dialect.name == "sqlite":
        rows, parties = (
            _bound(Action.__table__, rows, dialect),
            _bound(Party.__table__, parties, dialect),
        )
    seats = [p.seat for p in replay.state.players]
    return Prepared(replay.game_id, edition.id, created, setup, state, len(log), seats,
                    replay.top.last_standing, rows, parties)  # fmt: skip


@dataclass
class Bound:
    """Rows as the driver takes them: each column's value through its type's own processor
    (JSON as text, times as SQLite stores them), so that the write only writes."""

    names: list[str]
    values: list[tuple]


def _bound(table, rows: list[dict], dialect) -> Bound:
    names = [column.name for column in table.c if rows and column.name in rows[0]]
    processors = [table.c[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names]
    pairs = list(zip(names, processors, strict=True))
    return Bound(names, [tuple(p(row[n]) if p else row[n] for n, p in pairs) for row in rows])


def _off_the_loop(work, *args):
    """CPU-bound work in a thread of gevent's pool when this process is gevent's: the
    process's one event loop goes on serving the other requests, Python sharing the CPU
    between them every few milliseconds. Without gevent, here and now."""
    if not gevent_patched():
        return work(*args)
    import gevent

    done, value = gevent.get_hub().threadpool.apply(_caught, (work, args))
    if not done:
        raise value  # here, not in the pool (which would log each refusal as a traceback)
    return value


def _caught(work, args) -> tuple[bool, object]:
    try:
        return True, work(*args)
    except Exception as error:  # noqa: BLE001  raised again by the caller
        return False, error


# -- import: writing ----------------------------------------------------------------------------


def import_game(text) -> Game:
    """A new game from an export (its JSON text, or the parsed value), every action checked
    again, written all at once or not at all; RuleError if anything is off (or another import
    is running in this process: rule "busy")."""
    if not ONE_AT_A_TIME.acquire(blocking=False):
        raise RuleError(
            "busy", "Another game is being imported on this server: try again in a minute"
        )
    try:
        budget = current_app.config.get("IMPORT_SECONDS", IMPORT_SECONDS)
        arguments = (text, bank.editions(), budget, db.engine.dialect)
        with deadline_paused(then=WRITE_SECONDS):  # the replay keeps its own budget
            prepared = _off_the_loop(_prepared, *arguments)
        return _write(prepared)
    finally:
        ONE_AT_A_TIME.release()


def _write(prepared: Prepared) -> Game:
    """The game, its players and its log in one transaction. On SQLite nothing in it yields
    (another greenlet of this process waiting for the write lock would block the process), so
    the rows come ready for the driver and are written in one call each."""
    db.session.rollback()
    db.session.connection(execution_options=bank.LOCK)  # BEGIN IMMEDIATE on SQLite
    try:
        game = Game(id=prepared.game_id, edition=prepared.edition, created_at=prepared.created)
        game.setup, game.state, game.version = prepared.setup, prepared.state, prepared.version
        game.last_standing, game.log_format = prepared.last_standing, LOG_FORMAT
        integrity.seal(game)
        game.players = [Player(seat=seat) for seat in prepared.seats]
        db.session.add(game)
        db.session.flush()
        _insert(Action.__table__, prepared.rows)
        _insert(Party.__table__, prepared.parties)
        db.session.expire_on_commit = False
        with awaiting_commit():
            db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        db.session.expire_on_commit = True
    return game


def _insert(table, rows: list | Bound) -> None:
    if isinstance(rows, Bound):  # SQLite: one call to the driver
        if rows.values:
            names, marks = ", ".join(rows.names), ", ".join("?" for _ in rows.names)
            sql = f"INSERT INTO {table.name} ({names}) VALUES ({marks})"
            db.session.connection().exec_driver_sql(sql, rows.values)
        return
    for start in range(0, len(rows), CHUNK):
        db.session.execute(insert(table), rows[start : start + CHUNK])


def delete_game(game_id: str) -> None:
    for table in (Party, Action, Player):
        db.session.execute(delete(table).where(table.game_id == game_id))
    db.session.execute(delete(Game).where(Game.id == game_id))
    db.session.commit()


# -- retention ----------------------------------------------------------------------------------


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
    """Print a game as JSON (setup, log, final state, checksum)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"no game {game_id}")
    for text in export_lines(game):
        click.echo(text, nl=False)


@click.command("import")
@click.argument("source", type=click.File("rb"))
@with_appcontext
def import_command(source) -> None:
    """Make a new game from an export (a file, or - for standard input)."""
    try:
        game = import_game(source.read())
    except RuleError as refusal:
        raise click.ClickException(str(refusal)) from None
    click.echo(f"imported as {game.id}; banker key {game.banker_key}")


def register(app: Flask) -> None:
    for command in (prune_command, export_command, import_command):
        app.cli.add_command(command)
