"""Live updates across processes: two gunicorn servers with several workers each share one
database; a player's stream on either one hears of every action done on the other."""

from __future__ import annotations

import http.client
import json
import re
from datetime import UTC, datetime

import pytest
from tablebank import logbook
from tablebank.live import heard

from ..servers import HANG_GUARD, Server

pytestmark = pytest.mark.slow  # up to four servers at once


class Stream:
    """A player's page as the browser holds it: an open Server-Sent Events stream."""

    def __init__(self, server: Server, token: str, seen: int = 0) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD)
        self.token = token
        self.connection.request("GET", f"/p/{token}/live?v={seen}")
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")

    def next_event(self) -> tuple[str, int | None, str]:
        """The next event's type, id and data (keep-alive comments skipped)."""
        kind, version, data = "message", None, []
        while True:
            line = self.response.fp.readline()
            assert line, "the stream ended"
            if line.startswith(b"event: "):
                kind = line[7:].decode().strip()
            elif line.startswith(b"id: "):
                version = int(line[4:])
            elif line.startswith(b"data: "):
                data.append(line[6:].decode())
            elif line == b"\n" and data:
                return kind, version, "".join(data)

    def next_version(self) -> int:
        """The version of the next live part; what it carries (the page's live part, as
        drawn for that version) is kept in `shown`, and the cash sent ahead of it, if any,
        in `cash` ({"version": v, "cash": [each seat's figure]})."""
        self.cash = None
        while True:
            kind, version, data = self.next_event()
            if kind == "cash":
                self.cash = json.loads(data)
            elif version is not None:
                self.shown = data
                return version

    def close(self) -> None:
        self.connection.close()


@pytest.fixture(scope="module")
def other(shared_server):
    """A second server on the same database, with workers of its own."""
    running = Server(shared_server.db_url).start()
    yield running
    running.close()


def test_every_stream_hears_of_every_action_done_on_another_process(server, other):
    game_id, key = server.new_game()
    _, game = server.call("GET", f"/api/games/{game_id}", key=key)
    tokens = server.player_tokens(game_id, key)
    assert len(tokens) == len(game["players"]) == 3
    # Three streams on each server: spread over both servers' worker processes.
    streams = [Stream(host, token) for host in (server, other) for token in tokens]
    try:
        for version, host in enumerate([server, other, server, other], start=1):
            body = {"kind": "bank_pay", "player": version % 3, "amount": 5}
            status, _ = host.call("POST", f"/api/games/{game_id}/actions", body, key)
            assert status == 201
            assert [stream.next_version() for stream in streams] == [version] * len(streams)
        # Each page was sent its new live part: Bea's shows 5,000 plus two payments of 5.
        assert all("5,010" in stream.shown for stream in streams if stream.token == tokens[1])
        # And what a page fetches (when it polls) shows the same, whichever server it asks.
        _, fragment = other.call("GET", f"/p/{tokens[1]}?fragment=1", raw=True)
        assert "5,010" in fragment
    finally:
        for stream in streams:
            stream.close()


def test_pages_in_every_process_hear_every_action_after_each_process_has_acted(server):
    """Each process acts before any page opens in it; then every page in every process still
    hears of every action, whichever process does it (the watcher's first news is not lost)."""
    game_id, key = server.new_game()
    tokens = server.player_tokens(game_id, key)
    hosts = [Server(server.db_url, workers=1) for _ in range(3)]
    try:
        Server.start_all(hosts)
        pay = {"kind": "bank_pay", "player": 0, "amount": 1}
        for host in hosts:  # every process acts first
            assert host.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
        streams = [Stream(host, token, len(hosts)) for host in hosts for token in tokens[:2]]
        try:
            for version, host in enumerate(hosts * 2, start=len(hosts) + 1):
                assert host.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
                assert [stream.next_version() for stream in streams] == [version] * len(streams)
        finally:
            for stream in streams:
                stream.close()
    finally:
        for host in hosts:
            host.close()


def balance_shown(live_part: str) -> str:
    return re.search(r'id="balance" data-cash="\d+">([^<]+)<', live_part).group(1)


def test_the_new_cash_reaches_a_page_ahead_of_its_live_part(server):
    """A player's balance is sent before the live part is drawn: by the process that did the
    action, and on PostgreSQL by every other process too (the notice carries it). The figure
    is the one the live part then shows.

    A first action brings each page to version 1 before the one the test follows: the first
    page of a process starts its watcher, which LISTENs a moment later, and an action in that
    moment reaches the page by the watcher's catch-up read, without its cash."""
    game_id, key = server.new_game()
    tokens = server.player_tokens(game_id, key)
    hosts = [Server(server.db_url, workers=1) for _ in range(2)]
    same = hosts[0]  # the process that acts; the other only holds a stream
    postgresql = server.db_url.startswith("postgresql")
    try:
        Server.start_all(hosts)
        streams = [Stream(host, tokens[1]) for host in hosts]
        try:
            pay = {"kind": "bank_pay", "player": 1, "amount": 25}
            for version in (1, 2):  # 1: every watcher is listening once its page shows it
                assert same.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
                here, there = (stream.next_version() for stream in streams)
                assert here == there == version
            _, game = same.call("GET", f"/api/games/{game_id}", key=key)
            shown = balance_shown(streams[0].shown)  # what the live part shows now
            assert int(re.sub(r"\D", "", shown)) == game["players"][1]["cash"]
            assert streams[0].cash["version"] == 2
            assert streams[0].cash["cash"][1] == shown
            if postgresql:
                assert streams[1].cash == streams[0].cash
            else:  # SQLite across processes: the live part alone, as before
                assert streams[1].cash is None
            assert balance_shown(streams[1].shown) == shown
        finally:
            for stream in streams:
                stream.close()
    finally:
        for host in hosts:
            host.close()


def test_a_notice_gives_its_game_version_and_cash_and_a_stray_one_is_passed_over():
    assert heard('Ab-1 7 ["$1,500", "1.100 €"]') == ("Ab-1", 7, ["$1,500", "1.100 €"])
    assert heard("Ab-1 7") == ("Ab-1", 7, None)  # as sent before the cash came with it
    assert heard("Ab-1 7 [1500]") == ("Ab-1", 7, None)  # not figures as printed: no cash
    assert heard("Ab-1 7 [broken") == ("Ab-1", 7, None)
    assert heard("Ab-1 seven") is None and heard("") is None
    row = '{"seq": 7, "kind": "bank_pay", "text": "The bank pays Ana $10", "seats": [0]}'
    assert heard(f'Ab-1 7 ["$1,510"]\n{row}') == ("Ab-1", 7, ["$1,510"])  # the row on its line


def test_the_row_a_notice_carries_moves_the_newest_rows_on_and_a_stray_one_is_passed_over():
    """The newest rows kept for a game move on with the row a notice carries (as the log
    keeps it), and only with one that says all a history shows."""
    newest = logbook.Newest(6, [], {})
    logbook._newest.keep("Ab-1", newest)
    for news in ("not JSON", '{"seq": 7, "seats": [0]}', '{"seats": "0"}', "[]"):
        logbook.heard("Ab-1", 7, news)
        assert logbook._newest.get("Ab-1") is newest
    lines = [["the bank pays {player} {amount:money}", {"player": "Ana", "amount": 10}]]
    row = logbook.Shown(
        "Ab-1", 7, "bank_pay", {"player": 0, "amount": 10}, "api", datetime.now(UTC),
        "The bank pays Ana $10", lines, [[None, 0, 10]], None,
    )  # fmt: skip
    logbook.heard("Ab-1", 7, logbook.news_of(row, {0}))
    assert logbook._newest.get("Ab-1") == logbook.Newest(7, [row], {7: frozenset({0})})
