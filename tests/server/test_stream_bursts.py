"""Bursts of live pages on a server whose pool is too small for them: every stream is answered
200 (a stream, or a stream that only says when to come back, which EventSource obeys),
never a 5xx, before or after the answer has started; and no token or key is ever written in
the server's logs, access log included."""

from __future__ import annotations

import http.client
import json
import re
import threading

import pytest
import requests

from ..servers import HANG_GUARD, Server, eventually
from ..support import POSTGRES

TINY_POOL = {
    "TABLEBANK_SQLALCHEMY_ENGINE_OPTIONS": json.dumps(
        {"pool_size": 2, "max_overflow": 0, "pool_timeout": 0.2}
    ),
    "TABLEBANK_LIVE_DRAWS": "1",
}
PAGES = 60


@pytest.fixture(params=["tablebank", "gunicorn"])
def starved(request, tmp_path, database_url):
    server = Server(database_url(tmp_path), workers=1, env=TINY_POOL)
    server.start_command() if request.param == "tablebank" else server.start()
    server.begin_test()
    yield server
    server.close()


def open_stream(server: Server, path: str) -> tuple[int, str, bytes]:
    """Status, content type and the first bytes of a stream (or the whole of an answer)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        first = response.read1(40) if response.status == 200 else response.read()
        return response.status, response.getheader("Content-Type") or "", first
    finally:
        connection.close()


def test_a_burst_of_streams_gets_streams_or_a_retry_and_never_an_error(starved):
    game_id, key = starved.new_game()
    _, codes = starved.call("GET", f"/g/{game_id}/codes", key=key, raw=True)
    tokens = starved.player_tokens(game_id, key)
    table = re.search(r"/t/([A-Za-z0-9_-]{20,})", codes).group(1)
    paths = [f"/p/{tokens[n % 3]}/live?v=0" for n in range(PAGES)] + [f"/t/{table}/live"] * 10
    answers: list[tuple[int, str, bytes]] = []
    threads = [
        threading.Thread(target=lambda p=path: answers.append(open_stream(starved, p)))
        for path in paths
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == len(paths)
    assert {status for status, _, _ in answers} == {200}, answers
    assert all(kind.startswith("text/event-stream") for _, kind, _ in answers)
    assert all(first.startswith(b"retry: ") for _, _, first in answers)
    later = [first for _, _, first in answers if not first.startswith(b"retry: 1000\n")]
    if POSTGRES:  # the pool ran out (SQLite's calls block the process: they never overlap)
        assert later, "every stream opened: the burst did not exhaust the pool"
    output = starved.output()
    assert "Traceback" not in output and "Error handling request" not in output
    for secret in [*tokens, table, key]:
        assert secret not in output
    page = f"/p/{tokens[0]}"
    eventually(lambda: starved.call("GET", page, raw=True)[0] == 200, "a page served again")
    assert "GET /p/***" in starved.logged("GET /p/")  # the access log is on, masked


def test_the_banker_link_s_key_is_masked_in_the_access_log(server):
    game_id, key = server.new_game()
    opened = requests.get(f"{server.url}/g/{game_id}/?key={key}", allow_redirects=False)
    assert opened.status_code == 302  # the banker link: remembered, then the key dropped
    output = server.logged(f"/g/{game_id}/?key=")
    assert key not in output
    assert f"/g/{game_id}/?key=***" in output
