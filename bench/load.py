"""Many tables at once: 100 games, 6 live player pages each (600 open streams), and 20 banker
actions a second for 60 seconds, against gunicorn with several workers on 127.0.0.1.

Prints the action latency (p50/p95/max), errors, lost actions (answered as done but missing
from the log) and whether every page saw its game's last version.

    python bench/load.py [--database-url URL] [--workers 4] [--seconds 60] [--rate 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [{"name": n, "colour": "#336699"} for n in ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(port: int, method: str, path: str, body=None, key: str = ""):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "X-Banker-Key": key}
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, json.loads(data or b"{}")


class Page(threading.Thread):
    """One player's phone: an open stream, remembering the last version it was told of."""

    def __init__(self, port: int, token: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.stop, self.seen = port, token, stop, 0

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
                connection.request("GET", f"/p/{self.token}/live?v={self.seen}")
                response = connection.getresponse()
                while not self.stop.is_set():
                    line = response.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        self.seen = max(self.seen, int(line[6:]))
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default="")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=200)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--rate", type=int, default=20)
    args = parser.parse_args()
    db_url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'load.sqlite'}"
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "--workers", str(args.workers), "--worker-class", "gthread",
         "--threads", str(args.threads), "--preload", "--bind", f"127.0.0.1:{port}",
         "app:create_app()"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": db_url}, start_new_session=True,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(150):
            try:
                call(port, "GET", "/api/editions")
                break
            except OSError:
                time.sleep(0.2)
        games, stop, pages = [], threading.Event(), []
        for _ in range(args.games):
            _, created = call(
                port,
                "POST",
                "/api/games",
                {"edition": "us-2008", "players": PLAYERS, "starting_cash": 10**6},
            )
            games.append((created["id"], created["banker_key"]))
        app_tokens = tokens(db_url, [g for g, _ in games])
        for game_id, _ in games:
            for token in app_tokens[game_id]:
                page = Page(port, token, stop)
                page.start()
                pages.append((game_id, page))
        time.sleep(3)
        latencies, errors, done = [], [], {}
        lock = threading.Lock()

        def act(n: int) -> None:
            game_id, key = random.choice(games)
            body = {
                "kind": "transfer",
                "from": n % 6,
                "to": (n + 1) % 6,
                "amount": 1,
                "idempotency_key": f"load-{n}",
            }
            start = time.perf_counter()
            try:
                status, answer = call(port, "POST", f"/api/games/{game_id}/actions", body, key)
            except (OSError, http.client.HTTPException) as error:
                status, answer = 0, {"error": repr(error)}
            with lock:
                latencies.append((time.perf_counter() - start) * 1000)
                if status == 201:
                    done.setdefault(game_id, set()).add(answer["seq"])
                else:
                    errors.append((status, answer))

        with ThreadPoolExecutor(max_workers=64) as pool:
            begin, n = time.monotonic(), 0
            while time.monotonic() - begin < args.seconds:
                pool.submit(act, n)
                n += 1
                time.sleep(max(0.0, begin + n / args.rate - time.monotonic()))
        time.sleep(2)
        lost, behind = 0, 0
        versions = {}
        for game_id, key in games:
            _, history = call(port, "GET", f"/api/games/{game_id}/actions", key=key)
            logged = {e["seq"] for e in history}
            lost += len(done.get(game_id, set()) - logged)
            versions[game_id] = max(logged, default=0)
        behind = sum(1 for game_id, page in pages if page.seen < versions[game_id])
        stop.set()
        latencies.sort()
        print(
            json.dumps(
                {
                    "database": db_url.split(":")[0],
                    "workers": args.workers,
                    "threads": args.threads,
                    "games": args.games,
                    "pages": len(pages),
                    "actions": len(latencies),
                    "p50_ms": round(statistics.median(latencies), 1),
                    "p95_ms": round(latencies[int(len(latencies) * 0.95) - 1], 1),
                    "max_ms": round(latencies[-1], 1),
                    "errors": len(errors),
                    "lost": lost,
                    "pages_behind_at_end": behind,
                    "first_error": errors[:1],
                }
            )
        )
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # open streams would hold a graceful stop
        server.wait(timeout=30)


def tokens(db_url: str, game_ids: list[str]) -> dict[str, list[str]]:
    """The players' private links, read from the database as the banker's QR page shows them."""
    sys.path.insert(0, str(ROOT))
    from app import create_app
    from app.models import Game, db

    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url})
    with app.app_context():
        found = {g: [p.token for p in db.session.get(Game, g).players] for g in game_ids}
        db.session.remove()
        db.engine.dispose()
    return found


if __name__ == "__main__":
    main()
