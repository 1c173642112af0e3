"""Live updates: each process watches the versions of the games its pages follow.

A banker's action bumps a game's version in the database. One watcher thread per process
reads the versions of the games that open streams follow (a single indexed query every
POLL seconds) and wakes those streams; so the news crosses worker processes through the
database itself, never through memory alone. In the process that did the action, `bump`
wakes its own streams at once. Only games with a stream open in this process are kept in
memory.
"""

from __future__ import annotations

import threading
import time

from flask import Flask
from sqlalchemy import select

from .models import Game, db

POLL = 0.08  # seconds between two reads of the watched versions
_making = threading.Lock()


class Watcher:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.versions: dict[str, int] = {}
        self.watching: dict[str, int] = {}  # game id -> number of open streams
        self.changed = threading.Condition()
        self.thread: threading.Thread | None = None
        self.stopped = threading.Event()

    def bump(self, game_id: str, version: int) -> None:
        with self.changed:
            if game_id in self.watching and version > self.versions.get(game_id, -1):
                self.versions[game_id] = version
                self.changed.notify_all()

    def wait(self, game_id: str, seen: int, timeout: float) -> int:
        """Block until the game is past version `seen` or the timeout; the version then."""
        self._start()
        deadline = time.monotonic() + timeout
        with self.changed:
            self.watching[game_id] = self.watching.get(game_id, 0) + 1
            try:
                while self.versions.get(game_id, -1) <= seen and not self.stopped.is_set():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self.changed.wait(left)
                return self.versions.get(game_id, -1)
            finally:
                self.watching[game_id] -= 1
                if not self.watching[game_id]:  # nobody here follows it: forget it
                    del self.watching[game_id]
                    self.versions.pop(game_id, None)

    def _start(self) -> None:
        with self.changed:
            if not self.stopped.is_set() and (self.thread is None or not self.thread.is_alive()):
                self.thread = threading.Thread(target=self._run, name="live-watcher", daemon=True)
                self.thread.start()

    def stop(self) -> None:
        """End the watcher thread (a server shutting down); waiting streams wake at once."""
        self.stopped.set()
        with self.changed:
            self.changed.notify_all()
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _run(self) -> None:
        while not self.stopped.is_set():
            with self.changed:
                ids = list(self.watching)
            if ids:
                try:
                    self._read(ids)
                except Exception:  # noqa: BLE001  a database hiccup must not kill the watcher
                    self.app.logger.exception("live watcher could not read versions")
            time.sleep(POLL)

    def _read(self, ids: list[str]) -> None:
        with self.app.app_context():
            rows = db.session.execute(select(Game.id, Game.version).where(Game.id.in_(ids)))
            found = dict(rows.all())
            db.session.remove()
        for game_id, version in found.items():
            self.bump(game_id, version)


def watcher(app: Flask) -> Watcher:
    """This process's watcher for the app (given as itself or as `current_app`)."""
    # The thread needs the app itself: a `current_app` proxy means nothing outside a request.
    app = app._get_current_object() if hasattr(app, "_get_current_object") else app
    with _making:  # two first requests at once must not make two watchers
        if "tablebank.watcher" not in app.extensions:
            app.extensions["tablebank.watcher"] = Watcher(app)
        return app.extensions["tablebank.watcher"]
