"""A real server for these tests: gunicorn with several worker processes on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from app import ROOT

WORKERS = 3


class Server:
    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self.process: subprocess.Popen | None = None
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        command = [
            str(gunicorn) if gunicorn.exists() else "gunicorn",
            "--workers", str(WORKERS), "--worker-class", "gthread", "--threads", "8",
            "--preload", "--bind", f"127.0.0.1:{self.port}", "app:create_app()",
        ]  # fmt: skip
        env = {**os.environ, "DATABASE_URL": self.db_url}
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/editions", timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not start")

    def kill(self) -> None:
        """SIGKILL the whole server, master and workers, with no chance to clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)

    def call(self, method: str, path: str, body: dict | None = None, key: str = ""):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("X-Banker-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


@pytest.fixture
def server(tmp_path, database_url):
    running = Server(database_url(tmp_path))
    running.start()
    yield running
    running.stop()
