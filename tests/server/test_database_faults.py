"""A database that goes away: stopped, or frozen (SIGSTOP: it keeps its connections open and
never answers). Requests get a 503 with plain words instead of hanging, and the server works
again by itself once the database is back, with no restart.

The test runs its own PostgreSQL (initdb and pg_ctl, a data folder and port of its own, as the
postgres user), never the shared one: stopping that would break everyone else's tests."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ..servers import HANG_GUARD, Server
from ..support import POSTGRES, setup_of

pytestmark = [
    pytest.mark.slow,  # a PostgreSQL of its own, stopped and frozen
    # The same whatever the database under test: run once, in the pass on SQLite (CI's first).
    pytest.mark.skipif(POSTGRES, reason="its own PostgreSQL: run in the pass on SQLite"),
]

BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
CI = bool(os.environ.get("CI"))


def as_postgres(*command: str) -> list[str]:
    return command if os.geteuid() != 0 else ["runuser", "-u", "postgres", "--", *command]


class Cluster:
    """A throwaway PostgreSQL on 127.0.0.1:<free port>, trust authentication."""

    def __init__(self, folder: Path) -> None:
        self.bin = BIN[-1]
        self.data = folder / "pgdata"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, *command: str) -> None:
        done = subprocess.run(
            as_postgres(*command), capture_output=True, text=True, timeout=HANG_GUARD
        )
        assert done.returncode == 0, done.stderr

    def create(self) -> None:
        self.data.parent.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.data.parent, "postgres")
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data}"
        log = str(self.data.parent / "log")
        pg_ctl = str(self.bin / "pg_ctl")
        self.run(pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def processes(self) -> list[int]:
        leader = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(leader)], capture_output=True, text=True
        ).stdout.split()
        return [leader, *map(int, children)]

    def signal(self, number: int) -> None:
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, number)


@pytest.fixture(scope="module")
def own_cluster():
    if not BIN or (os.geteuid() == 0 and shutil.which("runuser") is None):
        if CI:
            pytest.fail("PostgreSQL's initdb and pg_ctl are needed for this test")
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed")
    folder = Path(tempfile.mkdtemp(prefix="tablebank-pg-"))  # pytest's own is root's only
    folder.chmod(0o755)
    made = Cluster(folder / "pg")
    made.create()
    made.start()
    yield made
    with contextlib.suppress(Exception):
        made.signal(signal.SIGCONT)
    with contextlib.suppress(Exception):
        made.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def cluster(own_cluster):
    """The module's PostgreSQL, running and answering when a test begins (each test stops
    or freezes it and brings it back)."""
    if (own_cluster.data / "postmaster.pid").exists():
        own_cluster.signal(signal.SIGCONT)
    else:
        own_cluster.start()
    return own_cluster


@pytest.fixture(scope="module")
def own_server(own_cluster):
    server = Server(own_cluster.url, workers=2).start()
    yield server
    server.close()


@pytest.fixture(scope="module")
def one_worker(own_cluster):
    server = Server(own_cluster.url, workers=1).start()
    yield server
    server.close()


@pytest.fixture
def served(cluster, own_server):
    """The module's gunicorn on that PostgreSQL (each test plays a game of its own)."""
    own_server.begin_test()
    return own_server


def game_and_page(server: Server):
    status, body = server.call("POST", "/api/games", setup_of())
    assert status == 201
    return body["id"], body["banker_key"]


def answers_while_down(server: Server, game_id: str, key: str) -> None:
    """The API and a page both say the database is not answering, and nothing hangs."""
    status, body = server.call("GET", f"/api/games/{game_id}", key=key)
    assert status == 503, (body, server.errors()[-1500:])
    assert body["rule"] == "unavailable" and "not answering" in body["error"]
    action = {"kind": "pass_go", "player": 0}
    status, body = server.call("POST", f"/api/games/{game_id}/actions", action, key=key)
    assert status == 503, (body, server.errors()[-1500:])
    status, page = server.call("GET", "/new", raw=True)
    assert status in (200, 503)  # the new-game form needs no database
    status, page = server.call("GET", "/", raw=True)
    assert status in (200, 503)


def works_again(server: Server, game_id: str, key: str) -> None:
    action = {"kind": "pass_go", "player": 0}
    status, body = server.call("POST", f"/api/games/{game_id}/actions", action, key=key)
    assert status == 201, (body, server.errors()[-1500:])
    status, body = server.call("GET", f"/api/games/{game_id}", key=key)
    assert status == 200 and body["players"][0]["cash"] == 1900


def test_a_stopped_database_is_a_503_and_the_server_recovers(cluster, served):
    game_id, key = game_and_page(served)
    assert served.call("POST", f"/api/games/{game_id}/actions", {"kind": "pass_go", "player": 0},
                       key=key)[0] == 201  # fmt: skip
    cluster.stop()
    for _ in range(3):
        answers_while_down(served, game_id, key)
    cluster.start()
    works_again(served, game_id, key)


def test_a_database_restarted_between_two_taps_costs_the_second_nothing(cluster, one_worker):
    """A restart of PostgreSQL tells each connection it ends, then hangs up: the connection
    the first tap used, back in the pool a moment before (too recent to be tested with a
    query), is seen to be closed as it is taken, and the second tap gets a fresh one instead
    of a 503. One worker: the second tap meets the very connection the first one left."""
    one_worker.begin_test()
    game_id, key = game_and_page(one_worker)
    action = {"kind": "pass_go", "player": 0}
    assert one_worker.call("POST", f"/api/games/{game_id}/actions", action, key=key)[0] == 201
    cluster.stop()
    cluster.start()
    status, body = one_worker.call("POST", f"/api/games/{game_id}/actions", action, key=key)
    assert status == 201, (body, one_worker.errors()[-1500:])
    status, body = one_worker.call("GET", f"/api/games/{game_id}", key=key)
    assert status == 200 and body["players"][0]["cash"] == 1900  # both taps' GO salary (G1)


HIGH_NUMBERED = """
import os, resource, sys, time
from gevent import monkey
monkey.patch_all()  # as the servers run
resource.setrlimit(resource.RLIMIT_NOFILE, (2048, 2048))
taken = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]  # a busy server's sockets
import psycopg
from tablebank.db_setup import closed_by_server
pooled = psycopg.connect(sys.argv[1])
other = psycopg.connect(sys.argv[1], autocommit=True)
print(pooled.fileno(), closed_by_server(pooled))
other.execute("SELECT pg_terminate_backend(%s)", [pooled.info.backend_pid])
until = time.monotonic() + 10
while not closed_by_server(pooled) and time.monotonic() < until:
    time.sleep(0.05)
print(closed_by_server(pooled))
"""


def test_a_connection_numbered_past_1023_is_looked_at_as_well(cluster):
    """A server holding thousands of open pages numbers its database connections past 1023,
    where select() refuses to look: every connection would have looked closed, and each
    request made a new one. The look at a pooled connection's socket works there, under
    gevent as the servers run: open is open, and one the server ended is seen ended."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 2048:
        pytest.skip("this machine allows fewer than 2,048 open files")
    done = subprocess.run(
        [sys.executable, "-c", HIGH_NUMBERED, cluster.url],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert done.returncode == 0, done.stderr
    (number, open_looked_closed), (ended_looked_closed,) = (
        line.split() for line in done.stdout.splitlines()
    )
    assert int(number) > 1023
    assert open_looked_closed == "False"
    assert ended_looked_closed == "True"


def test_a_frozen_database_is_a_503_not_a_hang_and_the_server_recovers(cluster, served):
    game_id, key = game_and_page(served)
    assert served.call("POST", f"/api/games/{game_id}/actions", {"kind": "pass_go", "player": 0},
                       key=key)[0] == 201  # fmt: skip
    cluster.signal(signal.SIGSTOP)
    try:
        for _ in range(2):
            answers_while_down(served, game_id, key)
    finally:
        cluster.signal(signal.SIGCONT)
    works_again(served, game_id, key)


def test_a_worker_that_restarts_while_the_database_is_down_keeps_the_server_up(cluster, served):
    """gunicorn stops the whole server when a worker cannot boot: a worker must boot without
    the database, so a crash or a timeout during an outage costs 503s, not the server."""
    game_id, key = game_and_page(served)
    assert served.call("POST", f"/api/games/{game_id}/actions", {"kind": "pass_go", "player": 0},
                       key=key)[0] == 201  # fmt: skip
    cluster.stop()
    workers = subprocess.run(
        ["pgrep", "-P", str(served.process.pid)], capture_output=True, text=True
    ).stdout.split()
    for worker in workers:
        os.kill(int(worker), signal.SIGKILL)
    answers_while_down(served, game_id, key)  # served by the workers booted during the outage
    assert served.process.poll() is None, served.errors()
    cluster.start()
    works_again(served, game_id, key)
