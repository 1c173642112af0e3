"""Slow and idle clients on both servers (the `tablebank` command and gunicorn): a connection
that sends nothing, or its head or body too slowly, is closed (a 408 in words once the
request has begun) and holds no database connection meanwhile, so the banker's actions are
answered; one client holds only so many connections; no token or key in any log line."""

from __future__ import annotations

import socket
import threading
from contextlib import ExitStack

import pytest
import requests

from ..servers import HANG_GUARD, Server, eventually
from .test_revocation import banker_session, csrf_of

SETTINGS = {
    "TABLEBANK_KEEPALIVE_SECONDS": "1",
    "TABLEBANK_HEADER_SECONDS": "1",
    "TABLEBANK_BODY_SECONDS": "1",
    "TABLEBANK_BODY_RATE": "1000000",
    "GUNICORN_CMD_ARGS": "--keep-alive 1",
    "TABLEBANK_LIVE_KEEPALIVE_SECONDS": "0.2",
}


@pytest.fixture(scope="module", params=["tablebank", "gunicorn"])
def served_by(request, module_database_url):
    """Each server (the tests of the module share it), with limits of a second."""
    server = Server(module_database_url, workers=2, env=SETTINGS)
    server.start_command() if request.param == "tablebank" else server.start()
    yield server
    server.close()


@pytest.fixture
def served(served_by):
    served_by.begin_test()
    return served_by


def connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=HANG_GUARD, source_address=(source, 0)
    )
    return sock


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_an_idle_connection_and_a_slow_head_are_closed(served):
    with connect(served) as idle:
        assert answer_of(idle) == b""  # closed, not answered
    with connect(served) as slow:
        slow.sendall(b"GET /api/editions HTTP/1.1\r\nHost: x\r\n")  # and never the end
        answer = answer_of(slow)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")


def slow_body(server: Server, path: str, key: str) -> bytes:
    """A banker's action whose body stops arriving after its first bytes."""
    with connect(server) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"X-Banker-Key: {key}\r\nContent-Length: 60\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"kind": "bank_pay",')
        return answer_of(sock)


def test_slow_bodies_are_refused_and_hold_no_database_connection(served):
    game_id, key = served.new_game()
    path = f"/api/games/{game_id}/actions"
    answers: list[bytes] = []
    slow = [
        threading.Thread(target=lambda: answers.append(slow_body(served, path, key)))
        for _ in range(30)  # more than a worker's pooled connections (15)
    ]
    for thread in slow:
        thread.start()
    pay = {"kind": "bank_pay", "player": 1, "amount": 1}
    statuses = [served.call("POST", path, pay, key)[0] for _ in range(5)]
    for thread in slow:
        thread.join()
    assert statuses == [201] * 5
    assert len(answers) == 30
    assert all(a.startswith(b"HTTP/1.1 408") and b"took too long" in a for a in answers)
    _, game = served.call("GET", f"/api/games/{game_id}", key=key)
    assert game["version"] == 5  # the slow ones did nothing


@pytest.fixture(params=["tablebank", "gunicorn"])
def capped(request, tmp_path, database_url):
    """One process (gunicorn counts per worker), connections kept open long enough."""
    settings = {"TABLEBANK_CONNECTIONS_PER_CLIENT": "10", "GUNICORN_CMD_ARGS": "--keep-alive 60"}
    server = Server(database_url(tmp_path), workers=1, env=settings)
    server.start_command() if request.param == "tablebank" else server.start()
    yield server
    server.close()


def test_one_client_holds_only_so_many_connections(capped):
    with ExitStack() as held:
        for _ in range(10):
            sock = held.enter_context(connect(capped))
            sock.sendall(b"GET /api/editions HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(12) == b"HTTP/1.1 200"  # each one served, and kept open
        with connect(capped) as eleventh:
            refused = answer_of(eleventh)
        assert b"429 Too Many Requests" in refused and b"Too many connections" in refused
        with connect(capped, source="127.0.0.2") as other:  # another client is served
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answer_of(other).startswith(b"HTTP/1.1 200")
    # Served again once the server has seen the client's connections close.
    eventually(lambda: healthz(capped).startswith(b"HTTP/1.1 200"), "served again")


def test_open_live_pages_count_as_their_client_s_connections(capped):
    """A page's stream is carried on its connection once its request is let go; it still
    counts against its client's cap while it lasts."""
    game_id, key = capped.new_game()
    token = capped.player_tokens(game_id, key)[0]
    with ExitStack() as held:
        for _ in range(10):
            page = held.enter_context(connect(capped))
            page.sendall(f"GET /p/{token}/live HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert b"200 OK" in stream_start(page)
        with connect(capped) as eleventh:
            assert b"429 Too Many Requests" in answer_of(eleventh)


@pytest.fixture(params=["tablebank", "gunicorn"])
def small(request, tmp_path, database_url):
    """One process that holds at most 12 connections, 10 per client."""
    settings = {
        "TABLEBANK_CONNECTIONS_PER_CLIENT": "10",
        "TABLEBANK_CONNECTIONS_PER_PROCESS": "12",
        "TABLEBANK_LIVE_KEEPALIVE_SECONDS": "0.2",
        "GUNICORN_CMD_ARGS": "--keep-alive 60",
    }
    server = Server(database_url(tmp_path), workers=1, env=settings)
    server.start_command() if request.param == "tablebank" else server.start()
    yield server
    server.close()


def test_a_process_holds_only_so_many_connections_open_pages_included(small):
    """Waiting live pages hold no greenlet, so no server pool counts them: the process's own
    count does, and a connection beyond it is told in words that the server is full."""
    game_id, key = small.new_game()
    token = small.player_tokens(game_id, key)[0]
    opening = f"GET /p/{token}/live?v=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    with ExitStack() as held:
        for client in ["127.0.0.2"] * 10 + ["127.0.0.3"] * 2:
            page = held.enter_context(connect(small, source=client))
            page.sendall(opening)
            assert b"200 OK" in stream_start(page)
        with connect(small, source="127.0.0.4") as thirteenth:
            refused = answer_of(thirteenth)
        assert b"503 Service Unavailable" in refused and b"as many connections" in refused
    # Served again once the server has seen the pages close (at their next keep-alive).
    eventually(lambda: served_again(small, "127.0.0.4"), "the pages' connections given back")


def test_a_stream_that_ends_after_waiting_gives_its_client_s_connection_back(capped):
    """A page's stream waits for news without a greenlet of its own (its connection no
    longer in the server's pool); once it ends, here with `gone` because its link was
    replaced, its connection stops counting against its client's cap."""
    game_id, key = capped.new_game()
    token = capped.player_tokens(game_id, key)[0]
    pages = [connect(capped, source="127.0.0.2") for _ in range(10)]
    try:
        for page in pages:
            page.sendall(f"GET /p/{token}/live?v=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert b"200 OK" in stream_start(page)
        with connect(capped, source="127.0.0.2") as eleventh:
            assert b"429 Too Many Requests" in answer_of(eleventh)
        phone, codes = banker_session(capped, game_id, key)  # another client: 127.0.0.1
        new_link = phone.post(
            f"{capped.url}/g/{game_id}/codes/0/new", data={"csrf_token": csrf_of(codes)}
        )
        assert new_link.status_code == 200
        for page in pages:
            assert b"event: gone" in answer_of(page)  # the stream ended, the connection closed
    finally:
        for page in pages:
            page.close()

    eventually(lambda: served_again(capped, "127.0.0.2"), "the client's connections given back")


def test_a_waiting_stream_says_it_is_still_here_again_and_again(served):
    """A stream with no news waits without a greenlet of its own; a timer wakes it after
    each keep-alive interval (here 0.2 s), so the page and any proxy keep the connection,
    and a page gone is noticed at the next write."""
    game_id, key = served.new_game()
    token = served.player_tokens(game_id, key)[0]
    with connect(served) as page:
        page.sendall(f"GET /p/{token}/live?v=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        received = b""
        while received.count(b": still here") < 3:
            chunk = page.recv(65536)
            assert chunk, received
            received += chunk
    assert b"event: live" not in received  # nothing happened: keep-alives only


def test_a_stream_s_events_reach_a_plain_http_client_as_they_are_sent(served):
    """Each event goes out as a chunk of its own (HTTP/1.1), so a client that reads what has
    come, 512 bytes at most at a time, gets a stream's first event at once. The page here is
    at the game's version already (`v=0`), so nothing else comes after that event until
    something happens: unchunked, such a client would wait for 512 bytes of keep-alives."""
    game_id, key = served.new_game()
    token = served.player_tokens(game_id, key)[0]
    address = f"{served.url}/p/{token}/live?v=0"
    with requests.get(address, stream=True, timeout=HANG_GUARD) as page:
        assert page.headers["Content-Type"].startswith("text/event-stream")
        assert page.headers.get("Transfer-Encoding") == "chunked"
        assert next(page.iter_lines(chunk_size=512)) == b"retry: 1000"


def stream_start(sock: socket.socket) -> bytes:
    """A stream's head and first event."""
    received = b""
    while b"retry: 1000" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    return received


def served_again(server: Server, source: str) -> bool:
    """Whether a new connection from `source` is served (not refused over a cap)."""
    with connect(server, source=source) as again:
        again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        try:
            return answer_of(again).startswith(b"HTTP/1.1 200")
        except ConnectionResetError:  # refused: closed before it read the request
            return False


def healthz(server: Server) -> bytes:
    with connect(server) as again:
        again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return answer_of(again)
