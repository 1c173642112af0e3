"""gunicorn's workers boot at most one per core at a time, so the first ones answer sooner.

gunicorn forks every worker at once, and each imports and makes the app: about a second of
CPU each on a small server. With more workers than cores they share the cores, and none
answers before nearly all have booted (4 workers on 2 cores: twice one worker's boot). Booted
one per core at a time, the first answer comes after one worker's boot, and the last worker
is ready no later than before (the cores were busy with boots either way). With as many
cores as workers nothing changes.

A worker says it has booted (`booted`, called by gunicorn's `post_worker_init`) by leaving a
file named by its pid in the master's folder, then wakes the master with SIGCHLD, which
gunicorn's master takes to mean "a worker changed": it looks at its workers again and starts
the next one. A worker that dies or hangs while booting is gunicorn's as ever (reaped;
killed after its timeout), and its place goes to the next.

Only the start and a crashed worker's replacement go through here; a reload (SIGHUP) forks its
workers itself, while the old ones serve (app/handover.py). Used by gunicorn's master
(app/gunicorn_conf.py): nothing here loads Flask.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

FOLDER: Path | None = None  # where workers say they have booted, as they see it after the fork


def cores() -> int:
    """The cores this server may run on (a container's or taskset's share, where known)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


class StaggeredBoot:
    """Installed once in the master (`on_starting`), in place of its `spawn_workers`."""

    def __init__(self, server, slots: int | None = None) -> None:
        global FOLDER
        self.server = server
        self.slots = slots or cores()
        cfg = server.cfg
        self.folder = Path(tempfile.mkdtemp(prefix="tablebank-boot-", dir=cfg.worker_tmp_dir))
        FOLDER = self.folder
        if cfg.uid != os.geteuid() or cfg.gid != os.getegid():
            os.chown(self.folder, cfg.uid, cfg.gid)  # the workers' user writes in it
        server.spawn_workers = self.spawn_workers  # gunicorn's manage_workers calls it

    def booting(self) -> int:
        """Workers forked that have not said they booted; the files of gone workers removed."""
        alive = {str(pid) for pid in self.server.WORKERS}
        booted = set()
        for path in self.folder.iterdir():
            if path.name in alive:
                booted.add(path.name)
            else:
                path.unlink(missing_ok=True)
        return len(alive - booted)

    def spawn_workers(self) -> None:
        missing = self.server.num_workers - len(self.server.WORKERS)
        for _ in range(min(missing, self.slots - self.booting())):
            self.server.spawn_worker()

    def close(self) -> None:
        global FOLDER
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.folder == FOLDER:
            FOLDER = None


def booted(log) -> None:
    """In a worker, once it has made the app: the master may start the next one."""
    if FOLDER is None:
        return
    try:
        (FOLDER / str(os.getpid())).touch()
        os.kill(os.getppid(), signal.SIGCHLD)
    except OSError as error:  # the master then starts the next within its 1 s loop
        log.warning("tablebank: this worker could not say it has booted (%s)", error)
