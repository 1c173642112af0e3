"""A crowd of open live pages on the README's `tablebank` command (one gevent process): the
pages hold no thread, the banker is answered all the same, and every page hears the news.
How fast is bench/'s business (bench/streams.py, bench/load.py): here the request deadline is
lifted and every wait is a hang guard, so a loaded machine never fails the test."""

from __future__ import annotations

import re
import selectors
import socket
import time
from pathlib import Path

import pytest

from ..servers import HANG_GUARD, Server

pytestmark = pytest.mark.slow  # 300 open pages

PAGES = 300


@pytest.fixture
def command(tmp_path, database_url):
    """`tablebank --host 127.0.0.1 --port P` on a fresh database."""
    settings = {
        "TABLEBANK_REQUEST_DEADLINE": "600",  # no 503 for a slow machine: not what is tested
        "TABLEBANK_CONNECTIONS_PER_CLIENT": "1000",  # every page comes from 127.0.0.1 here
    }
    running = Server(database_url(tmp_path), env=settings).start_command()
    yield running
    running.close()


def threads_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1))


def open_pages(port: int, tokens: list[str], count: int) -> list[socket.socket]:
    """`count` live pages, each open once the server has sent its stream's first bytes."""
    pages = []
    for n in range(count):
        page = socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD)
        request = f"GET /p/{tokens[n % len(tokens)]}/live?v=0 HTTP/1.1\r\nHost: table\r\n\r\n"
        page.sendall(request.encode())
        pages.append(page)
    assert read_until_all_hear(pages, b"retry:") == count
    return pages


def read_until_all_hear(pages: list[socket.socket], news: bytes) -> int:
    """How many pages received `news` (all of them, unless the server hangs)."""
    heard: dict[socket.socket, bytes] = {page: b"" for page in pages}
    waiting = selectors.DefaultSelector()
    for page in pages:
        page.setblocking(False)
        waiting.register(page, selectors.EVENT_READ)
    deadline = time.monotonic() + HANG_GUARD
    done = set()
    while len(done) < len(pages) and time.monotonic() < deadline:
        for ready, _ in waiting.select(timeout=0.2):
            page = ready.fileobj
            heard[page] += page.recv(65536)
            if news in heard[page]:
                done.add(page)
                waiting.unregister(page)
    waiting.close()
    return len(done)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_hundreds_of_open_pages_hold_no_thread_and_never_starve_the_banker(command):
    game_id, key = command.new_game()
    tokens = command.player_tokens(game_id, key)
    threads_before = threads_of(command.process.pid)
    pages = open_pages(command.port, tokens, PAGES)
    try:
        assert threads_of(command.process.pid) <= threads_before + 2  # greenlets, not threads
        pay = {"kind": "bank_pay", "player": 0, "amount": 1}
        status, done = command.call("POST", f"/api/games/{game_id}/actions", pay, key)
        assert status == 201 and done["seq"] == 1  # the banker is answered at once
        assert read_until_all_hear(pages, b"id: 1\n") == PAGES
    finally:
        for page in pages:
            page.close()
    status, game = command.call("GET", f"/api/games/{game_id}", key=key)
    assert status == 200 and game["version"] == 1  # and still answers once they are gone
