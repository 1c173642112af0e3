"""Real server processes for the tests that need one: gunicorn with the product's settings (as
the README runs it in production) or the README's `tablebank` command (one gevent process),
on 127.0.0.1 and a database of the test's choosing. Only the standard library is used here.

Nothing a test waits for is timed: `eventually` and the boot wait poll for the event itself
and give up only after a hang guard far beyond any machine's load, saying what never came.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tablebank.paths import ROOT

from .support import setup_of

HANG_GUARD = 180  # seconds: a wait that lasts this long is a hang, never a slow machine
WORKERS = 3
# The settings of a server that the tests of a module share: they make their games from one
# address, so the limits on new games (10 a minute per client) are lifted;
# tests/server/test_rate_limits.py and test_limits_gaps.py keep them.
SHARED = {
    "TABLEBANK_RATE_LIMIT_CREATE": "1000/minute",
    "TABLEBANK_RATE_LIMIT_CREATE_ALL": "1000/minute",
}
T = TypeVar("T")


def eventually(check: Callable[[], T], what: str, seconds: float = HANG_GUARD) -> T:
    """The first true answer of `check`, asked again and again; fails with `what` (the event
    that never came) once `seconds` have passed: a hang guard, not a latency bound."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still not so after {seconds} s (a hang)")
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """One server process (its workers in its own session), its output kept in a file."""

    def __init__(self, db_url: str, workers: int = WORKERS, env: dict | None = None) -> None:
        self.db_url, self.workers, self.env = db_url, workers, env or {}
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  the server's output, while it lives
        self.since = 0  # where the output of the test under way begins (`output`)
        self.port = free_port()
        self.command: Callable[[], list[str]] = self.gunicorn

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- starting and stopping ---------------------------------------------------------------------

    def gunicorn(self) -> list[str]:
        program = Path(sys.executable).with_name("gunicorn")
        return [
            str(program) if program.exists() else "gunicorn",
            "-c", "python:tablebank.gunicorn_conf", "--workers", str(self.workers),
            "--bind", f"127.0.0.1:{self.port}", "tablebank:create_app()",
        ]  # fmt: skip

    def tablebank(self) -> list[str]:
        """The README's `tablebank` command (one gevent process) instead of gunicorn."""
        program = Path(sys.executable).with_name("tablebank")
        command = [str(program)] if program.exists() else [sys.executable, "-m", "tablebank.cli"]
        return [*command, "--host", "127.0.0.1", "--port", str(self.port)]

    def start(self) -> Server:
        """gunicorn with the product's settings, answering once /api/editions does."""
        self.command = self.gunicorn
        self.run(self.command, ROOT, self.environment())
        return self

    def start_command(self) -> Server:
        self.command = self.tablebank
        self.run(self.command, ROOT, self.environment())
        return self

    def restart(self) -> None:
        """The same server started again (after `stop` or `kill`), on the same port."""
        self.run(self.command, ROOT, self.environment(), new_port=False)

    def environment(self) -> dict:
        # News must be pushed: the watcher's safety-net sweep would hide a lost notice.
        env = {**os.environ, "DATABASE_URL": self.db_url, "TABLEBANK_LIVE_SWEEP_SECONDS": "3600"}
        env.update(self.env)  # a test's own settings, as TABLEBANK_<NAME>
        return env

    def run(self, command, cwd: Path, env: dict, new_port: bool = True) -> None:
        """Start `command()` (a function of the port) in `cwd`, returning once the server
        answers /api/editions."""
        self.launch(command, cwd, env)
        self.ready(new_port)

    @staticmethod
    def start_all(servers: list[Server]) -> None:
        """Several gunicorn servers booting side by side; back once each one answers."""
        for server in servers:
            server.command = server.gunicorn
            server.launch(server.command, ROOT, server.environment())
        for server in servers:
            server.ready()

    def launch(self, command, cwd: Path, env: dict) -> None:
        self.launched = (command, cwd, env)
        self.process = subprocess.Popen(
            command(), cwd=cwd, env=env, start_new_session=True, stdout=self.log, stderr=self.log
        )

    def ready(self, new_port: bool = True) -> None:
        """Back once the server answers. A port taken in the meantime by another process on
        this machine (the suite is not alone on it) is given up for another."""
        for _ in range(5):
            if self.wait_until_up():
                return
            taken = self.port_was_taken()
            self.stop()
            if not (taken and new_port):
                break
            self.port = free_port()
            self.launch(*self.launched)
        raise RuntimeError(f"{Path(self.launched[0]()[0]).name} did not start:\n{self.errors()}")

    def wait_until_up(self) -> bool:
        deadline = time.monotonic() + HANG_GUARD  # a loaded machine boots workers slowly
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(self.url + "/api/editions", timeout=5).close()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def port_was_taken(self) -> bool:
        said = self.output()
        return any(words in said for words in ("in use", f"port {self.port} is taken"))

    def stop(self) -> None:
        """SIGTERM, as an operator stops a server: it ends its streams and finishes requests."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        """SIGKILL the whole server, master and workers, with no chance to clean up."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def close(self) -> None:
        """At the end of its tests: the server is killed (nothing it would still do is
        looked at) and its output dropped."""
        self.kill()
        self.log.close()

    # -- what it wrote -----------------------------------------------------------------------------

    def begin_test(self) -> None:
        """From now on, `output` is what the server writes for the test that begins."""
        self.log.seek(0, os.SEEK_END)
        self.since = self.log.tell()

    def output(self) -> str:
        """What the server wrote (its error and access logs) since the test began."""
        self.log.seek(self.since)
        return self.log.read().decode(errors="replace")

    def errors(self) -> str:
        return self.output()[-3000:]

    def logged(self, text: str) -> str:
        """The output once it holds `text` (a request's access line is written after its
        answer is sent)."""
        return eventually(lambda: text in (found := self.output()) and found, f"{text!r} logged")

    # -- a client ----------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: dict | None = None, key: str = "", raw=False):
        """An HTTP call: its status and its JSON (or text, `raw`)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("X-Banker-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=HANG_GUARD) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, text.decode() if raw else json.loads(text or b"{}")

    def new_game(self, **setup) -> tuple[str, str]:
        """A game for Ana, Bea and Cal (5,000 each unless `setup` says): id and banker key."""
        status, body = self.call("POST", "/api/games", setup_of(**{"starting_cash": 5000, **setup}))
        assert status == 201, (status, body)
        return body["id"], body["banker_key"]

    def player_tokens(self, game_id: str, key: str) -> list[str]:
        """Each player's private token, in seat order, read on the banker's codes page."""
        _, codes = self.call("GET", f"/g/{game_id}/codes", key=key, raw=True)
        return list(dict.fromkeys(re.findall(r"/p/([A-Za-z0-9_-]{20,})", codes)))
