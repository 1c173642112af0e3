"""Rate limits against anonymous load (Flask-Limiter): new games (and imports) per client
(an IPv4 address, an IPv6 /64) and for everyone together; every write from a player's link
(any POST under /p/<token>), per link, in one count. The counters live in the app's own
database (table `rate_count`), so every worker process of a server shares them, with no Redis.

Settings: RATE_LIMIT_CREATE, RATE_LIMIT_CREATE_ALL, RATE_LIMIT_PLAYER (Flask-Limiter's
notation, "10/minute;100/day"), RATELIMIT_ENABLED. Behind a proxy, set PROXY_FIX so the
client's address is the real one.
"""

from __future__ import annotations

import random
import time

from flask import Flask, current_app, jsonify, request
from flask_babel import gettext
from flask_limiter import Limiter
from limits.storage import Storage
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError

from ..models import RateCount, db
from ..serving import client_group, is_api

SCHEME = "tablebank"


class DatabaseStorage(Storage):
    """limits' storage in the app's database: one row per counter, a fixed window each. Each
    count is its own short transaction on its own connection, apart from the request's."""

    STORAGE_SCHEME = [SCHEME]

    @property
    def base_exceptions(self):
        return SQLAlchemyError

    def _engine(self):
        return db.engine  # the current app's

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        engine = self._engine()
        insert = upsert(engine.dialect.name)
        table = RateCount.__table__
        fresh = table.c.expires_at < now
        statement = insert(table).values(key=key[:255], count=amount, expires_at=now + expiry)
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "count": db.case((fresh, amount), else_=table.c.count + amount),
                "expires_at": db.case((fresh, now + expiry), else_=table.c.expires_at),
            },
        ).returning(table.c.count)
        with engine.begin() as connection:
            count = connection.execute(statement).scalar_one()
            if random.random() < 0.01:  # now and then, forget windows long over
                connection.execute(delete(table).where(table.c.expires_at < now - 3600))
        return count

    def _row(self, key: str):
        with self._engine().connect() as connection:
            return connection.execute(
                select(RateCount.count, RateCount.expires_at).where(RateCount.key == key[:255])
            ).first()

    def get(self, key: str) -> int:
        row = self._row(key)
        return row.count if row is not None and row.expires_at >= time.time() else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row.expires_at if row is not None else time.time()

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._engine().begin() as connection:
            return connection.execute(delete(RateCount)).rowcount

    def clear(self, key: str) -> None:
        with self._engine().begin() as connection:
            connection.execute(delete(RateCount).where(RateCount.key == key[:255]))


def upsert(dialect: str):
    """The database's own INSERT ... ON CONFLICT, imported when first counted."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert


def per_client() -> str:
    """New games count per IPv4 address and per IPv6 /64 (serving.client_group)."""
    return client_group(request.remote_addr)


def everyone() -> str:
    return "everyone"


limiter = Limiter(key_func=per_client, default_limits=[])
PHONE_WRITES = "/p/<token>"  # every POST route under it is a write from a player's phone


def register(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", f"{SCHEME}://")
    # No X-RateLimit-* headers: they are read from the database after the view, when an
    # action or a game is already committed and the request's deadline may have run out (a
    # 503 for a game made). A refusal says Retry-After.
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    limiter.init_app(app)

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
    for endpoint in ("banker.create", "api.create_game", "api.import_game"):
        if endpoint in app.view_functions:
            view = app.view_functions[endpoint]
            # Equal periods are checked in the order applied, and the first one over stops
            # the count: the client's own limit first.
            view = limiter.shared_limit(create_limit, scope="new-game")(view)
            view = limiter.shared_limit(create_limit_all, scope="new-game-all", key_func=everyone)(
                view
            )
            app.view_functions[endpoint] = view
    phone_writes = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(PHONE_WRITES) and "POST" in (rule.methods or ())
    }
    for endpoint in sorted(phone_writes):
        view = app.view_functions[endpoint]
        limited = limiter.shared_limit(player_limit, scope="phone-writes", key_func=per_link)
        app.view_functions[endpoint] = limited(view)


def create_limit() -> str:
    return current_app.config["RATE_LIMIT_CREATE"]


def create_limit_all() -> str:
    return current_app.config["RATE_LIMIT_CREATE_ALL"]


def player_limit() -> str:
    return current_app.config["RATE_LIMIT_PLAYER"]


def per_link() -> str:
    """A player's writes count against their own link, wherever they come from."""
    return "link:" + str((request.view_args or {}).get("token", ""))[:64]
