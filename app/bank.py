"""The one door for changes: lock the game, check, run the rules core, log, snapshot, commit.

Views and API handlers only parse input and render output; everything that changes a game
comes through `perform`, in one database transaction.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import current_app, has_request_context, request
from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.exc import IntegrityError

from . import integrity, logbook, snapshots, writers
from .db_setup import awaiting_commit
from .inputs import clean_payload, clean_setup, clean_text
from .live import announce, hand_over, watcher
from .models import Action, Game, Player, db, new_game_id, now
from .rules import KINDS, UNDO, Edition, GameState, Outcome, RuleError, apply, new_game
from .rules.setup import RULES

LOCK = {"sqlite_immediate": True}  # BEGIN IMMEDIATE on SQLite; see db_setup.py
MAX_KEY = 64


class NotFound(RuleError):
    def __init__(self, message: str = "There is no such game") -> None:
        super().__init__("not_found", message)


@dataclass
class Done:
    game: Game
    action: Action
    outcome: Outcome | None  # None when the idempotency key had already been applied
    repeated: bool = False


def editions() -> dict[str, Edition]:
    return current_app.extensions["tablebank.editions"]


def edition_of(game: Game) -> Edition:
    return editions()[game.edition]


def state_of(game: Game) -> GameState:
    """The snapshot as the rules core's state, parsed once per version of the game object
    (a page asks for it several times). Callers must not change it: the rules core copies."""
    parsed = game.__dict__.get("_parsed_state")
    if parsed is None or parsed[0] is not game.state:
        parsed = (game.state, GameState.from_dict(game.state))
        game.__dict__["_parsed_state"] = parsed
    return parsed[1]


def known_state(game: Game, state: GameState) -> None:
    """The game's snapshot is `state`, as the rules core just worked it out: `state_of` need
    not parse it again."""
    game.__dict__["_parsed_state"] = (game.state, state)


def find(game_id: object) -> Game:
    game = db.session.get(Game, game_id) if isinstance(game_id, str) else None
    if game is None:
        raise NotFound()
    return game


def create_game(setup: dict) -> Game:
    """A new game from its setup (edition, players, settings): the log's starting point."""
    setup = {**clean_setup(setup), "rules": RULES}  # only the settings the schema names
    chosen = setup.get("edition")
    edition = editions().get(chosen) if isinstance(chosen, str) else None
    if edition is None:
        raise RuleError("input", "Choose an edition")
    state = new_game(edition, setup)
    db.session.rollback()  # a write transaction of its own, locked from its start (SQLite)
    db.session.connection(execution_options=LOCK)
    game = Game(id=new_game_id(), edition=edition.id, setup=setup, version=0, state=state.to_dict())
    integrity.seal(game)
    game.players = [Player(seat=p.seat) for p in state.players]
    db.session.add(game)
    _commit()  # a game the database made is answered as made, even past the deadline
    return game


def preview(game: Game, kind: str, payload: dict) -> Outcome:
    """What an action would do, without doing it: the sentence a page shows before the tap."""
    payload = clean_payload(kind, payload)
    if kind == UNDO:
        return _undo(game)
    return apply(state_of(game), edition_of(game), kind, payload)


def _undo(game: Game) -> Outcome:
    """The game as it was before its latest action in force: that action's predecessor's
    checkpoint, two rows read whatever the length of the log."""
    target = logbook.undo_target(game)
    if target is None:
        raise RuleError("input", "There is nothing to undo")
    state = logbook.state_at(game, edition_of(game), target.below)
    return Outcome(state, f"Undo: {target.text}", lines=target.lines or [])


# The statements of every action, made once (making one costs more than running it on SQLite).
LOCKING = (
    select(Game)
    .where(Game.id == bindparam("game"))
    .with_for_update()
    .execution_options(populate_existing=True)  # the row as it is now, not as cached
)
EARLIER = select(Action).where(
    Action.game_id == bindparam("game"),
    or_(
        Action.idempotency_key == bindparam("scoped"),
        and_(
            Action.idempotency_key == bindparam("key"),
            Action.actor.in_(bindparam("senders", expanding=True)),
        ),
    ),
)


def _lock(game_id: str) -> Game:
    """The game, locked until the transaction ends: SQLite takes its write lock at BEGIN
    IMMEDIATE (one writer in the whole database), PostgreSQL a row lock (SELECT ... FOR
    UPDATE: one writer per game). Either way a second action on the game waits here until the
    first has committed or rolled back, then reads what the first wrote."""
    game = db.session.scalars(LOCKING, {"game": game_id}).one_or_none()
    if game is None:
        raise NotFound()
    return game


LOCKED = "tablebank.locked"  # session.info: the game read under its action's lock, and when


def locked(game_id: str) -> Game | None:
    """The game read under the lock its action takes (the banker check of a request that
    acts: web/auth.py), so that the action, in the same transaction, takes it as it is
    rather than reading it again; None if there is no such game."""
    _begin()
    try:
        game = _lock(game_id)
    except NotFound:
        db.session.rollback()  # the lock goes at once
        return None
    session = db.session()
    session.info[LOCKED] = (game, session.get_transaction())
    return game


def unlock() -> None:
    """The lock `locked` took, if it is still held, let go (nothing was written under it)."""
    if db.session().info.pop(LOCKED, None) is not None:
        db.session.rollback()


def _held(game_id: str) -> Game | None:
    """The game `locked` read, if this transaction still holds its lock and nothing has been
    written since; else None (the action takes the lock itself)."""
    session = db.session()
    held = session.info.pop(LOCKED, None)
    if held is None or session.new or session.dirty or session.deleted:
        return None
    game, transaction = held  # the transaction object is held: it cannot be another's
    if game.id != game_id or transaction is not session.get_transaction():
        return None
    return game


def scoped_key(actor: str, key: str | None) -> str | None:
    """An idempotency key as stored: in the namespace of who sent it (the banker, whether by
    page or API; one player; the clock), so no one can take or read another's key. The key
    itself is hashed: the stored text has a fixed length whatever was sent."""
    if key is None:
        return None
    scope = "banker" if actor in ("banker", "api") else actor
    return f"{scope[:12]}:{hashlib.blake2b(key.encode(), digest_size=24).hexdigest()}"


def _already_done(game: Game, actor: str, key: str, kind: str, payload: dict) -> Action | None:
    """The action this sender's idempotency key already applied, if any (a double tap, a
    retry). Keys logged before they were scoped are found as they were sent, by the same
    sender."""
    same_sender = ["banker", "api"] if actor in ("banker", "api") else [actor]
    found = {"game": game.id, "scoped": scoped_key(actor, key), "key": key, "senders": same_sender}
    earlier = db.session.scalars(EARLIER, found).first()
    if earlier is not None and (earlier.kind, earlier.payload) != (kind, payload):
        raise RuleError(
            "idempotency",
            "This idempotency key was already used for a different action: "
            "send a new key with each new action.",
        )
    return earlier


def perform(
    game_id: str,
    kind: str,
    payload: dict,
    actor: str = "banker",
    key: str | None = None,
    expected_version: int | None = None,
) -> Done:
    """Apply one action all-or-nothing, one at a time per game, in the order the lock is
    granted; a repeated idempotency key returns the first result instead."""
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY):
        raise RuleError("input", f"An idempotency key is text of 1 to {MAX_KEY} characters")
    if key is not None:
        key = clean_text(key, "idempotency_key")  # NFC; never NUL, which PostgreSQL refuses
    payload = clean_payload(kind, payload)  # only the fields the schema names are stored
    with writers.turn(game_id):  # one writer per game and process waits for the lock
        try:
            return _perform(game_id, kind, payload, actor, key, expected_version)
        except IntegrityError:
            # Only a key already in the log can collide once the game is locked; should
            # another path have slipped past the check, the unique constraint caught it:
            # answer as a repeat (the retry finds the first row under the lock), never as a
            # server error.
            if key is None:
                raise
            return _perform(game_id, kind, payload, actor, key, expected_version)


def _begin() -> None:
    """Start the action's transaction clean. SQLite needs its lock as the transaction's first
    statement, so whatever the request read before is ended. PostgreSQL reads the newest
    committed rows at each statement (READ COMMITTED) and takes its row lock anywhere in a
    transaction, so a transaction that only read goes on: a round trip saved, not a risk."""
    session = db.session()
    wrote = session.new or session.dirty or session.deleted
    if wrote or not session.in_transaction() or db.engine.dialect.name != "postgresql":
        session.rollback()
        session.connection(execution_options=LOCK)  # BEGIN IMMEDIATE on SQLite


def _commit() -> None:
    """Commit and keep the objects as written: the answer is drawn from them at once, with
    no second trip to the database to read back what was just stored. The rows are sent
    first; from the COMMIT on, the request waits for the database's answer rather than for
    its deadline (db_setup.awaiting_commit): what it answers is then what the log holds."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.flush()
        with awaiting_commit():
            session.commit()
    finally:
        session.expire_on_commit = True


def _perform(game_id, kind, payload, actor, key, expected_version) -> Done:
    game = _held(game_id)
    if game is None:
        _begin()
    try:
        game = game or _lock(game_id)
        integrity.check(game)  # a snapshot changed behind the bank's back: nothing is done
        earlier = _already_done(game, actor, key, kind, payload) if key else None
        if earlier is not None:
            _commit()
            return Done(game, earlier, None, repeated=True)
        if kind != "end_game" and time_is_up(game):
            _append(game, "end_game", {}, "clock", None, preview(game, "end_game", {}))
            db.session.commit()
            raise RuleError("TL1", "Time is up: the game has ended. See the results.")
        if (
            expected_version is not None
            and expected_version != game.version
            and not current(kind, payload)
        ):
            raise RuleError(
                "stale",
                "Another device acted first: the game has changed since this page was "
                "shown. Check the new state and try again.",
                version=game.version,
            )
        outcome = preview(game, kind, payload)
        row, cash, seats = _append(game, kind, payload, actor, key, outcome)
        live = watcher(current_app._get_current_object())  # the app, not the proxy
        # Before the COMMIT: on PostgreSQL the news (NOTIFY) may wake this process's streams
        # before the copy below is kept; they wait for the answer, then draw from the copy.
        acting(live, game.id)
        _commit()
    except BaseException:
        db.session.rollback()
        raise
    known_state(game, outcome.state)  # the answer is drawn from the state just worked out
    if live.follows(game.id):
        snapshots.keep(game, outcome.state)  # what this process's live pages draw it from
    # The newest rows this process keeps move on without a read: for the live pages, and
    # for the page the action's answer leads to.
    logbook.appended(game, row, seats)
    live.bump(game.id, game.version, cash)
    hand_over()
    return Done(game, row, outcome)


def current(kind: str, payload: dict) -> bool:
    """Whether the action, sent from a page drawn before the game moved on, still says all it
    does (a bid that names its lot): then it is worked out as sent, not refused as stale."""
    declared = KINDS.get(kind)
    return bool(declared and declared.still_current and declared.still_current(payload))


ACTING = "tablebank.acting"  # the request's environ: the games it acted on (live.acting)


def acting(live, game_id: str) -> None:
    """The game's streams here draw once this request is answered (web/taps.py ends the
    wait), so the page that acted gets its answer first; outside a request, no wait."""
    followed = live.acting(game_id) if has_request_context() else None
    if followed is not None:
        request.environ.setdefault(ACTING, []).append((live, followed))


def _append(
    game: Game, kind: str, payload: dict, actor: str, key, outcome: Outcome
) -> tuple[Action, list[str], set[int]]:
    """The action row and the new snapshot, in the caller's transaction; the row, every
    seat's cash as the news announced it, and the seats the action concerns."""
    game.version += 1
    row = Action(
        game_id=game.id,
        seq=game.version,
        kind=kind,
        payload=payload,
        actor=actor,
        idempotency_key=scoped_key(actor, key),
        text=outcome.text[:500],
        movements=[[m.payer, m.payee, m.amount] for m in outcome.movements],
        lines=outcome.lines,
        created_at=now(),  # the news to the other processes carries it
    )
    undone = logbook.undo_target(game) if kind == UNDO else None
    snapshot = outcome.state.to_dict()  # once: the game's snapshot and the row's checkpoint
    edition = edition_of(game)
    seats = logbook.record(game, row, outcome.state, edition, undone, outcome.parties, snapshot)
    game.state = snapshot
    integrity.seal(game)
    db.session.add(row)
    cash = cash_of(game)
    # Sent at commit, never if rolled back; with the row, so other processes need not read it.
    announce(db.session, game.id, game.version, cash, row, seats)
    return row, cash, seats


def cash_of(game: Game) -> list[str]:
    """Every seat's cash as the edition prints it, for the news of a new version."""
    edition = edition_of(game)
    return [edition.money(player["cash"]) for player in game.state["players"]]


def ends_at(game: Game) -> datetime | None:
    """TL1: the agreed end time of a time-limited game, in UTC (a game stored before times
    carried their offset kept the host's local time)."""
    settings = game.state["settings"]
    if settings.get("mode") != "timed" or not settings.get("ends_at"):
        return None
    try:
        end = datetime.fromisoformat(settings["ends_at"])
    except ValueError:
        return None
    return end.astimezone(UTC)  # a naive time is taken as the host's local time


def end_if_time_is_up(game: Game) -> None:
    """TL1: a page opened once the end time has come (its countdown reloads it then) ends
    the game first, by the clock, once whichever page comes first."""
    if time_is_up(game):
        perform(game.id, "end_game", {}, actor="clock", key="clock:end")


def time_is_up(game: Game) -> bool:
    """The end has come and the game can still be ended (a read-only game cannot)."""
    end = ends_at(game)
    up = end is not None and not game.state.get("ended") and datetime.now(UTC) >= end
    return up and integrity.intact(game)


def random_hands(game: Game, per_player: int = 2) -> list[list[int]]:
    """SG1: the bank shuffles the deeds and deals two to each player."""
    state = state_of(game)
    free = [i for i, d in state.deeds.items() if d.owner is None]
    dealt = random.SystemRandom().sample(free, per_player * len(state.players))
    return [dealt[n :: len(state.players)] for n in range(len(state.players))]
