"""Real concurrent requests against gunicorn with several workers: one action at a time, in
order, exactly once; and a server killed with SIGKILL loses nothing it answered as done."""

from __future__ import annotations

import http.client
import threading
from concurrent.futures import ThreadPoolExecutor

from app import create_app
from app.bank import replayed_state
from app.models import Game, db

from ..conftest import setup_of


def new_game(server) -> tuple[str, str]:
    status, body = server.call("POST", "/api/games", setup_of(starting_cash=5000))
    assert status == 201
    return body["id"], body["banker_key"]


def together(count: int, call) -> list:
    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(call, range(count)))


def test_a_double_tap_or_retry_with_one_key_is_applied_exactly_once(server):
    game_id, key = new_game(server)
    body = {"kind": "pass_go", "player": 0, "idempotency_key": "tap-7"}
    answers = together(
        16, lambda _: server.call("POST", f"/api/games/{game_id}/actions", body, key)
    )
    assert sorted(status for status, _ in answers) == [200] * 15 + [201]
    assert {answer["seq"] for _, answer in answers} == {1}
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert game["players"][0]["cash"] == 5200 and game["version"] == 1


def test_actions_from_many_devices_are_applied_one_at_a_time_and_none_lost(server):
    game_id, key = new_game(server)
    pay = {"kind": "transfer", "from": 0, "to": 1, "amount": 10}
    answers = together(40, lambda n: server.call("POST", f"/api/games/{game_id}/actions", pay, key))
    assert [status for status, _ in answers] == [201] * 40
    assert sorted(answer["seq"] for _, answer in answers) == list(range(1, 41))
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert [p["cash"] for p in game["players"]] == [5000 - 400, 5000 + 400, 5000]


def test_a_call_made_on_a_stale_state_is_refused_not_applied_twice(server):
    game_id, key = new_game(server)
    body = {"kind": "pass_go", "player": 2, "expected_version": 0}
    answers = together(
        12, lambda _: server.call("POST", f"/api/games/{game_id}/actions", body, key)
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * 11
    refusal = next(answer for status, answer in answers if status == 409)
    assert "Another device acted first" in refusal["error"]
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert game["players"][2]["cash"] == 5200


def test_a_server_killed_mid_game_keeps_every_action_it_answered_as_done(server):
    game_id, key = new_game(server)
    done: list[int] = []
    stop = threading.Event()

    def banker():
        n = 0
        while not stop.is_set() and n < 500:
            n += 1
            try:
                status, answer = server.call(
                    "POST",
                    f"/api/games/{game_id}/actions",
                    {"kind": "bank_pay", "player": n % 3, "amount": n},
                    key,
                )
            except (OSError, http.client.HTTPException, ValueError):
                return  # no answer, or half of one: not done as far as the banker knows
            if status == 201:
                done.append(answer["seq"])

    threads = [threading.Thread(target=banker) for _ in range(3)]
    for thread in threads:
        thread.start()
    while len(done) < 30:
        threading.Event().wait(0.01)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)

    server.start()
    status, history = server.call("GET", f"/api/games/{game_id}/actions", key=key)
    assert status == 200
    logged = {entry["seq"] for entry in history}
    assert set(done) <= logged
    assert sorted(logged) == list(range(1, len(logged) + 1))  # no hole in the log
    app = create_app({"SQLALCHEMY_DATABASE_URI": server.db_url})
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert replayed_state(game).to_dict() == game.state
        assert game.version == len(logged)
        db.session.remove()
        db.engine.dispose()
