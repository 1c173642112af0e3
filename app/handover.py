"""A reload without a gap (SIGHUP, `systemctl reload`): the old workers serve until the new
ones have made the app.

gunicorn alone stops the old workers as soon as it has forked the new ones, and nothing
answers while those import and make the app: seconds, 15 s measured on a loaded 2-core server
with 4 workers, every page, tap and live page waiting meanwhile. Here the master lets an old
worker go for each new worker that is ready (it has made the app: `ready`, called by gunicorn's
`post_worker_init`, leaves a file named by its pid in the reload's own folder), the oldest
first. A new worker that dies before it is ready is replaced as ever, an old one kept instead.
Old workers are kept at most HANDOVER_SECONDS; after that, or without a folder to say ready
in, the reload is gunicorn's own.

Used by gunicorn's master (app/gunicorn_conf.py): nothing here loads Flask.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

HANDOVER_SECONDS = 120  # far beyond a worker's boot; a new worker not ready by then is stuck
READY: Path | None = None  # the reload's folder, as the workers forked for it see it


class Handover:
    """Installed once in the master (`on_starting`); `begin` at each reload."""

    def __init__(self, server) -> None:
        self.server = server
        self.old: set[int] = set()  # pids of the workers serving when the reload began
        self.until = 0.0
        self.manage = server.manage_workers
        server.manage_workers = self.manage_workers  # gunicorn's loop and reload call it

    def begin(self) -> None:
        """Before the reload forks its workers: those serving now are the old ones."""
        global READY
        self.end()
        cfg = self.server.cfg
        try:
            READY = Path(tempfile.mkdtemp(prefix="tablebank-reload-", dir=cfg.worker_tmp_dir))
            if cfg.uid != os.geteuid() or cfg.gid != os.getegid():
                os.chown(READY, cfg.uid, cfg.gid)  # the workers' user writes in it
        except OSError as error:
            self.server.log.warning("tablebank: the old workers stop at once (%s)", error)
            self.end()
            return
        self.old = set(self.server.WORKERS)
        self.until = time.monotonic() + HANDOVER_SECONDS

    def end(self) -> None:
        global READY
        if READY is not None:
            shutil.rmtree(READY, ignore_errors=True)
        READY, self.old = None, set()

    def kept(self) -> int:
        """How many old workers go on serving: one for each new worker not ready yet."""
        self.old &= set(self.server.WORKERS)  # those that are gone (killed, crashed)
        if not self.old or READY is None or time.monotonic() > self.until:
            self.end()
            return 0
        new = [pid for pid in self.server.WORKERS if pid not in self.old]
        ready = sum((READY / str(pid)).exists() for pid in new)
        return max(0, min(len(self.old), self.server.num_workers - ready))

    def manage_workers(self) -> None:
        """gunicorn's own, with room for the old workers kept: it kills the oldest workers
        above the number it is given, and spawns new ones below it."""
        kept = self.kept()
        if not kept:
            self.manage()
            return
        wanted = self.server.num_workers
        self.server.num_workers = wanted + kept
        try:
            self.manage()
        finally:
            self.server.num_workers = wanted


def ready(log) -> None:
    """In a worker forked for a reload, once it has made the app: it can take over."""
    if READY is None:
        return
    try:
        (READY / str(os.getpid())).touch()
    except OSError as error:  # the old workers then go after HANDOVER_SECONDS
        log.warning("tablebank: this worker could not say it is ready (%s)", error)
