"""The database's faults as answers: a database that is down, slow or frozen answered 503 in
plain words within seconds (a stream told when to come back), a game too busy 503, a full disk
507; the request's deadline under gevent."""

from __future__ import annotations

import time
from contextlib import suppress

from flask import Flask, current_app, g, jsonify, request
from flask_babel import gettext
from sqlalchemy import exc

from .. import writers
from ..db_setup import UNAVAILABLE, disk_full, gevent_patched
from ..models import db
from ..serving import is_api
from .streams import retry_stream

STREAMS = (
    "streams.player_live",
    "streams.table_live",
    "streams.banker_live",
    "streams.auction_live",
)


def unavailable_message() -> str:
    return gettext("The game's database is not answering. Try again in a few seconds.")


def _unavailable(error: Exception):
    """503 in plain words (JSON under /api); the pool tests a connection that sat idle before
    use (db_setup.py), and a failed one starts it afresh, so the next request after the
    database is back simply works."""
    with suppress(Exception):  # the connection is gone: nothing to roll back
        db.session.rollback()
    writers.database_failed()  # and the writers waiting for this game's turn are told at once
    if request.endpoint in STREAMS:  # EventSource gives up on an error status: come back later
        return retry_stream()
    if is_api(request.path):
        answer = jsonify({"error": unavailable_message(), "rule": "unavailable"})
    else:
        answer = unavailable_message()
    return answer, 503, {"Retry-After": "5", "Content-Type": _type(answer)}


def _type(answer) -> str:
    return "application/json" if not isinstance(answer, str) else "text/plain; charset=utf-8"


def with_deadline(app: Flask) -> None:
    """Under gevent only: a request whose handler (not its streamed body) has not finished
    after REQUEST_DEADLINE seconds is answered 503. This catches a database that accepts
    connections but never answers (a frozen server, a cut network), which no server-side
    timeout can. The connection the deadline interrupted is dropped, never reused."""
    import gevent

    dispatch = app.full_dispatch_request

    def full_dispatch_request():
        deadline = gevent.Timeout(app.config["REQUEST_DEADLINE"])
        g.deadline, g.deadline_started = deadline, time.monotonic()
        g.deadline_timer = deadline  # what is armed now (see awaiting_commit)
        deadline.start()
        try:
            return dispatch()
        except gevent.Timeout as expired:
            if expired is not deadline:
                raise
            app.logger.error("%s %s: no answer in time", request.method, request.path)
            session = db.session()
            with suppress(Exception):
                # The connections the session holds (never a new one: that would wait too).
                held = getattr(session.get_transaction(), "_connections", None) or {}
                for connection, *_ in list(held.values()):
                    connection.invalidate()
            with suppress(Exception):
                session.rollback()
            return app.make_response(_unavailable(RuntimeError("deadline")))
        finally:
            g.deadline_timer.close()

    app.full_dispatch_request = full_dispatch_request


def busy_message() -> str:
    return gettext("This game is busy: many actions are waiting. Try again in a few seconds.")


def _busy(_error: Exception):
    if is_api(request.path):
        answer = jsonify({"error": busy_message(), "rule": "busy"})
    else:
        answer = busy_message()
    return answer, 503, {"Retry-After": "5", "Content-Type": _type(answer)}


def disk_full_message() -> str:
    return gettext("The server's disk is full: nothing was saved. Ask the host to free some space.")


def _disk_full(error: exc.DBAPIError):
    """507 in plain words, and a line in the log for the host; nothing was written."""
    current_app.logger.error("the database's disk is full: %s", type(error.orig).__name__)
    with suppress(Exception):
        db.session.rollback()
    if is_api(request.path):
        answer = jsonify({"error": disk_full_message(), "rule": "disk_full"})
    else:
        answer = disk_full_message()
    return answer, 507, {"Content-Type": _type(answer)}


def _database_error(error: exc.DBAPIError):
    """A full disk: 507. A dropped connection, a timeout, or any driver error once the
    request's deadline has passed (an interrupted connection fails in odd ways): 503.
    Anything else stays a bug."""
    if disk_full(error):
        return _disk_full(error)
    started = g.get("deadline_started")
    late = started is not None and time.monotonic() - started >= _deadline_seconds()
    if isinstance(error, UNAVAILABLE) or error.connection_invalidated or late:
        return _unavailable(error)
    raise error


def _deadline_seconds() -> float:
    return float(current_app.config.get("REQUEST_DEADLINE") or 0) or float("inf")


def register(app: Flask) -> None:
    app.register_error_handler(exc.DBAPIError, _database_error)
    app.register_error_handler(exc.TimeoutError, _unavailable)  # no pooled connection free
    app.register_error_handler(writers.Busy, _busy)
    if gevent_patched() and app.config.get("REQUEST_DEADLINE"):
        with_deadline(app)
