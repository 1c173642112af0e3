"""Writers on one game take their turn in each process before they touch the database.

Every action on a game waits for the same lock (bank._lock: a row lock on PostgreSQL, the
write lock on SQLite). If 300 requests for one game each held a pooled connection while
they waited, the pool (15 per process) would run dry and every game of the process would
get 503s. Instead, a process lets one writer per game at a time go to the database; the
others wait here, in the order they came, holding no connection, and the request's
deadline (db_setup.with_deadline: the database's time) does not run meanwhile. A turn that
has not come after TURN_WAIT_SECONDS is answered 503 "busy", in words.

A banker's write (a POST naming the game in its address) takes its turn before anything
reads the database for it (the banker check loads the game), so a crowd of writers on one
game holds no pooled connection at all; other writes (a phone's) take it in bank.perform.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from flask import Flask, current_app, g, has_request_context, request

_registry = threading.Lock()
_turns: dict[str, list] = {}  # game id -> [its lock, requests holding or waiting for it]


class Busy(Exception):
    """This process's writers on the game did not clear in TURN_WAIT_SECONDS."""


@contextmanager
def turn(game_id: str) -> Iterator[None]:
    """The game's turn in this process, for the block; at once if this request has it."""
    if has_request_context() and g.get("turn_of") == game_id:
        yield
        return
    with _registry:
        entry = _turns.setdefault(game_id, [threading.Lock(), 0])
        entry[1] += 1
    lock = entry[0]
    try:
        if not lock.acquire(blocking=False):
            _wait(lock)
        held = has_request_context() and g.get("turn_of") is None
        if held:
            g.turn_of = game_id
        try:
            yield
        finally:
            if held:
                g.turn_of = None
            lock.release()
    finally:
        with _registry:
            entry[1] -= 1
            if not entry[1]:
                del _turns[game_id]


def _wait(lock) -> None:
    """Wait for the game's turn without a database connection and off the deadline."""
    from .db_setup import deadline_paused
    from .models import db

    db.session.rollback()  # what the request read so far: its connection goes back to the pool
    with deadline_paused():
        if not lock.acquire(timeout=current_app.config["TURN_WAIT_SECONDS"]):
            raise Busy()


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
