"""A server killed with SIGKILL in the middle of a game loses nothing it answered as done, and
the log it leaves replays to the stored snapshot."""

from __future__ import annotations

import http.client
import threading

import pytest
from tablebank import create_app
from tablebank.bank import edition_of
from tablebank.logbook import replayed_state
from tablebank.models import Game, db

from ..servers import HANG_GUARD, eventually

pytestmark = pytest.mark.slow  # a server killed mid-game and booted again


def test_a_server_killed_mid_game_keeps_every_action_it_answered_as_done(own_server):
    server = own_server
    game_id, key = server.new_game()
    done: dict[int, str] = {}  # seq -> the sentence the banker was shown
    stop = threading.Event()

    def banker(first: int):
        n = first
        while not stop.is_set() and n < first + 500:
            n += 1
            body = {"kind": "bank_pay", "player": n % 3, "amount": n, "idempotency_key": f"k{n}"}
            try:
                status, answer = server.call("POST", f"/api/games/{game_id}/actions", body, key)
            except (OSError, http.client.HTTPException, ValueError):
                return  # no answer, or half of one: not done as far as the banker knows
            if status == 201:
                done[answer["seq"]] = answer["text"]

    threads = [threading.Thread(target=banker, args=(1000 * t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    eventually(lambda: len(done) >= 30, "30 actions answered as done")
    server.kill()  # master and workers, mid-request
    stop.set()
    for thread in threads:
        thread.join(timeout=HANG_GUARD)

    server.restart()
    status, history = server.call("GET", f"/api/games/{game_id}/actions", key=key)
    assert status == 200
    logged = {entry["seq"]: entry for entry in history}
    assert sorted(logged) == list(range(1, len(logged) + 1))  # no hole in the log
    for seq, text in done.items():
        assert logged[seq]["text"] == text  # every action answered as done is there, as said
    paid = [0, 0, 0]
    for entry in history:
        paid[entry["payload"]["player"]] += entry["payload"]["amount"]
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert [p["cash"] for p in game["players"]] == [5000 + paid[s] for s in range(3)]
    assert game["version"] == len(logged)

    app = create_app({"SQLALCHEMY_DATABASE_URI": server.db_url})
    with app.app_context():
        stored = db.session.get(Game, game_id)
        assert (
            replayed_state(stored, edition_of(stored)).to_dict() == stored.state
        )  # the log gives the snapshot
        db.session.remove()
        db.engine.dispose()

    # The game goes on where it stopped.
    body = {"kind": "pass_go", "player": 0}
    status, answer = server.call("POST", f"/api/games/{game_id}/actions", body, key)
    assert status == 201 and answer["seq"] == len(logged) + 1
