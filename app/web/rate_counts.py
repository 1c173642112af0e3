"""The rate limits' counters (app/web/limits.py) in the app's own database, table
`rate_count`: one row per counter, a fixed window each, so that every worker process of a
server shares them with no Redis. Counted with `limits` (its notation, "10/minute;60/hour",
and its fixed-window strategy); this module is imported at the first limited request, as
`limits` loads its asyncio storages with it (30 ms of a start before its first answer)."""

from __future__ import annotations

import functools
import random
import time

from limits import RateLimitItem, parse_many
from limits.storage import Storage
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError

from ..models import RateCount, db


class DatabaseStorage(Storage):
    """limits' storage in the app's database. Each count is its own short transaction on its
    own connection, apart from the request's."""

    STORAGE_SCHEME = ["tablebank"]

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


WINDOWS = FixedWindowRateLimiter(DatabaseStorage())


@functools.lru_cache(maxsize=64)
def parsed(limits: str) -> tuple[RateLimitItem, ...]:
    """The windows of a setting ("10/minute;60/hour"), shortest first."""
    return tuple(sorted(parse_many(limits), key=RateLimitItem.get_expiry))


def within(limits: str, scope: str, key: str) -> bool:
    """One more request counted in each of the windows of `limits` for this scope and key;
    False at the first window already full (the longer ones are then not counted)."""
    return all(WINDOWS.hit(window, scope, key) for window in parsed(limits))
