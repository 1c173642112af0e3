"""Many tables at once: 100 games with 6 live player pages each (600 open streams), and 20
banker actions a second for 60 seconds, against gunicorn with several workers on 127.0.0.1.

Each page behaves as static/app.js does in a browser: it holds a Server-Sent Events stream and,
on each "version N is out", fetches its live part again (`/p/<token>?fragment=1`, gzip). The
pages run in client processes of their own so that the clients' own work does not slow the
banker's measured calls (the machine's two cores are shared all the same).

Prints the banker's action latency (p50/p95/max), errors, lost actions (answered as done but
missing from the log afterwards), pages that had not caught up with their game's last version
two seconds after the last action, and the pages' refresh latency.

    python bench/load.py [--database-url URL] [--workers 4] [--threads 200] [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
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
CLIENT_PROCESSES = 2


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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[max(0, int(len(ordered) * share) - 1)], 1) if ordered else 0.0


class Page(threading.Thread):
    """One player's phone: an open stream, and its live part fetched again on each version."""

    def __init__(self, port: int, token: str, stop) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.stop = port, token, stop
        self.seen, self.shown, self.refreshes, self.failures = 0, 0, [], 0
        self.page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # keep-alive

    def fetch(self) -> int:
        self.page.request("GET", f"/p/{self.token}?fragment=1", headers={"Accept-Encoding": "gzip"})
        response = self.page.getresponse()
        response.read()
        return response.status

    def refresh(self, version: int) -> None:
        start = time.perf_counter()
        try:
            try:
                status = self.fetch()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.page.close()  # the server closed an idle keep-alive: a browser retries
                status = self.fetch()
        except (OSError, http.client.HTTPException):
            status = 0
            self.page.close()
        if status != 200:
            self.failures += 1
            return
        self.refreshes.append((time.perf_counter() - start) * 1000)
        self.shown = max(self.shown, version)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
                stream.request("GET", f"/p/{self.token}/live?v={self.seen}")
                response = stream.getresponse()
                while not self.stop.is_set():
                    line = response.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        version = int(line[6:])
                        if version > self.seen:
                            self.seen = version
                            self.refresh(version)
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.5)


def pages_process(port: int, tokens: list[tuple[str, str]], ready, stop, results) -> None:
    """A client process holding some of the pages; reports what each showed at the end."""
    pages = [(game_id, Page(port, token, stop)) for game_id, token in tokens]
    for _, page in pages:
        page.start()
    ready.set()
    stop.wait()
    results.put(
        [
            {"game": g, "shown": p.shown, "refreshes": p.refreshes, "failures": p.failures}
            for g, p in pages
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default="")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=200)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pages", type=int, default=6, help="live player pages per game")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--rate", type=int, default=20, help="banker actions a second")
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
        players = PLAYERS[: args.pages]
        games = []
        for _ in range(args.games):
            _, created = call(
                port,
                "POST",
                "/api/games",
                {"edition": "us-2008", "players": players, "starting_cash": 10**6},
            )
            games.append((created["id"], created["banker_key"]))
        found = tokens(db_url, [g for g, _ in games])
        everyone = [(g, t) for g, _ in games for t in found[g]]
        stop, results = multiprocessing.Event(), multiprocessing.Queue()
        clients = []
        for n in range(CLIENT_PROCESSES):
            ready = multiprocessing.Event()
            share = everyone[n::CLIENT_PROCESSES]
            client = multiprocessing.Process(
                target=pages_process, args=(port, share, ready, stop, results), daemon=True
            )
            client.start()
            ready.wait(60)
            clients.append(client)
        time.sleep(3)  # every stream open

        latencies, errors, done = [], [], {}
        lock = threading.Lock()

        def act(n: int) -> None:
            game_id, key = random.choice(games)
            body = {
                "kind": "transfer",
                "from": n % len(players),
                "to": (n + 1) % len(players),
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
        stop.set()
        shown = [page for _ in clients for page in results.get(timeout=60)]
        lost, versions = 0, {}
        for game_id, key in games:
            _, history = call(port, "GET", f"/api/games/{game_id}/actions", key=key)
            logged = {e["seq"] for e in history}
            lost += len(done.get(game_id, set()) - logged)
            versions[game_id] = max(logged, default=0)
        behind = sum(1 for page in shown if page["shown"] < versions[page["game"]])
        refreshes = [ms for page in shown for ms in page["refreshes"]]
        print(
            json.dumps(
                {
                    "database": db_url.split(":")[0],
                    "workers": args.workers,
                    "threads": args.threads,
                    "games": args.games,
                    "pages": len(shown),
                    "actions": len(latencies),
                    "p50_ms": round(statistics.median(latencies), 1),
                    "p95_ms": percentile(latencies, 0.95),
                    "max_ms": round(max(latencies), 1),
                    "errors": len(errors),
                    "lost": lost,
                    "pages_behind_at_end": behind,
                    "page_refreshes": len(refreshes),
                    "refresh_p50_ms": percentile(refreshes, 0.5),
                    "refresh_p95_ms": percentile(refreshes, 0.95),
                    "refresh_failures": sum(page["failures"] for page in shown),
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
