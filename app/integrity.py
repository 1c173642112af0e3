"""Snapshot integrity: the bank seals the snapshot it writes (`game.state_sum`), an HMAC of
the game's id, version and state keyed with the server's SECRET_KEY, so a snapshot changed
behind the bank's back (a hand edit in the database, a damaged disk) cannot be sealed again
by whoever changed it. A game whose seal is empty or wrong is served read-only: every action
is refused with a clear message and its pages say so, until the host rebuilds it from the
log, which is the source of truth (app/upkeep.py: `flask --app tablebank check` and
`repair`). Other games are untouched.

Games sealed before the seal was keyed (a plain SHA-256) were sealed again with the key by
the migration b7d2e4f6a8c1, each only if its old seal still matched."""

from __future__ import annotations

import hashlib
import hmac
import json

from flask import Flask, current_app

from .rules import RuleError

PURPOSE = b"tablebank snapshot seal\x00"  # the seal's key is the secret's, for this use only


def canonical(state: dict) -> str:
    """The snapshot as the database gives it back (JSON keys are text), one way."""
    return in_order(json.loads(json.dumps(state)))


def in_order(state: dict) -> str:
    """`canonical` of a snapshot whose keys are all text already (one read from the
    database): the same text in one pass instead of three."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def seal_key(secret: str | bytes) -> bytes:
    raw = secret.encode() if isinstance(secret, str) else secret
    return hashlib.sha256(PURPOSE + raw).digest()


def state_sum(game_id: str, version: int, state: dict, secret: str | bytes, text=canonical) -> str:
    """The seal: HMAC-SHA256 of the game's id, version and canonical state."""
    message = f"{game_id}\n{version}\n{text(state)}".encode()
    return hmac.new(seal_key(secret), message, hashlib.sha256).hexdigest()


def _sum_of(game, text=canonical) -> str:
    return state_sum(game.id, game.version, game.state, current_app.config["SECRET_KEY"], text)


def _sealed_as_read(game) -> bool:
    """The seal matches the snapshot taken as read from the database (keys all text). A
    snapshot with other keys fails here (its text differs, or its keys cannot be ordered)
    and is checked the long way."""
    try:
        return hmac.compare_digest(game.state_sum, _sum_of(game, in_order))
    except TypeError:
        return False


SEALED = "_sealed"  # in the game object: the snapshot, version and seal known to match


def seal(game) -> None:
    game.state_sum = _sum_of(game)
    _known(game)


def intact(game) -> bool:
    """True when the seal is the one the bank would write for this snapshot; an empty seal
    never is (every game has had one since the migration b7d2e4f6a8c1). Worked out once per
    snapshot object: the page a tap's answer draws takes the game its action just sealed,
    and a snapshot read from the database is always a new object, checked afresh."""
    known = game.__dict__.get(SEALED)
    if known is not None and known[0] is game.state and known[1:] == _mark(game):
        return True
    if not game.state_sum:
        return False
    if _sealed_as_read(game) or hmac.compare_digest(game.state_sum, _sum_of(game)):
        _known(game)
        return True
    return False


def _known(game) -> None:
    """The game's snapshot, as it is now (the very object), matches its seal."""
    game.__dict__[SEALED] = (game.state, *_mark(game))  # the object held: its id stays its own


def _mark(game) -> tuple:
    return game.version, game.state_sum


def check(game) -> None:
    if not intact(game):
        raise RuleError(
            "integrity",
            "This game's saved state does not match its log, so nothing can be done in it. "
            "The host can repair it from the log.",
        )


def register(app: Flask) -> None:
    app.add_template_global(lambda game: not intact(game), "unsealed")  # base.html's warning
