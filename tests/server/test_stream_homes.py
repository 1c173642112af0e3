"""A game's live pages carried by one gunicorn worker, its home (app/stream_homes.py): a
stream that opens in another worker is handed there with its connection, and every page
still hears every action."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import threading
from pathlib import Path

import psycopg
import pytest
from tablebank import stream_homes
from tablebank.stream_homes import BODY, Homes, hand, received, request_text, server_name

from ..servers import HANG_GUARD, Server, eventually
from ..support import POSTGRES
from .test_answers import SLOW_COMMIT, plain
from .test_live import Stream, balance_shown

HOMED = "carries the live streams of slot"
CLAIMED = re.compile(r"\[(\d+)\] \[INFO\] tablebank: [^\n]*" + HOMED + r" (\d+)")  # pid, slot


@pytest.fixture
def homed(tmp_path, database_url):
    """A gunicorn of three workers of this test's own, once each holds its slot; no rate
    limit on new games (a test makes games until one's home is the slot it wants)."""
    running = Server(database_url(tmp_path), env={"TABLEBANK_RATELIMIT_ENABLED": "false"})
    running.start()
    eventually(lambda: running.output().count(HOMED) == running.workers, "homes claimed")
    yield running
    running.close()


def owners(server, client_ports: set[int]) -> dict[int, int]:
    """Which process holds the server's end of each connection from `client_ports`: pid ->
    how many (from /proc: the connections' socket inodes, then each process's descriptors)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(fields[i].rsplit(":", 1)[1], 16) for i in (1, 2))
        if local == server.port and remote in client_ports:
            inodes.add(fields[9])
    held: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:
            continue
        for link in links:
            found = re.fullmatch(r"socket:\[(\d+)\]", link)
            if found and found.group(1) in inodes:
                held[int(entry.name)] = held.get(int(entry.name), 0) + 1
    return held


def holder(server, streams: list[Stream]) -> int:
    """The one process that holds the server's end of every stream's connection. A worker
    that handed a connection lets its own descriptor go just after the home has answered on
    it, so for a moment both may hold it: looked at until one alone does."""
    ports = {client_port(stream) for stream in streams}

    def alone():
        held = owners(server, ports)
        return next(iter(held)) if list(held.values()) == [len(streams)] else None

    return eventually(alone, "one process holding every page's connection")


def client_port(stream: Stream) -> int:
    return stream.response.fp.raw._sock.getsockname()[1]


def test_a_game_s_live_pages_are_all_carried_by_one_worker(homed):
    """Nine pages of one game opened on a server of three workers (gunicorn spreads the
    connections over them) all end up in the game's home worker, and each shows every action
    with the right cash."""
    game_id, key = homed.new_game()
    tokens = homed.player_tokens(game_id, key)
    streams = [Stream(homed, token) for token in tokens * 3]
    try:
        for version in (1, 2):
            pay = {"kind": "bank_pay", "player": 1, "amount": 25}
            status, _ = homed.call("POST", f"/api/games/{game_id}/actions", pay, key)
            assert status == 201
            assert [stream.next_version() for stream in streams] == [version] * len(streams)
        bea = [stream for stream in streams if stream.token == tokens[1]]
        # Bea's phones: 5,000 and two payments of 25.
        assert {balance_shown(stream.shown) for stream in bea} == {"$5,050"}
        home = holder(homed, streams)  # one process holds all nine
        assert home != homed.process.pid  # a worker, not gunicorn's master
        assert "Traceback" not in homed.output()
    finally:
        for stream in streams:
            stream.close()


def test_a_banker_s_connections_end_up_in_the_game_s_home_and_stay_there(homed):
    """A banker's requests name their game (`/g/<id>/...`, `/api/games/<id>/...`): one that
    reaches another worker is handed to the game's home with its connection and its body,
    answered there, and the connection is served there from then on (kept alive). Each
    action is done where the game's pages are carried, and each page hears it."""
    game_id, key = homed.new_game()
    bea = homed.player_tokens(game_id, key)[1]
    _, game = homed.call("GET", f"/api/games/{game_id}", key=key)
    cash = game["players"][1]["cash"]
    stream = Stream(homed, bea)
    bankers = [
        http.client.HTTPConnection("127.0.0.1", homed.port, timeout=HANG_GUARD) for _ in range(6)
    ]
    headers = {"X-Banker-Key": key, "Content-Type": "application/json"}
    pay = json.dumps({"kind": "bank_pay", "player": 1, "amount": 25})
    try:
        for version, banker in enumerate(bankers, start=1):
            banker.request("POST", f"/api/games/{game_id}/actions", pay, headers)
            answer = banker.getresponse()
            assert answer.status == 201 and json.loads(answer.read())["game"]["version"] == version
            assert stream.next_version() == version
            banker.request("GET", f"/api/games/{game_id}", headers=headers)  # the same connection
            answer = banker.getresponse()
            assert json.loads(answer.read())["players"][1]["cash"] == cash + 25 * version
        assert balance_shown(stream.shown) == f"${cash + 25 * len(bankers):,}"
        ports = {banker.sock.getsockname()[1] for banker in bankers}
        assert owners(homed, ports) == {holder(homed, [stream]): len(bankers)}
        posted = f"POST /api/games/{game_id}/actions"  # each in the access log, handed or not
        eventually(lambda: homed.output().count(posted) == len(bankers), "each action logged")
        assert "Traceback" not in homed.output()
    finally:
        stream.close()
        for banker in bankers:
            banker.close()


class Phone:
    """A player's phone on one kept-alive connection, its session cookie kept."""

    def __init__(self, server, token: str) -> None:
        self.token, self.cookie = token, ""
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD)

    def ask(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = "&".join(f"{k}={v}" for k, v in form.items())
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body, headers)
        answer = self.connection.getresponse()
        cookie = answer.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return answer.status, answer.read().decode()

    def pays_the_bank(self, amount: int) -> int:
        """The phone's page, then its form that pays the bank, on the same connection."""
        status, page = self.ask("GET", f"/p/{self.token}")
        assert status == 200
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        form = {"csrf_token": csrf, "to": "bank", "amount": str(amount)}
        return self.ask("POST", f"/p/{self.token}/pay", form)[0]


def test_a_phone_s_connection_goes_to_its_game_s_home_once_its_token_is_known(homed):
    """A phone's requests name its token, not its game: the worker that loads its page learns
    the game, and the phone's next request on that connection (its payment) is handed to the
    game's home and served there from then on."""
    game_id, key = homed.new_game()
    bea = homed.player_tokens(game_id, key)[1]
    _, game = homed.call("GET", f"/api/games/{game_id}", key=key)
    cash = game["players"][1]["cash"]
    stream = Stream(homed, bea)
    phones = [Phone(homed, bea) for _ in range(6)]
    try:
        for version, phone in enumerate(phones, start=1):
            assert phone.pays_the_bank(10) == 302  # back to the phone's page
            assert stream.next_version() == version
            assert phone.ask("GET", f"/p/{bea}")[0] == 200  # the same connection, kept alive
        assert balance_shown(stream.shown) == f"${cash - 10 * len(phones):,}"
        ports = {phone.connection.sock.getsockname()[1] for phone in phones}
        assert owners(homed, ports) == {holder(homed, [stream]): len(phones)}
        assert "Traceback" not in homed.output()
    finally:
        stream.close()
        for phone in phones:
            phone.connection.close()


@pytest.mark.skipif(not POSTGRES, reason="a COMMIT made slow by PostgreSQL's pg_sleep")
def test_a_home_told_to_stop_first_answers_the_action_it_was_handed(tmp_path, database_url):
    """gunicorn stops a worker (a reload, a restart) after a graceful time for the requests
    it answers, which it counts in its own pools; a banker's connection handed to the game's
    home is not in them. The home still answers the action it is committing (as done, and
    it is in the log) before it stops, instead of cutting it."""
    url = database_url(tmp_path)
    settings = {
        "TABLEBANK_RATELIMIT_ENABLED": "false",
        "GUNICORN_CMD_ARGS": "--graceful-timeout 60",
    }
    server = Server(url, env=settings).start()
    banker = None
    try:
        eventually(lambda: server.output().count(HOMED) == server.workers, "homes claimed")
        with psycopg.connect(plain(url), autocommit=True) as database:
            database.execute(SLOW_COMMIT)
        game_id, key = server.new_game()
        slots = {int(slot): int(pid) for pid, slot in CLAIMED.findall(server.output())}
        home = slots[Homes("", server.workers).home_of(game_id)]
        banker = accepted_away_from(server, home)
        headers = {"X-Banker-Key": key, "Content-Type": "application/json"}
        banker.request("GET", f"/api/games/{game_id}", headers=headers)
        assert banker.getresponse().read()
        assert owners(server, {banker.sock.getsockname()[1]}) == {home: 1}  # handed home
        pay = json.dumps({"kind": "bank_pay", "player": 1, "amount": 7, "note": "slow 3"})
        banker.request("POST", f"/api/games/{game_id}/actions", pay, headers)
        eventually(lambda: committing(url), "the action's COMMIT under way")
        os.kill(home, signal.SIGTERM)
        answer = banker.getresponse()
        assert answer.status == 201 and json.loads(answer.read())["game"]["version"] == 1
        assert server.call("GET", f"/api/games/{game_id}", key=key)[1]["version"] == 1
    finally:
        if banker is not None:
            banker.close()
        server.close()


def accepted_away_from(server, home: int) -> http.client.HTTPConnection:
    """A connection that a worker other than `home` accepted (gunicorn's workers take turns
    as the kernel wakes them): opened until one is."""
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD)
        connection.connect()
        port = connection.sock.getsockname()[1]
        (taker,) = eventually(lambda port=port: list(owners(server, {port})), "accepted")
        if taker != home:
            return connection
        connection.close()


def committing(url: str) -> bool:
    """Whether a COMMIT is sleeping in SLOW_COMMIT's trigger."""
    with psycopg.connect(plain(url), autocommit=True) as database:
        found = database.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'"
        )
        return found.fetchone()[0] > 0


def test_a_home_killed_is_claimed_again_by_the_worker_that_replaces_it(homed):
    """A worker killed (a crash, gunicorn's timeout) lets its slot go with its process; the
    worker gunicorn starts in its place claims it, and the pages that reconnect (as
    EventSource does) are carried there, all of them, hearing every action."""
    game_id, key = homed.new_game()
    tokens = homed.player_tokens(game_id, key)
    streams = [Stream(homed, token) for token in tokens * 2]
    home = holder(homed, streams)
    os.kill(home, signal.SIGKILL)
    for stream in streams:
        stream.close()
    eventually(lambda: homed.output().count(HOMED) == homed.workers + 1, "reclaimed")
    streams = [Stream(homed, token) for token in tokens * 2]
    try:
        pay = {"kind": "bank_pay", "player": 0, "amount": 5}
        assert homed.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
        assert [stream.next_version() for stream in streams] == [1] * len(streams)
        assert holder(homed, streams) != home
    finally:
        for stream in streams:
            stream.close()


def test_a_server_run_with_fewer_workers_since_still_carries_a_game_s_pages_in_one(homed):
    """gunicorn told to run one worker fewer (SIGTTOU) stops one: no worker holds its slot
    any more, and the games of that slot are carried by the next slot's worker, all their
    pages in it."""
    claimed = re.findall(CLAIMED, homed.output())
    slots = {int(pid): int(slot) for pid, slot in claimed}
    os.kill(homed.process.pid, signal.SIGTTOU)
    stopped = eventually(
        lambda: [pid for pid in slots if not Path(f"/proc/{pid}").exists()], "a worker stopped"
    )
    gone = slots[stopped[0]]
    game_id, key = homed.new_game()
    while Homes("", homed.workers).home_of(game_id) != gone:
        game_id, key = homed.new_game()
    tokens = homed.player_tokens(game_id, key)
    streams = [Stream(homed, token) for token in tokens * 2]
    try:
        pay = {"kind": "bank_pay", "player": 2, "amount": 5}
        assert homed.call("POST", f"/api/games/{game_id}/actions", pay, key)[0] == 201
        assert [stream.next_version() for stream in streams] == [1] * len(streams)
        assert slots[holder(homed, streams)] == (gone + 1) % homed.workers
    finally:
        for stream in streams:
            stream.close()


def test_a_live_page_s_head_is_answered_whichever_worker_it_reaches(homed):
    """HEAD is a stream's request a home answers without carrying a stream: the answer is
    written whole by the home for the connections handed to it (about two in three here)."""
    game_id, key = homed.new_game()
    tokens = homed.player_tokens(game_id, key)
    for token in tokens * 3:
        connection = http.client.HTTPConnection("127.0.0.1", homed.port, timeout=60)
        try:
            connection.request("HEAD", f"/p/{token}/live")
            answer = connection.getresponse()
            assert answer.status == 200
            assert answer.getheader("Content-Type").startswith("text/event-stream")
            assert answer.read() == b""
        finally:
            connection.close()
    assert "Traceback" not in homed.output()


# -- the homes themselves, in this process ----------------------------------------------------


def test_each_worker_claims_its_own_slot_and_a_slot_is_free_again_once_let_go():
    server = server_name(os.getpid(), ["127.0.0.1:0"], "sqlite:///claims")
    first, second, third = Homes(server, 2), Homes(server, 2), Homes(server, 2)
    listeners = [first.claim(), second.claim()]
    try:
        assert (first.slot, second.slot) == (0, 1)
        assert third.claim() is None  # every slot taken: the third serves its streams itself
        elsewhere = Homes(server_name(os.getpid(), ["127.0.0.1:1"], "sqlite:///claims"), 2)
        other = elsewhere.claim()  # another server's slots are its own
        assert other is not None and elsewhere.slot == 0
        other.close()
        listeners.pop().close()
        again = third.claim()
        assert again is not None and third.slot == 1
        listeners.append(again)
    finally:
        for listener in listeners:
            listener.close()


def test_a_home_not_claimed_cannot_be_reached():
    homes = Homes(server_name(os.getpid(), [], "sqlite:///nobody"), 3)
    game_id = next(g for g in ("a", "b", "c", "d") if homes.home_of(g) == 2)
    assert not homes.is_home(game_id)
    assert homes.door(game_id) is None


def test_while_a_game_s_home_is_away_the_next_slot_held_stands_in_for_it():
    """Slot 2 of three is not held (its worker is booting, or the server runs with fewer
    workers since): a game whose home it is goes to slot 0, the next one held, whichever
    worker the page reached; the worker of slot 0 keeps it."""
    server = server_name(os.getpid(), ["127.0.0.1:0"], "sqlite:///stand-in")
    first, second = Homes(server, 3), Homes(server, 3)
    listeners = [first.claim(), second.claim()]
    try:
        game_id = next(g for g in ("a", "b", "c", "d") if first.home_of(g) == 2)
        assert not first.is_home(game_id) and not second.is_home(game_id)
        assert first.door(game_id) is None  # slot 0 comes first after the missing home
        door = second.door(game_id)
        assert door is not None
        door.close()
        listeners[0].settimeout(HANG_GUARD)  # a hang guard: the connection is there already
        accepted, _ = listeners[0].accept()  # slot 0's worker is the one it reached
        accepted.close()
    finally:
        for listener in listeners:
            listener.close()


STREAM = {"REQUEST_METHOD": "GET", "PATH_INFO": "/p/token/live", "HTTP_COOKIE": "session=1"}


def handed_over(request: dict, body: bytes = b"") -> tuple[bool, list, socket.socket]:
    """`request` handed from a worker to a home over a real door, with one end of a socket
    pair as its connection: whether the home took it, what it ran, the other end."""
    homes = Homes(server_name(os.getpid(), [], f"sqlite:///{id(request)}"), 1)
    listener = homes.claim()
    page, connection = socket.socketpair()
    ran: list = []

    def home() -> None:
        door, _ = listener.accept()
        received(door, lambda conn, environ: ran.append((conn, environ)))

    thread = threading.Thread(target=home)
    thread.start()
    door = homes.named(0, "connect")
    taken = hand(door, connection, request_text(request, body))
    thread.join()
    listener.close()
    connection.close()  # the worker that handed it lets its own go
    return taken, ran, page


def test_a_handed_stream_arrives_with_its_request_and_its_connection():
    taken, ran, page = handed_over({**STREAM, "wsgi.input": object(), "tablebank.x": 1})
    with page:
        assert taken
        ((connection, environ),) = ran
        assert environ == {**STREAM, BODY: b""}  # its line and headers, nothing of the server's
        with connection:
            connection.sendall(b"HTTP/1.1 200 OK\r\n")  # the home answers on it
        assert page.recv(100) == b"HTTP/1.1 200 OK\r\n"


def test_a_home_that_does_not_take_a_stream_in_time_is_left_with_it(monkeypatch):
    """The home is stuck (its door accepted, nothing read): the worker stops waiting after
    HAND_SECONDS and writes nothing on the page's connection, and once the home lets the
    door go, unread, the page sees its connection closed and reconnects, instead of hanging
    for good."""
    monkeypatch.setattr(stream_homes, "HAND_SECONDS", 0.2)
    homes = Homes(server_name(os.getpid(), [], "sqlite:///stuck"), 1)
    listener = homes.claim()
    page, connection = socket.socketpair()
    door = homes.named(0, "connect")
    accepted, _ = listener.accept()  # and nothing more: the home is stuck
    with page, listener:
        said: list[bool] = []
        worker = threading.Thread(
            target=lambda: said.append(hand(door, connection, request_text(STREAM))), daemon=True
        )
        worker.start()
        worker.join(HANG_GUARD)
        assert said == [True]  # the home's now: not answered here
        connection.close()  # the worker lets its own go
        accepted.close()
        page.settimeout(HANG_GUARD)
        assert page.recv(100) == b""


def test_a_game_s_action_arrives_with_its_body_whole():
    """A body larger than one message on the door (a form's 60 kB, near the most handed)."""
    action = {"REQUEST_METHOD": "POST", "PATH_INFO": "/g/abc/do", "CONTENT_LENGTH": "60000"}
    body = bytes(range(256)) * 234 + b"\0end"  # any byte, a NUL among them
    taken, ran, page = handed_over(action, body)
    with page:
        assert taken
        ((connection, environ),) = ran
        connection.close()
        assert environ == {**action, BODY: body}


@pytest.mark.parametrize(
    "request_",
    [
        {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/games"},  # names no game
        {"REQUEST_METHOD": "GET", "PATH_INFO": "/t/token"},  # the table screen: it only reads
        {"REQUEST_METHOD": "DELETE", "PATH_INFO": "/g/abc/"},
        {"REQUEST_METHOD": "GET", "PATH_INFO": "/static/app.js"},
    ],
)
def test_a_home_runs_nothing_but_a_live_stream_or_a_request_naming_its_game(request_):
    taken, ran, page = handed_over(request_)
    with page:
        assert not taken and ran == []
        assert page.recv(100) == b""  # the connection was closed, nothing run for it


def test_a_proxy_fix_s_changes_are_undone_for_the_home_s_app_to_make_again():
    fixed = {
        **STREAM,
        "REMOTE_ADDR": "203.0.113.9",
        "werkzeug.proxy_fix.orig": {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": None},
    }
    sent = json.loads(request_text(fixed).partition(b"\0")[0])
    assert sent["REMOTE_ADDR"] == "127.0.0.1"
    assert "werkzeug.proxy_fix.orig" not in sent
