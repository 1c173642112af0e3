"""Writers on one game take their turn in each process before they touch the database.

Every action on a game waits for the same lock (bank._lock: a row lock on PostgreSQL, the
write lock on SQLite). If 300 requests for one game each held a pooled connection while
they waited, the pool (15 per process) would run dry and every game of the process would
get 503s. Instead, a process lets one writer per game at a time go to the database; the
others wait here, in the order they came, holding no connection, and the request's
deadline (db_setup.with_deadline: the database's time) does not run meanwhile. They wait
as long as the queue moves: only when no writer of the game has finished for
TURN_WAIT_SECONDS (longer than a turn can take: the deadline plus DB_COMMIT_TIMEOUT) is a
waiting request answered 503 "busy", in words.

When a turn ends for want of a database (down, frozen: a 503), the writers that were already
waiting behind it are answered 503 at once too, rather than each in turn after its own
deadline.

A banker's write (a POST naming the game in its address) takes its turn before anything
reads the database for it (the banker check loads the game), so a crowd of writers on one
game holds no pooled connection at all; other writes (a phone's) take it in bank.perform.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import exc

_registry = threading.Lock()
# game id -> [its lock, requests holding or waiting, turns ended, turns ended without database]
_turns: dict[str, list] = {}


class Busy(Exception):
    """No writer of this process finished a turn on the game for TURN_WAIT_SECONDS."""


@contextmanager
def turn(game_id: str) -> Iterator[None]:
    """The game's turn in this process, for the block; at once if this request has it."""
    if has_request_context() and g.get("turn_of") == game_id:
        yield
        return
    with _registry:
        entry = _turns.setdefault(game_id, [threading.Lock(), 0, 0, 0])
        entry[1] += 1
    lock, failed = entry[0], entry[3]
    try:
        if not lock.acquire(blocking=False):
            _wait(entry)
            if entry[3] != failed:  # the database failed the writers ahead: it fails this one
                lock.release()
                raise exc.TimeoutError("the game's writers ahead found no database")
        held = has_request_context() and g.get("turn_of") is None
        if held:
            g.turn_of = game_id
        try:
            yield
        except BaseException as error:
            if _no_database(error):
                entry[3] += 1
            raise
        finally:
            if held:
                g.turn_of = None
            entry[2] += 1
            lock.release()
    finally:
        with _registry:
            entry[1] -= 1
            if not entry[1]:
                del _turns[game_id]


def _no_database(error: BaseException) -> bool:
    """The database did not answer (a full disk answers: each writer is told so itself)."""
    from .db_setup import UNAVAILABLE, disk_full

    if isinstance(error, UNAVAILABLE):
        return not (isinstance(error, exc.DBAPIError) and disk_full(error))
    return type(error).__name__ == "Timeout"  # gevent's, the request's deadline


def database_failed() -> None:
    """This request is answered 503 for want of a database (db_setup): the writers waiting
    for its game's turn are answered so too."""
    game_id = g.get("turn_of") if has_request_context() else None
    entry = _turns.get(game_id) if game_id else None
    if entry is not None:
        entry[3] += 1


def _wait(entry: list) -> None:
    """Wait for the game's turn without a database connection and off the deadline, as long
    as turns keep ending."""
    from .db_setup import deadline_paused
    from .models import db

    db.session.rollback()  # what the request read so far: its connection goes back to the pool
    lock, stall = entry[0], current_app.config["TURN_WAIT_SECONDS"]
    with deadline_paused():
        done = entry[2]
        while not lock.acquire(timeout=stall):
            if entry[2] == done:
                raise Busy()
            done = entry[2]


def register(app: Flask) -> None:
    """A banker's POST to /g/<game_id>/... waits for the game's turn first (before the banker
    check reads the game) and keeps it until the request ends."""

    @app.before_request
    def writers_of_one_game_take_turns():
        game_id = (request.view_args or {}).get("game_id")
        if request.method == "POST" and isinstance(game_id, str) and "\x00" not in game_id:
            held = ExitStack()
            held.enter_context(turn(game_id))
            g.turn_held = held

    @app.teardown_request
    def end_of_turn(_error=None):
        held = g.pop("turn_held", None)
        if held is not None:
            held.close()
