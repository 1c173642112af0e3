"""Bursts queue, they never fail: a burst of live pages opening at once on a small pool (as
after a restart, every phone reconnecting) all get their streams, each opening waiting its
turn (LIVE_OPENINGS) holding no pooled connection, instead of some being told to come back
later; and a player's page is still served meanwhile."""

from __future__ import annotations

import http.client
import json
import re
import threading

import pytest

from ..servers import Server

SMALL_POOL = {
    "TABLEBANK_SQLALCHEMY_ENGINE_OPTIONS": json.dumps(
        {"pool_size": 2, "max_overflow": 0, "pool_timeout": 0}  # no wait for a connection
    ),
    "TABLEBANK_LIVE_DRAWS": "1",
    "TABLEBANK_LIVE_OPENINGS": "1",
}
PAGES = 80


@pytest.fixture(params=["tablebank", "gunicorn"])
def small(request, tmp_path, database_url):
    server = Server(database_url(tmp_path), workers=1, env=SMALL_POOL)
    server.start_command() if request.param == "tablebank" else server.start()
    yield server
    server.close()


def first_bytes(server: Server, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read1(40) if response.status == 200 else response.read()
    finally:
        connection.close()


def test_a_burst_of_streams_all_open_in_turn(small):
    game_id, key = small.new_game()
    _, codes = small.call("GET", f"/g/{game_id}/codes", key=key, raw=True)
    tokens = list(dict.fromkeys(re.findall(r"/p/([A-Za-z0-9_-]{20,})", codes)))
    table = re.search(r"/t/([A-Za-z0-9_-]{20,})", codes).group(1)
    paths = [f"/p/{tokens[n % 3]}/live?v=0" for n in range(PAGES)] + [f"/t/{table}/live?v=0"]
    answers: list[tuple[int, bytes]] = []
    threads = [
        threading.Thread(target=lambda p=path: answers.append(first_bytes(small, p)))
        for path in paths
    ]
    for thread in threads:
        thread.start()
    page = first_bytes(small, f"/p/{tokens[0]}")
    for thread in threads:
        thread.join()
    assert sorted({status for status, _ in answers}) == [200]
    told_later = [first for _, first in answers if not first.startswith(b"retry: 1000\n")]
    assert told_later == []  # every page got its stream
    assert page[0] == 200
    assert "Traceback" not in small.output()
