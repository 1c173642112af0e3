"""The action log as pages read it: a bounded slice, never the whole log.

Beside the action itself, each row records what later reads need, written in the action's own
transaction (`record`, called by the bank):

- the undo chain: `below`, the action in force beneath it (or, on an undo row, `undoes`, the
  action it took back); the game's `last_standing` is the top of that chain, so the next
  undo's target is one row away;
- `checkpoint`, the state right after the action: an undo loads the checkpoint of the action
  beneath its target instead of replaying the log;
- `worths`, every seat's score (SG4) after it: the net-worth chart's points;
- `party` rows, the seats it concerns: a player's own history is a page of an index.

The state is still the log folded through the rules core (`replayed_state`, checked by the
tests, `flask check` and `repair`); these columns only let a page find what it shows without
doing that fold.
"""

from __future__ import annotations

import json
import zlib
from collections import namedtuple
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, select

from .kept import Kept
from .models import LOG_FORMAT, Action, Game, Party, db
from .rules import UNDO, Edition, GameState, RuleError, apply, new_game, replay, score
from .rules.fields import SEATS
from .rules.setup import REPLAYABLE

PAGE = 50  # rows of history a page shows
SEAT_FIELDS = (*SEATS, "creditor")  # the earlier rules' bankrupt named its creditor
EVERYONE = ("deal", "end_game")  # actions that concern the whole table


def pack(state: GameState, snapshot: dict | None = None) -> bytes:
    """The state as a checkpoint; `snapshot`, its `to_dict()` if the caller has it already."""
    data = state.to_dict() if snapshot is None else snapshot
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 1)


def unpack(blob: bytes) -> GameState:
    return GameState.from_dict(json.loads(zlib.decompress(blob)))


def concerned(kind: str, payload: dict, movements: Iterable, players: int) -> set[int]:
    """The seats an action names or whose money it moved."""
    if kind in EVERYONE:
        return set(range(players))
    named = {str(payload.get(field)) for field in SEAT_FIELDS}
    seats = {seat for seat in range(players) if str(seat) in named}
    for payer, payee, _amount in movements:
        seats.update(s for s in (payer, payee) if isinstance(s, int))
    return seats


def worths_of(state: GameState, edition: Edition) -> list[int]:
    return [score(state, edition, p.seat) for p in state.players]


def record(
    game: Game,
    row: Action,
    state: GameState,
    edition: Edition,
    undone=None,
    parties=(),
    snapshot: dict | None = None,
) -> set[int]:
    """Fill in the row's undo chain, checkpoint, worths and parties; move the top of the chain.
    `undone` is the row an undo takes back (which concerns the seats that row concerned);
    `parties`, the seats the rules core said the action concerns (`Outcome.parties`);
    `snapshot`, the state's `to_dict()` when the caller made it (made once per action). The
    seats it concerns."""
    if undone is not None:
        parties = {*parties, *parties_of(game, undone.seq)}
    seats = fill(game, row, state, edition, undone, parties, snapshot)
    db.session.add_all(Party(game_id=game.id, seat=seat, seq=row.seq) for seat in seats)
    return seats


def parties_of(game: Game, seq: int) -> set[int]:
    """The seats a logged action concerns, as recorded."""
    query = select(Party.seat).where(Party.game_id == game.id, Party.seq == seq)
    return set(db.session.scalars(query))


def fill(
    game, row, state: GameState, edition: Edition, undone=None, parties=(), snapshot=None
) -> set[int]:
    """`record` without the database: the row's undo chain, checkpoint and worths, the top of
    the chain moved; returns the seats it concerns (those its payload names and its money
    moved, and `parties`). Any objects with these attributes do (an import fills plain rows
    and writes them all at once: app/archive.py)."""
    row.worths = worths_of(state, edition)
    if row.kind == UNDO:
        row.undoes = undone.seq
        game.last_standing = undone.below
        about = undone
    else:
        row.below = game.last_standing
        row.checkpoint = pack(state, snapshot)
        game.last_standing = row.seq
        about = row
    return concerned(about.kind, about.payload, about.movements, len(state.players)) | set(parties)


# -- reading -----------------------------------------------------------------------------


def row_at(game: Game, seq: int | None) -> Action | None:
    if seq is None:
        return None
    query = select(Action).where(Action.game_id == game.id, Action.seq == seq)
    return db.session.scalars(query).one_or_none()


def undo_target(game: Game) -> Action | None:
    """The action the next undo takes back: the latest still in force."""
    return row_at(game, game.last_standing)


def state_at(game: Game, edition: Edition, seq: int | None) -> GameState:
    """The game's state right after action `seq` (None: right after the setup). A row of an
    earlier rules' log keeps no state (only the last one does): the undo stops there."""
    if seq is None:
        return new_game(edition, game.setup)
    row = row_at(game, seq)
    if row is None or row.checkpoint is None:
        raise RuleError(
            "rules",
            "This action was logged under an earlier version of the rules: the game before it "
            "is not known, so it cannot be undone.",
        )
    return unpack(row.checkpoint)


# What a history shows of a row: read as plain rows, not as the log's objects (a phone's page
# reads a page of them at every action; the objects' bookkeeping cost more than the query).
SHOWN = (
    Action.game_id,
    Action.seq,
    Action.kind,
    Action.payload,
    Action.actor,
    Action.created_at,
    Action.text,
    Action.lines,
    Action.movements,
    Action.undoes,
)


# The queries every live page runs at every action, built once with their parameters: to
# build a statement afresh costs more than SQLite takes to answer it.
UNDONE_AMONG = select(Action.undoes).where(
    Action.game_id == bindparam("game"),
    Action.undoes >= bindparam("first"),
    Action.undoes <= bindparam("last"),
)
ANYONES_PAGE = (
    select(*SHOWN)
    .where(Action.game_id == bindparam("game"), Action.seq < bindparam("before"))
    .order_by(Action.seq.desc())
    .limit(bindparam("limit"))
)
OWN_PAGE = (
    select(*SHOWN)
    .join(Party, (Party.game_id == Action.game_id) & (Party.seq == Action.seq))
    .where(
        Party.game_id == bindparam("game"),
        Party.seat == bindparam("seat"),
        Party.seq < bindparam("before"),
    )
    .order_by(Party.seq.desc())
    .limit(bindparam("limit"))
)
NEWEST = 2**31 - 1  # "before" for the newest page: the largest INTEGER (PostgreSQL refuses more)
KEPT_NEWEST = 6  # the newest rows a process keeps for its live pages (the table shows as many)
Shown = namedtuple("Shown", [column.key for column in SHOWN])  # a row as a history shows it
# The newest rows at a version with the seats each concerns (a row once per seat, or once
# with no seat): the actions are numbered 1, 2, ... so the newest n are those after version - n.
NEWEST_WITH_PARTIES = (
    select(*SHOWN, Party.seat)
    .outerjoin(Party, (Party.game_id == Action.game_id) & (Party.seq == Action.seq))
    .where(
        Action.game_id == bindparam("game"),
        Action.seq > bindparam("after"),
        Action.seq <= bindparam("upto"),
    )
    .order_by(Action.seq.desc())
)


def undone_in(game: Game, rows: list, newest: bool) -> set[int]:
    """Which of these rows (SHOWN, newest first) an undo has taken back. On a newest page
    (anyone's or a seat's own) the undo of any of its rows is on it too: an undo comes after
    what it takes back and concerns the same seats. Only an older page asks the database."""
    if newest:
        return {row.undoes for row in rows if row.kind == UNDO}
    return undone_among(game, [row.seq for row in rows if row.kind != UNDO])


def undone_among(game: Game, seqs: list[int]) -> set[int]:
    """Which of these actions an undo has taken back."""
    if not seqs:
        return set()
    found = {"game": game.id, "first": min(seqs), "last": max(seqs)}
    return set(db.session.scalars(UNDONE_AMONG, found))


def page_of(game: Game, before: int | None = None, limit: int = PAGE) -> list:
    """Up to `limit` rows older than `before` (None: the newest), newest first (SHOWN)."""
    asked = {"game": game.id, "before": NEWEST if before is None else before, "limit": limit}
    return list(db.session.execute(ANYONES_PAGE, asked))


@dataclass(frozen=True)
class Newest:
    """The log's KEPT_NEWEST newest rows at a version (Shown, newest first) and the seats
    each concerns, by seq."""

    version: int
    rows: list
    seats: dict[int, frozenset[int]]


# game id -> its newest rows, for the live pages of this process: kept between two versions,
# so that the request that appends the next row hands it over instead of a read
_newest: Kept[Newest] = Kept(512, lambda newest: newest.version)


def newest_at(game: Game) -> Newest:
    """The newest rows at the game's version: kept by this process (the request that acted
    here handed over its row), else read in one query."""
    found = _newest.at(game.id, game.version, lambda _earlier: read_newest(game))
    return found if found.version == game.version else read_newest(game)  # an older game


def read_newest(game: Game) -> Newest:
    rows: dict[int, Shown] = {}
    seats: dict[int, set[int]] = {}
    asked = {"game": game.id, "after": game.version - KEPT_NEWEST, "upto": game.version}
    for found in db.session.execute(NEWEST_WITH_PARTIES, asked):
        rows.setdefault(found.seq, Shown(*found[: len(Shown._fields)]))
        concerns = seats.setdefault(found.seq, set())
        if found.seat is not None:
            concerns.add(found.seat)
    frozen = {seq: frozenset(found) for seq, found in seats.items()}
    return Newest(game.version, list(rows.values()), frozen)


def appended(game: Game, row: Action, seats: set[int]) -> None:
    """The row of the game's latest action, just committed by this process, with the seats
    it concerns: the newest rows kept for the version before it move on without a read."""
    moved_on(game.id, game.version, Shown(*(getattr(row, name) for name in Shown._fields)), seats)


def moved_on(game_id: str, version: int, row: Shown, seats: Iterable[int]) -> None:
    earlier = _newest.get(game_id)
    if earlier is None or earlier.version != version - 1 or row.seq != version:
        return
    rows = [row, *earlier.rows][:KEPT_NEWEST]
    known = {**earlier.seats, row.seq: frozenset(seats)}
    _newest.keep(game_id, Newest(version, rows, {r.seq: known[r.seq] for r in rows}))


CARRIED = tuple(name for name in Shown._fields if name != "game_id")  # what the news carries


def news_of(row: Action, seats: Iterable[int]) -> str:
    """The row of a new version and the seats it concerns, as the news to the other
    processes carries it (JSON; the row's time set before it is written)."""
    fields = {name: getattr(row, name) for name in CARRIED}
    fields["created_at"] = row.created_at.isoformat()
    return json.dumps({**fields, "seats": sorted(seats)}, ensure_ascii=False)


def heard(game_id: str, version: int, news: str) -> None:
    """The row of a game's new version, as another process's news carried it: the newest
    rows this process keeps for the game move on without a read. News it cannot read is
    passed over (the rows are read when a page needs them)."""
    try:
        fields = json.loads(news)
        seats = [int(seat) for seat in fields.pop("seats")]
        fields["created_at"] = datetime.fromisoformat(fields["created_at"])
        row = Shown(game_id=game_id, **{name: fields[name] for name in CARRIED})
    except (ValueError, KeyError, TypeError, AttributeError):
        return
    moved_on(game_id, version, row, seats)


def own_page_of(game: Game, seat: int, before: int | None = None, limit: int = PAGE) -> list:
    """Up to `limit` rows that concern this seat, older than `before` (None: the newest at the
    game's version), newest first."""
    newest = game.version + 1 if before is None else before
    asked = {"game": game.id, "seat": seat, "before": newest}
    return list(db.session.execute(OWN_PAGE, {**asked, "limit": limit}))


def worths_in_force(game: Game, edition: Edition, most: int | None = None):
    """Every seat's score after the setup and after each action still in force, as
    (position, worths) pairs in order; at most `most` of them, evenly spaced, the first and
    the last always kept. Reads the undo rows and the chosen rows only."""
    undos = db.session.execute(
        select(Action.seq, Action.undoes).where(
            Action.game_id == game.id, Action.undoes.is_not(None)
        )
    ).all()
    skipped = {seq for pair in undos for seq in pair}
    in_force = [seq for seq in range(1, game.version + 1) if seq not in skipped]
    positions = spaced(len(in_force) + 1, most)
    wanted = [in_force[n - 1] for n in positions if n > 0]
    found = (
        dict(
            db.session.execute(
                select(Action.seq, Action.worths).where(
                    Action.game_id == game.id, Action.seq.in_(wanted)
                )
            ).all()
        )
        if wanted
        else {}
    )
    start = worths_of(new_game(edition, game.setup), edition)
    points = [(n, found[in_force[n - 1]] if n else start) for n in positions]
    return [(n, worths) for n, worths in points if worths is not None]  # earlier rules' rows


def spaced(count: int, most: int | None) -> list[int]:
    """Up to `most` positions out of range(count), evenly spaced, first and last kept."""
    if most is None or count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(k * step) for k in range(most)})


# -- the whole log: replay, for the tests and the host's check and repair, never a page ----


def replayed_state(game: Game, edition: Edition) -> GameState:
    """The state the log alone gives, up to the snapshot's own version (the log only grows,
    so a snapshot and the rows up to its version are one consistent picture): it must equal
    the snapshot. A log written under earlier rules is history only."""
    if not replayable(game):
        raise RuleError(
            "rules",
            "This game was logged under an earlier version of the rules: its history is "
            "kept, and its saved state is what counts; it cannot be replayed from its log.",
        )
    return replay(edition, game.setup, log_entries(game))


def replayable(game: Game) -> bool:
    """False for a game logged under earlier rules than those that replay today
    (rules.setup.REPLAYABLE): its snapshot is what counts, its log is history only."""
    return game.setup.get("rules") in REPLAYABLE


def log_entries(game: Game) -> list[tuple[str, dict]]:
    rows = db.session.execute(
        select(Action.kind, Action.payload)
        .where(Action.game_id == game.id, Action.seq <= game.version)
        .order_by(Action.seq)
    )
    return [(kind, payload) for kind, payload in rows]


# -- games logged before these columns existed -------------------------------------------


def reindex(game: Game, edition: Edition) -> None:
    """Walk an old game's log once, in order, and fill in what `record` writes today."""
    state = new_game(edition, game.setup)
    in_force: list[Action] = []
    game.last_standing = None
    db.session.execute(delete(Party).where(Party.game_id == game.id))
    rows = db.session.scalars(
        select(Action).where(Action.game_id == game.id).order_by(Action.seq)
    ).all()
    for row in rows:
        undone = None
        if row.kind == UNDO:
            if not in_force:
                continue  # an undo with nothing to take back was refused, never logged
            undone = in_force.pop()
            state = state_at_row(in_force[-1] if in_force else None, game, edition)
            parties = ()
        else:
            outcome = apply(state, edition, row.kind, row.payload)
            state, parties = outcome.state, outcome.parties
            in_force.append(row)
        record(game, row, state, edition, undone, parties)
    game.log_format = LOG_FORMAT


def state_at_row(row: Action | None, game: Game, edition: Edition) -> GameState:
    return unpack(row.checkpoint) if row is not None else new_game(edition, game.setup)


def index_history_only(game: Game, edition: Edition) -> None:
    """An old game logged under earlier rules, which do not replay: its undo chain and parties
    from the rows alone, and its snapshot as the checkpoint and worths of the top action (so
    the next undo takes back an action of today's rules to exactly there)."""
    in_force: list[Action] = []
    db.session.execute(delete(Party).where(Party.game_id == game.id))
    players = len(game.state["players"])
    for row in db.session.scalars(
        select(Action).where(Action.game_id == game.id).order_by(Action.seq)
    ):
        if row.kind == UNDO:
            if not in_force:
                continue
            undone = in_force.pop()
            row.undoes, about = undone.seq, undone
        else:
            row.below, about = in_force[-1].seq if in_force else None, row
            in_force.append(row)
        seats = concerned(about.kind, about.payload, about.movements, players)
        db.session.add_all(Party(game_id=game.id, seat=seat, seq=row.seq) for seat in seats)
    game.last_standing = in_force[-1].seq if in_force else None
    if in_force:
        state = GameState.from_dict(game.state)
        in_force[-1].checkpoint = pack(state)
        in_force[-1].worths = worths_of(state, edition)
    game.log_format = LOG_FORMAT


def reindex_old_games(editions: dict[str, Edition]) -> int:
    """Fill in every game logged before LOG_FORMAT; returns how many there were."""
    old = db.session.scalars(select(Game).where(Game.log_format < LOG_FORMAT)).all()
    for game in old:
        if game.edition not in editions:
            continue
        if replayable(game):
            reindex(game, editions[game.edition])
        else:
            index_history_only(game, editions[game.edition])
    db.session.commit()
    return len(old)
