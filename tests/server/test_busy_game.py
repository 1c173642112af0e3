"""Many writers on one game at once: each waits its turn in its process without holding a
database connection or running its deadline down, so every action is answered, exactly
once, and none as a 503 while the database is healthy."""

from __future__ import annotations

import threading
import uuid

import pytest

from ..servers import Server

# PostgreSQL waits a second for a lock: without turns, the writers that wait for the
# game's row lock at once (each holding a pooled connection) pass that and are answered 503.
CROWDED = {"TABLEBANK_DB_LOCK_TIMEOUT": "1"}
WRITERS, EACH = 80, 2


@pytest.fixture
def crowded(tmp_path, database_url):
    server = Server(database_url(tmp_path), workers=2, env=CROWDED).start()
    yield server
    server.close()


def test_parallel_writers_on_one_game_are_all_answered_exactly_once(crowded):
    game_id, key = crowded.new_game()
    path = f"/api/games/{game_id}/actions"
    statuses: list[int] = []
    sent: list[dict] = []

    def writer(number: int) -> None:
        for n in range(EACH):
            once = f"w{number}-{n}-{uuid.uuid4().hex[:6]}"
            body = {"kind": "bank_pay", "player": number % 3, "amount": 1, "idempotency_key": once}
            statuses.append(crowded.call("POST", path, body, key)[0])
            sent.append(body)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(statuses)) == [201], {s: statuses.count(s) for s in set(statuses)}
    _, game = crowded.call("GET", f"/api/games/{game_id}", key=key)
    assert game["version"] == WRITERS * EACH
    assert sum(p["cash"] for p in game["players"]) == 3 * 5000 + WRITERS * EACH
    assert crowded.call("POST", path, sent[0], key)[0] == 200  # a repeat: answered, not redone
    _, game = crowded.call("GET", f"/api/games/{game_id}", key=key)
    assert game["version"] == WRITERS * EACH
