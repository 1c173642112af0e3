"""The `tablebank` command says plainly when its port is taken, before printing any address,
and the README names the options that choose another."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tablebank import cli

from ..servers import HANG_GUARD

README = Path(__file__).resolve().parents[2] / "README.md"


def test_a_taken_port_is_said_plainly_with_the_next_one_to_try():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as stopped:
            cli.listen("127.0.0.1", port)
    assert str(stopped.value) == f"tablebank: port {port} is taken: try --port {port + 1}"


def test_the_command_stops_before_printing_an_address_when_its_port_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        command = [
            sys.executable,
            "-m",
            "tablebank.cli",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1
    assert done.stdout == ""  # no "open at ..." and no QR code
    assert done.stderr.strip() == f"tablebank: port {port} is taken: try --port {port + 1}"


def test_the_readme_names_port_and_host():
    words = README.read_text()
    assert "--port" in words and "--host" in words
