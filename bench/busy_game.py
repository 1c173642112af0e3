"""Many writers on one game at once: are they all answered, none twice, none as a 503?

--writers clients (spread over --addresses loopback addresses, under the server's cap on
connections per client) send --requests banker actions in all to one game, as fast as they
are answered, each with its own idempotency key; a request that fails for want of an answer
is sent again with the same key. Meanwhile a banker acts on another game every 50 ms.
Printed: the answers by status, the latency p50/p95/max of the writers and of the other
game's banker, and the log read back: every 201 appears exactly once, and nothing else.

    .venv/bin/python -m bench.busy_game --server gunicorn --database postgres --workers 4
    .venv/bin/python -m bench.busy_game --server tablebank --database sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import threading
import time
import uuid
from pathlib import Path

import aiohttp
import requests

from .common import (
    Server,
    free_port,
    fresh_database,
    machine,
    print_json,
    raise_file_limit,
    server_command,
    summary,
)

SAMPLES: list[str] = []  # the first few 5xx answers, as they were
SETUP = {
    "edition": "us-classic",
    "players": [{"name": n, "colour": "#e03131"} for n in ("Ana", "Bea", "Cal")],
    "starting_cash": 1_000_000,
}


async def writers(base: str, game: tuple[str, str], args) -> tuple[collections.Counter, list, set]:
    game_id, key = game
    url = f"{base}/api/games/{game_id}/actions"
    statuses: collections.Counter = collections.Counter()
    times: list[float] = []
    done_keys: set[str] = set()
    samples = SAMPLES
    queue: asyncio.Queue = asyncio.Queue()
    for n in range(args.requests):
        queue.put_nowait(n)
    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{10 + a}", 0)),
            timeout=aiohttp.ClientTimeout(total=120),
        )
        for a in range(args.addresses)
    ]

    async def writer(number: int) -> None:
        session = sessions[number % len(sessions)]
        while not queue.empty():
            n = queue.get_nowait()
            body = {
                "kind": "bank_pay",
                "player": n % 3,
                "amount": 1,
                "idempotency_key": f"busy-{n}-{uuid.uuid4().hex[:8]}",
            }
            for _attempt in range(5):
                started = time.perf_counter()
                try:
                    async with session.post(url, json=body, headers={"X-Banker-Key": key}) as r:
                        await r.read()
                        status = r.status
                except (aiohttp.ClientError, TimeoutError):
                    statuses["no answer (sent again)"] += 1
                    continue
                times.append((time.perf_counter() - started) * 1000)
                statuses[status] += 1
                if status >= 500 and len(samples) < 3:
                    samples.append(f"{status} {(await r.text())[:160]}")
                if status in (200, 201):  # done now, or done before (a repeat)
                    done_keys.add(body["idempotency_key"])
                break

    try:
        await asyncio.gather(*(writer(n) for n in range(args.writers)))
    finally:
        for session in sessions:
            await session.close()
    return statuses, times, done_keys


def other_banker(base: str, game, stop: threading.Event, times: list, failed: list) -> None:
    session = requests.Session()
    game_id, key = game
    while not stop.is_set():
        started = time.perf_counter()
        answer = session.post(
            f"{base}/api/games/{game_id}/actions",
            json={"kind": "bank_pay", "player": 0, "amount": 1},
            headers={"X-Banker-Key": key},
            timeout=60,
        )
        times.append((time.perf_counter() - started) * 1000)
        if answer.status_code != 201:
            failed.append(answer.status_code)
        time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="gunicorn", choices=["tablebank", "gunicorn"])
    parser.add_argument("--database", default="postgres", choices=["sqlite", "postgres"])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--writers", type=int, default=300)
    parser.add_argument("--requests", type=int, default=700)
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--keep-log", help="write the server's output to this file")
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.writers, args.requests, args.workers = 10, 20, 2
    print(f"{machine()}; open files: {raise_file_limit()}")
    with fresh_database(args.database) as url:
        port = free_port()
        command = server_command(args.server, port, workers=args.workers)
        with Server(command, url, port) as server:
            base = server.url
            games = []
            for _ in range(2):
                made = requests.post(f"{base}/api/games", json=SETUP, timeout=30).json()
                games.append((made["id"], made["banker_key"]))
            alone = []  # the floor: one writer alone on the game, in the same run
            for n in range(30):
                started = time.perf_counter()
                requests.post(
                    f"{base}/api/games/{games[0][0]}/actions",
                    json={"kind": "bank_pay", "player": n % 3, "amount": 1},
                    headers={"X-Banker-Key": games[0][1]},
                    timeout=60,
                ).raise_for_status()
                alone.append((time.perf_counter() - started) * 1000)
            stop, others, other_failures = threading.Event(), [], []
            beside = threading.Thread(
                target=other_banker, args=(base, games[1], stop, others, other_failures)
            )
            beside.start()
            started = time.perf_counter()
            statuses, times, done = asyncio.run(writers(base, games[0], args))
            took = time.perf_counter() - started
            stop.set()
            beside.join()
            state = requests.get(
                f"{base}/api/games/{games[0][0]}",
                headers={"X-Banker-Key": games[0][1]},
                timeout=60,
            ).json()
            logs = server.log_counts()
            if args.keep_log:
                Path(args.keep_log).write_text(server.log_text())
    other_failed = len(other_failures)
    answered_201 = statuses.get(201, 0)
    paid = sum(p["cash"] for p in state["players"]) - 3 * 1_000_000
    print(f"{args.server}, {args.database}: {args.writers} writers, {args.requests} requests")
    print(f"answers: {dict(statuses)} in {took:.1f} s")
    print(f"one writer alone, before (ms): {summary(alone)}")
    print(f"writers' latency (ms): {summary(times)}")
    print(
        f"{args.requests} actions in {took:.1f} s: {took * 1000 / args.requests:.1f} ms each, "
        f"{took * 1000 / args.requests / summary(alone)['p50']:.2f}x one alone (p50)"
    )
    print(f"the other game's banker (ms): {summary(others)}")
    print(f"other game's banker failures: {other_failed}")
    print(
        f"exactly once: {len(done)} keys answered done, game version {state['version']} "
        f"(30 alone before), {paid} paid out of the bank"
    )
    print(f"server log: {logs}")
    if SAMPLES:
        print("5xx answers, the first:", *SAMPLES, sep="\n  ")
    exact = len(done) == state["version"] - 30 == paid - 30  # each done once, nothing else
    every = len(done) == args.requests
    print_json(
        "busy_game",
        {
            "server": args.server,
            "database": args.database,
            "writers": args.writers,
            "requests": args.requests,
            "statuses": {str(k): v for k, v in statuses.items()},
            "seconds": round(took, 1),
            "latency": summary(times),
            "alone": summary(alone),
            "other_game": summary(others),
            "other_failed": other_failed,
            "exactly_once": exact,
            "all_done": every,
            "answered_201": answered_201,
            "answered_done": len(done),
            "log": logs,
        },
    )
    return 0 if exact and every and statuses.get(503, 0) == 0 and not other_failed else 1


if __name__ == "__main__":
    sys.exit(main())
