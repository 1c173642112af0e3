"""Games as of a version, kept in each process for its live pages: at each new version the
game's row is read once (or handed over by the request that made it), its state parsed once,
and what pages work out from it (`worked_out`: the view, the standings, what waits) worked
out once, whatever the number of open pages that draw it. Once they all have, it is let go
(`forget`): between two actions a game costs its open pages nothing here.

A kept game is a copy that belongs to no database session: read-only, shared by the
streams of the process."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import select

from .kept import Kept
from .models import Game, db

MOST = 512  # games kept per process (the newest version of each), least recently used out
COLUMNS = tuple(column.key for column in Game.__table__.columns)
T = TypeVar("T")

_kept: Kept[Game] = Kept(MOST, lambda game: game.version)


def keep(game: Game, state=None) -> Game:
    """Keep a copy of the game as it is now (just committed); `state` is its parsed state,
    when the caller has it, so it is not parsed again."""
    copy = Game(**{name: getattr(game, name) for name in COLUMNS})
    if state is not None:
        copy.__dict__["_parsed_state"] = (copy.state, state)  # bank.state_of's own cache
    # What the request works out for its answer (the view, the standings) its pages need too.
    copy.__dict__["_worked_out"] = memo_of(game)
    return _kept.keep(copy.id, copy)


def at(game_id: str, version: int) -> Game | None:
    """The game at `version` or later: the kept copy, else its row read now (one query, by
    one stream of the process while the others wait for it) and kept; None if there is no
    such game."""
    return _kept.at(game_id, version, lambda _earlier: read(game_id))


def forget(game_id: str, version: int) -> None:
    """Every open page here has drawn the game at `version`: its copy (the parsed state and
    what pages worked out from it, tens of kB) is let go until the next version."""
    _kept.forget(game_id, version)


def read(game_id: str) -> Game | None:
    query = select(Game.__table__).where(Game.id == game_id)
    row = db.session.execute(query).mappings().first()
    return None if row is None else Game(**dict(row))


def worked_out(game: Game, name: str, work: Callable[[], T]) -> T:
    """What `work` gives for this game object at its version, worked out once: once per
    version for a kept game, once per request (and version) for a request's own. The pages
    that want it at once wait for the one working it out (a query lets another run)."""
    done, lock = memo_of(game)[1:]
    if name not in done:
        with lock:
            if name not in done:
                done[name] = work()
    return done[name]


def memo_of(game: Game) -> tuple[dict, dict, threading.RLock]:
    """What was worked out for the game object's state (which it names), and the lock of
    its working out."""
    memo = game.__dict__.get("_worked_out")
    if memo is None or memo[0] is not game.state:  # the request's game moved on
        memo = game.__dict__["_worked_out"] = (game.state, {}, threading.RLock())
    return memo
