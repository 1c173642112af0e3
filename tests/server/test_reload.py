"""A reload (SIGHUP: the README's `ExecReload`, `systemctl reload`) leaves no gap: the old
workers serve until the new ones have made the app (app/handover.py). gunicorn alone stopped
them as soon as it had forked the new ones: every request then waited for the new workers'
boot (15 s on a loaded 2-core server with 4 workers).

The test holds each worker forked after the reload before it makes the app, until it lets it
go (a gunicorn settings file of its own, around the product's), so nothing here is timed."""

from __future__ import annotations

import os
import signal
import sys
import urllib.request
from pathlib import Path

import pytest
from tablebank.paths import ROOT

from ..servers import HANG_GUARD, Server, eventually, free_port

HELD = """
import os, time
from pathlib import Path

from tablebank.gunicorn_conf import *  # noqa: F403  the product's settings and hooks

HOLD = Path({hold!r})


def post_fork(server, worker):
    # A worker forked after the reload waits here, before it makes the app, until let go.
    if (HOLD / "reloaded").exists():
        (HOLD / f"held-{{os.getpid()}}").touch()
        while not (HOLD / "go").exists():
            time.sleep(0.05)
"""


LINUX = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
pytestmark = pytest.mark.slow  # a gunicorn of their own, booting workers twice


def workers(master: int) -> set[int]:
    """The master's worker processes (and any helper it runs meanwhile)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return {int(pid) for pid in children}


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def answers(url: str) -> bool:
    with urllib.request.urlopen(url + "/healthz", timeout=HANG_GUARD) as response:
        return response.status == 200


@pytest.fixture
def held(tmp_path, database_url):
    """A gunicorn of the test's own with `count` workers, the product's settings and hooks,
    whose workers forked after the file `reloaded` exists wait until `go` does."""
    settings = tmp_path / "held_conf.py"
    settings.write_text(HELD.format(hold=str(tmp_path)))
    started = []

    def start(count: int) -> Server:
        server = Server(database_url(tmp_path), workers=count)

        def command() -> list[str]:
            program = Path(sys.executable).with_name("gunicorn")
            return [
                str(program), "-c", str(settings), "--workers", str(count),
                "--bind", f"127.0.0.1:{server.port}", "tablebank:create_app()",
            ]  # fmt: skip

        server.command = command
        started.append(server)
        server.run(command, ROOT, server.environment())
        return server

    yield start
    (tmp_path / "go").touch()
    for server in started:
        server.close()


@LINUX
def test_after_a_reload_the_old_worker_serves_until_the_new_one_has_made_the_app(held, tmp_path):
    held_server = held(1)
    master = held_server.process.pid
    old = eventually(lambda: len(workers(master)) == 1 and workers(master), "one worker")
    (tmp_path / "reloaded").touch()
    os.kill(master, signal.SIGHUP)
    eventually(lambda: len(list(tmp_path.glob("held-*"))) == 1, "the new worker forked")
    # One more worker asked for: the master forks it once it is done with the reload (which
    # waits for the workers it stopped to be gone).
    os.kill(master, signal.SIGTTIN)
    eventually(lambda: len(list(tmp_path.glob("held-*"))) == 2, "the reload done")

    # The new workers are still making the app: the old one is kept, and answers.
    assert all(alive(pid) for pid in old)
    assert answers(held_server.url)

    (tmp_path / "go").touch()
    eventually(lambda: not any(alive(pid) for pid in old), "the old worker gone")
    new = eventually(lambda: len(workers(master)) == 2 and workers(master), "two workers")
    assert not new & old
    assert answers(held_server.url)


@LINUX
def test_a_worker_that_dies_is_replaced_once_and_a_second_reload_ends_with_as_many(held, tmp_path):
    held_server = held(2)
    master = held_server.process.pid
    first = eventually(lambda: len(workers(master)) == 2 and workers(master), "two workers")
    os.kill(min(first), signal.SIGKILL)
    eventually(lambda: len(workers(master) - first) == 1, "the dead worker replaced")
    replaced = eventually(lambda: len(workers(master)) == 2 and workers(master), "two workers")
    (tmp_path / "go").touch()  # the reload's workers are not held
    (tmp_path / "reloaded").touch()
    os.kill(master, signal.SIGHUP)
    eventually(lambda: not any(alive(pid) for pid in replaced), "the old workers gone")
    final = eventually(lambda: len(workers(master)) == 2 and workers(master), "two workers")
    assert not final & replaced
    assert answers(held_server.url)


class Master:
    """What gunicorn's master gives `on_reload`: its log, and the handover installed at start."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.log = self
        self.handovers = 0
        self.tablebank_handover = self

    def error(self, message: str, *args) -> None:
        self.errors.append(message % args if args else message)

    def begin(self) -> None:
        self.handovers += 1


def test_a_reload_while_the_database_is_down_goes_on_and_says_so(monkeypatch, tmp_path):
    """A reload (`systemctl reload`) during a database outage: the schema cannot be checked,
    and the master goes on serving with the old workers until the new ones are ready (it
    stopped, taking every table down). The log says to reload again; the new workers still
    boot without the database (they never upgrade as they boot)."""
    from tablebank import gunicorn_conf

    nobody = f"postgresql://tablebank:none@127.0.0.1:{free_port()}/tablebank"
    monkeypatch.setenv("DATABASE_URL", nobody)  # a port nobody listens on: refused at once
    monkeypatch.setenv("TABLEBANK_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("TABLEBANK_UPGRADE_ON_START", "false")  # as the master's start left it
    monkeypatch.setattr(gunicorn_conf, "UPGRADE_ON_START", True)  # the operator's choice
    master = Master()
    gunicorn_conf.on_reload(master)
    assert master.handovers == 1
    assert len(master.errors) == 1 and "reload again once the database answers" in master.errors[0]
    assert os.environ["TABLEBANK_UPGRADE_ON_START"] == "false"
