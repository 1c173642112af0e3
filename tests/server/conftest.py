"""A real server for these tests: gunicorn with several gevent worker processes on 127.0.0.1,
with the product's own gunicorn settings, as the README runs it in production."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tablebank.paths import ROOT

from ..support import setup_of

WORKERS = 3


class Server:
    def __init__(self, db_url: str, workers: int = WORKERS, env: dict | None = None) -> None:
        self.db_url, self.workers, self.env = db_url, workers, env or {}
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  the server's stderr, while it lives
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        command = [
            str(gunicorn) if gunicorn.exists() else "gunicorn",
            "-c", "python:tablebank.gunicorn_conf", "--workers", str(self.workers),
            "--bind", f"127.0.0.1:{self.port}", "tablebank:create_app()",
        ]  # fmt: skip
        self.run(command, ROOT, self.environment())

    def start_command(self) -> None:
        """The README's `tablebank` command (one gevent process) instead of gunicorn."""
        tablebank = Path(sys.executable).with_name("tablebank")
        module = [sys.executable, "-m", "tablebank.cli"]
        program = [str(tablebank)] if tablebank.exists() else module
        command = [*program, "--host", "127.0.0.1", "--port", str(self.port)]
        self.run(command, ROOT, self.environment())

    def environment(self) -> dict:
        # News must be pushed: the watcher's safety-net sweep would hide a lost notice.
        env = {**os.environ, "DATABASE_URL": self.db_url, "TABLEBANK_LIVE_SWEEP_SECONDS": "3600"}
        env.update(self.env)  # a test's own settings, as TABLEBANK_<NAME>
        return env

    def run(self, command: list, cwd: Path, env: dict) -> None:
        """Start `command` as this server, returning once it answers /api/editions; what it
        writes (logs, access log) goes to self.log."""
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, start_new_session=True,
            stdout=self.log, stderr=self.log,
        )  # fmt: skip
        deadline = time.monotonic() + 90  # a loaded machine boots workers slowly
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(self.url + "/api/editions", timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{Path(command[0]).name} did not start:\n{self.errors()}")

    def errors(self) -> str:
        return self.output()[-3000:]

    def output(self) -> str:
        """Everything the server wrote (its error and access logs), so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL the whole server, master and workers, with no chance to clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:  # a stream still open: no need to wait longer
                self.kill()

    def close(self) -> None:
        self.stop()
        self.log.close()

    def call(self, method: str, path: str, body: dict | None = None, key: str = "", raw=False):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("X-Banker-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, text.decode() if raw else json.loads(text or b"{}")


@pytest.fixture
def server(tmp_path, database_url):
    running = Server(database_url(tmp_path))
    running.start()
    yield running
    running.close()


def new_game(server: Server) -> tuple[str, str]:
    """A game for Ana, Bea and Cal with 5,000 each: its id and the banker's key."""
    status, body = server.call("POST", "/api/games", setup_of(starting_cash=5000))
    assert status == 201
    return body["id"], body["banker_key"]
