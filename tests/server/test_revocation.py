"""Revocation is immediate: a player's new link, or a new banker key, ends the live streams
that the old one opened, in whichever worker process they are, with a last `gone` event (the
page reloads and says why); other pages' streams go on; no traceback in the server's log."""

from __future__ import annotations

import http.client
import re

import pytest
import requests

from ..servers import HANG_GUARD, Server

pytestmark = pytest.mark.slow  # streams held open until the server ends them


class Stream:
    """A page's open Server-Sent Events stream, read event by event."""

    def __init__(self, server: Server, path: str, headers: dict | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD)
        self.connection.request("GET", path, headers=headers or {})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()

    def next_event(self) -> str | None:
        """The next event's type (keep-alive comments and retry lines skipped); None when the
        server ended the stream."""
        kind, data = "message", False
        while True:
            line = self.response.fp.readline()
            if not line:
                return None
            if line.startswith(b"event: "):
                kind = line[7:].decode().strip()
            elif line.startswith(b"data: "):
                data = True
            elif line == b"\n" and data:
                return kind

    def events_until_end(self) -> list[str]:
        seen = []
        while (kind := self.next_event()) is not None:
            seen.append(kind)
        return seen

    def close(self) -> None:
        self.connection.close()


def banker_session(server: Server, game_id: str, key: str) -> tuple[requests.Session, str]:
    """A banker's phone that opened the banker link: its session and the codes page."""
    phone = requests.Session()
    phone.get(f"{server.url}/g/{game_id}/?key={key}")
    return phone, phone.get(f"{server.url}/g/{game_id}/codes").text


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf[-_]token" (?:value|content)="([^"]+)"', page).group(1)


def test_a_new_player_link_ends_the_old_link_s_streams_at_once(server):
    game_id, key = server.new_game()
    phone, codes = banker_session(server, game_id, key)
    tokens = server.player_tokens(game_id, key)
    old = [Stream(server, f"/p/{tokens[1]}/live?v=0") for _ in range(3)]  # spread on workers
    other = Stream(server, f"/p/{tokens[2]}/live?v=0")
    try:
        answer = phone.post(
            f"{server.url}/g/{game_id}/codes/1/new", data={"csrf_token": csrf_of(codes)}
        )
        assert answer.status_code == 200
        for stream in old:
            assert stream.events_until_end() == ["gone"]
        assert server.call("GET", f"/p/{tokens[1]}/live", raw=True)[0] == 404
        pay = {"kind": "bank_pay", "player": 2, "amount": 5}
        assert server.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
        assert other.next_event() in ("cash", "live")  # another player's page goes on
    finally:
        for stream in [*old, other]:
            stream.close()
    assert "Traceback" not in server.output()


def test_a_new_banker_key_ends_the_streams_the_old_key_opened(server):
    game_id, key = server.new_game()
    phone, codes = banker_session(server, game_id, key)
    old = [
        Stream(server, f"/g/{game_id}/live?v=0", headers={"X-Banker-Key": key}) for _ in range(3)
    ]
    try:
        answer = phone.post(
            f"{server.url}/g/{game_id}/codes/banker-key", data={"csrf_token": csrf_of(codes)}
        )
        assert answer.status_code == 200
        for stream in old:
            assert stream.events_until_end() == ["gone"]
        status, _ = server.call("GET", f"/g/{game_id}/live", key=key, raw=True)
        assert status == 403  # the old key opens nothing
        assert phone.get(f"{server.url}/g/{game_id}/").status_code == 200  # still the banker
    finally:
        for stream in old:
            stream.close()
    assert "Traceback" not in server.output()
