"""Ctrl-C stops the `tablebank` command with a plain word, not a traceback (issue 22)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.skipif(os.name != "posix", reason="Ctrl-C is SIGINT on POSIX")
def test_ctrl_c_says_the_bank_stopped_and_prints_no_traceback(tmp_path):
    port = free_port()
    command = Path(sys.executable).with_name("tablebank")
    env = {**os.environ, "TABLEBANK_INSTANCE": str(tmp_path)}
    env.pop("DATABASE_URL", None)  # the home table: SQLite in the instance folder
    process = subprocess.Popen(
        [str(command), "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/editions", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        process.send_signal(signal.SIGINT)  # what Ctrl-C sends
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert "tablebank has stopped." in output
    assert "KeyboardInterrupt" not in output and "Traceback" not in output
    assert process.returncode == 0
