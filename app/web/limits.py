"""Rate limits against anonymous load: new games (and imports) per client (an IPv4 address,
an IPv6 /64) and for everyone together; every write from a player's link (any POST under
/p/<token>), per link, in one count. Each counter is a fixed window kept in the app's own
database (table `rate_count`), so every worker process of a server shares them, with no Redis.

Settings: RATE_LIMIT_CREATE, RATE_LIMIT_CREATE_ALL, RATE_LIMIT_PLAYER (the notation of the
`limits` package, "10/minute;100/day", which reads them), RATELIMIT_ENABLED. Behind a proxy,
set PROXY_FIX so the client's address is the real one.

The checking is this module's own, a before-request hook, and `limits` is imported at the
first limited request: Flask-Limiter, which did both before, cost every start 25 ms before
its first answer (docs/PERFORMANCE.md, "Cold start").
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from flask import Flask, abort, current_app, jsonify, request
from flask_babel import gettext
from sqlalchemy import delete

from ..models import RateCount, db
from ..serving import client_group, is_api

LIMITED = "tablebank.limits"  # app.extensions[LIMITED]: endpoint -> its limits, in order


@dataclass(frozen=True)
class Limit:
    setting: Callable[[], str]  # the limits, read from the settings at each request
    scope: str  # the counter's name: the endpoints that share it share the count
    key: Callable[[], str]  # who is counted: a client, everyone, a player's link


def count(key: str, expiry: int) -> int:
    """One more on the counter `key`, in a window of `expiry` seconds from its first count:
    the count so far in the window. Its own short transaction on its own connection, apart
    from the request's."""
    now = time.time()
    engine = db.engine  # the current app's
    insert = upsert(engine.dialect.name)
    table = RateCount.__table__
    fresh = table.c.expires_at < now
    statement = insert(table).values(key=key[:255], count=1, expires_at=now + expiry)
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.key],
        set_={
            "count": db.case((fresh, 1), else_=table.c.count + 1),
            "expires_at": db.case((fresh, now + expiry), else_=table.c.expires_at),
        },
    ).returning(table.c.count)
    with engine.begin() as connection:
        counted = connection.execute(statement).scalar_one()
        if random.random() < 0.01:  # now and then, forget windows long over
            connection.execute(delete(table).where(table.c.expires_at < now - 3600))
    return counted


def upsert(dialect: str):
    """The database's own INSERT ... ON CONFLICT, imported when first counted."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert


@lru_cache(maxsize=64)
def windows(setting: str) -> tuple:
    """A setting ("10/minute;60/hour") read as `limits` items: each an amount, a window and
    the name of its counters."""
    from limits import parse_many

    return tuple(parse_many(setting))


def check() -> None:
    """Before the view (and before the banker check: a flood is turned away first): each of
    the endpoint's limits counted, the shortest window first (equal ones in their order), up
    to the first one over, which answers 429; a limit not reached is not counted then."""
    limits = current_app.extensions[LIMITED].get(request.endpoint)
    if not limits or not current_app.config["RATELIMIT_ENABLED"]:
        return
    counted = [(item, limit) for limit in limits for item in windows(limit.setting())]
    for item, limit in sorted(counted, key=lambda pair: pair[0].get_expiry()):
        key = limit.key()
        if key and count(item.key_for(key, limit.scope), item.get_expiry()) > item.amount:
            abort(429)


def per_client() -> str:
    """New games count per IPv4 address and per IPv6 /64 (serving.client_group)."""
    return client_group(request.remote_addr)


def everyone() -> str:
    return "everyone"


PHONE_WRITES = "/p/<token>"  # every POST route under it is a write from a player's phone


def register(app: Flask) -> None:
    app.extensions[LIMITED] = {}
    app.before_request(check)

    @app.errorhandler(429)
    def too_many(_error):
        words = gettext("Too many requests from here: wait a minute and try again.")
        if is_api(request.path):
            answer = jsonify({"error": words, "rule": "rate_limited"})
        else:
            answer = words
        return answer, 429, {"Retry-After": "60"}


def apply(app: Flask) -> None:
    """The limits, on views registered by their blueprints: new games (pages, API, import)
    share one counter per client, checked first, and one for everyone, which a client already
    over its own limit does not use up; all the writes of a player's link share one counter."""
    limited = app.extensions[LIMITED]
    new_games = [
        Limit(create_limit, "new-game", per_client),
        Limit(create_limit_all, "new-game-all", everyone),
    ]
    for endpoint in ("banker.create", "api.create_game", "api.import_game"):
        if endpoint in app.view_functions:
            limited[endpoint] = new_games
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(PHONE_WRITES) and "POST" in (rule.methods or ()):
            limited[rule.endpoint] = [Limit(player_limit, "phone-writes", per_link)]


def create_limit() -> str:
    return current_app.config["RATE_LIMIT_CREATE"]


def create_limit_all() -> str:
    return current_app.config["RATE_LIMIT_CREATE_ALL"]


def player_limit() -> str:
    return current_app.config["RATE_LIMIT_PLAYER"]


def per_link() -> str:
    """A player's writes count against their own link, wherever they come from."""
    return "link:" + str((request.view_args or {}).get("token", ""))[:64]
