"""Real concurrent requests against gunicorn with several workers, on the database under
test: actions on one game are applied one at a time, in order, each exactly once."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from ..servers import HANG_GUARD


def together(count: int, call) -> list:
    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(call, range(count)))


def test_a_double_tap_or_retry_with_one_key_is_applied_exactly_once(server):
    game_id, key = server.new_game()
    body = {"kind": "pass_go", "player": 0, "idempotency_key": "tap-7"}
    answers = together(
        16, lambda _: server.call("POST", f"/api/games/{game_id}/actions", body, key)
    )
    assert sorted(status for status, _ in answers) == [200] * 15 + [201]
    assert {answer["seq"] for _, answer in answers} == {1}
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert game["players"][0]["cash"] == 5200 and game["version"] == 1


def test_actions_from_many_devices_are_applied_one_at_a_time_and_none_lost(server):
    game_id, key = server.new_game()
    pay = {"kind": "transfer", "from": 0, "to": 1, "amount": 10}
    answers = together(40, lambda n: server.call("POST", f"/api/games/{game_id}/actions", pay, key))
    assert [status for status, _ in answers] == [201] * 40
    assert sorted(answer["seq"] for _, answer in answers) == list(range(1, 41))
    # Each was applied on top of exactly the ones before it in the log: one at a time.
    for _, answer in answers:
        assert answer["game"]["version"] == answer["seq"]
        assert answer["game"]["players"][0]["cash"] == 5000 - 10 * answer["seq"]
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert [p["cash"] for p in game["players"]] == [5000 - 400, 5000 + 400, 5000]


def test_a_call_made_on_a_stale_state_is_refused_not_applied_twice(server):
    game_id, key = server.new_game()
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


def test_games_side_by_side_each_keep_their_own_order(server):
    games = [server.new_game() for _ in range(6)]

    def pay(n):
        game_id, key = games[n % len(games)]
        body = {"kind": "bank_pay", "player": n % 3, "amount": 1 + n}
        return game_id, server.call("POST", f"/api/games/{game_id}/actions", body, key)

    answers = together(36, pay)
    assert {status for _, (status, _) in answers} == {201}
    for game_id, key in games:
        _, history = server.call("GET", f"/api/games/{game_id}/actions", key=key)
        assert sorted(entry["seq"] for entry in history) == [1, 2, 3, 4, 5, 6]


def test_a_double_tap_on_a_page_s_button_is_applied_once(server):
    """The banker's phone, CSRF on as in production: the same form sent eight times at once."""
    game_id, key = server.new_game()
    jar = http.cookiejar.CookieJar()
    phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)

    def visit(path: str, form: dict | None = None) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode() if form else None
        try:
            with phone.open(server.url + path, data=data, timeout=HANG_GUARD) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, ""

    assert visit(f"/g/{game_id}/?key={key}")[0] == 302  # the banker link, kept in the session
    status, page = visit(f"/g/{game_id}/")
    assert status == 200
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "kind": "pass_go", "player": "2", "key": "tap-on-a-phone"}
    taps = together(8, lambda _: visit(f"/g/{game_id}/do", form)[0])
    assert taps == [302] * 8  # each tap lands back on the dashboard, none is an error
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    assert game["version"] == 1 and game["players"][2]["cash"] == 5200


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
