"""Ctrl-C stops the `tablebank` command with a plain word, not a traceback (issue 22)."""

from __future__ import annotations

import os
import signal

import pytest

from ..servers import HANG_GUARD, Server


@pytest.mark.skipif(os.name != "posix", reason="Ctrl-C is SIGINT on POSIX")
def test_ctrl_c_says_the_bank_stopped_and_prints_no_traceback(tmp_path):
    # The home table: no DATABASE_URL, SQLite in the instance folder.
    command = Server("", env={"TABLEBANK_INSTANCE": str(tmp_path)}).start_command()
    try:
        os.killpg(command.process.pid, signal.SIGINT)  # what Ctrl-C sends, to its group
        command.process.wait(timeout=HANG_GUARD)
        output = command.output()
    finally:
        command.close()
    assert "tablebank has stopped." in output
    assert "KeyboardInterrupt" not in output and "Traceback" not in output
    assert command.process.returncode == 0
