"""gunicorn's workers boot at most one per core at a time (app/staggered_boot.py): with 4
workers on 2 cores, all four booting at once shared the cores, and the server's first answer
waited for nearly all of them. Nothing here is timed: the test's own hooks note, as each
worker is forked, how many had booted before it."""

from __future__ import annotations

import os
import sys
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from tablebank import staggered_boot
from tablebank.paths import ROOT

from ..servers import HANG_GUARD, Server, eventually

NOTING = """
import os
from pathlib import Path

from tablebank import staggered_boot
from tablebank.gunicorn_conf import *  # noqa: F403  the product's settings and hooks
from tablebank.gunicorn_conf import post_worker_init as product_post_worker_init

NOTES = Path({notes!r})
staggered_boot.cores = lambda: 1  # as on a server with one core, whatever this machine has


def post_fork(server, worker):
    booted = len(list(NOTES.glob("booted-*")))
    (NOTES / f"forked-{{server.worker_age:03d}}").write_text(str(booted))


def post_worker_init(worker):
    (NOTES / f"booted-{{os.getpid()}}").touch()  # before the master hears of it
    product_post_worker_init(worker)
"""


@pytest.mark.slow
def test_on_one_core_each_worker_is_forked_once_the_one_before_has_booted(tmp_path, database_url):
    settings = tmp_path / "noting_conf.py"
    settings.write_text(NOTING.format(notes=str(tmp_path)))
    server = Server(database_url(tmp_path), workers=3)
    command = [
        str(Path(sys.executable).with_name("gunicorn")), "-c", str(settings),
        "--workers", "3", "--bind", f"127.0.0.1:{server.port}", "tablebank:create_app()",
    ]  # fmt: skip
    server.command = lambda: command
    server.run(lambda: command, ROOT, server.environment())
    try:
        eventually(lambda: len(list(tmp_path.glob("booted-*"))) == 3, "three workers booted")
        forked = sorted(tmp_path.glob("forked-*"))
        assert [path.read_text() for path in forked] == ["0", "1", "2"]
        with urllib.request.urlopen(server.url + "/healthz", timeout=HANG_GUARD) as answer:
            assert answer.status == 200
    finally:
        server.close()


class Master:
    """What StaggeredBoot reads of gunicorn's master: its settings, workers and fork."""

    def __init__(self, tmp_path, workers: int) -> None:
        self.cfg = SimpleNamespace(worker_tmp_dir=str(tmp_path), uid=os.geteuid(), gid=os.getegid())
        self.num_workers = workers
        self.WORKERS: dict[int, object] = {}
        self.next_pid = 100

    def spawn_worker(self) -> None:
        self.next_pid += 1
        self.WORKERS[self.next_pid] = object()


def say_booted(boot: staggered_boot.StaggeredBoot, pid: int) -> None:
    (boot.folder / str(pid)).touch()


def test_two_cores_boot_two_workers_at_a_time_and_a_dead_one_frees_its_place(tmp_path):
    master = Master(tmp_path, workers=4)
    boot = staggered_boot.StaggeredBoot(master, slots=2)
    try:
        master.spawn_workers()
        assert sorted(master.WORKERS) == [101, 102]
        master.spawn_workers()  # gunicorn's loop asks again while they boot
        assert len(master.WORKERS) == 2
        say_booted(boot, 101)
        master.spawn_workers()
        assert sorted(master.WORKERS) == [101, 102, 103]
        del master.WORKERS[102]  # died while booting: reaped by gunicorn
        master.spawn_workers()
        assert sorted(master.WORKERS) == [101, 103, 104]
        for pid in (103, 104):
            say_booted(boot, pid)
        master.spawn_workers()
        assert sorted(master.WORKERS) == [101, 103, 104, 105]
        del master.WORKERS[101]  # a booted worker crashed: its file goes, a new one boots
        master.spawn_workers()
        assert sorted(master.WORKERS) == [103, 104, 105, 106]
        assert sorted(path.name for path in boot.folder.iterdir()) == ["103", "104"]
    finally:
        boot.close()
    assert not boot.folder.exists()
