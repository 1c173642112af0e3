"""Idle and slow clients held against a real server, and what a banker feels meanwhile.

The attack (asyncio, one process): --idle connections that send nothing, and --slow ones
that send their head a byte a second (half of them) or a banker action's body 5 bytes a
second (the other half, with the banker's key: the worst case, past the banker check).
Each connection the server closes is opened again at once, so the count is held for the
whole attack. They come from --addresses loopback addresses (127.0.0.10 and up), under the
server's cap on connections per client; one more phase sends --one-client connections from
a single address, which the cap must turn away.

The banker (a thread, its own address 127.0.0.1) pays on 3 games every 50 ms: alone, then
during the attack, then alone again (the floor, measured in the same run before and after).
Printed: the banker's n, p50, p95, max and failures in each phase, the attack's
connections held and reopened, and the server's memory.

    .venv/bin/python -m bench.slow_clients --server tablebank --database sqlite
    .venv/bin/python -m bench.slow_clients --server gunicorn --database postgres --workers 4
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import sys
import threading
import time

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
    table,
)

SETUP = {
    "edition": "us-classic",
    "players": [{"name": n, "colour": "#e03131"} for n in ("Ana", "Bea", "Cal")],
    "starting_cash": 1_000_000,
}


def banker(base: str, games: list, stop: threading.Event, times: list, failed: list) -> None:
    session = requests.Session()
    n = 0
    while not stop.is_set():
        game_id, key = games[n % len(games)]
        started = time.perf_counter()
        try:
            answer = session.post(
                f"{base}/api/games/{game_id}/actions",
                json={"kind": "bank_pay", "player": n % 3, "amount": 1},
                headers={"X-Banker-Key": key},
                timeout=30,
            )
            if answer.status_code != 201:
                failed.append(f"{answer.status_code} {answer.text[:100]}")
        except requests.RequestException as error:
            failed.append(type(error).__name__)
        times.append((time.perf_counter() - started) * 1000)
        n += 1
        time.sleep(0.05)


def phase(base: str, games: list, seconds: float) -> dict:
    stop, times, failed = threading.Event(), [], []
    thread = threading.Thread(target=banker, args=(base, games, stop, times, failed))
    thread.start()
    time.sleep(seconds)
    stop.set()
    thread.join()
    return {**summary(times), "failed": len(failed), "failures": failed[:5]}


class Attack:
    """Connections held open against the server, each reopened as soon as it is closed."""

    def __init__(self, port: int, game: tuple[str, str]) -> None:
        self.port, self.game = port, game
        self.open = collections.Counter()  # kind -> connections open now
        self.opened = collections.Counter()  # kind -> connections opened in all
        self.refused = collections.Counter()  # kind -> 429 at once (the cap)
        self.stopping = False

    async def hold(self, kind: str, source: str) -> None:
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.5)
                continue
            self.opened[kind] += 1
            self.open[kind] += 1
            try:
                await getattr(self, kind)(reader, writer)
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                self.open[kind] -= 1
                writer.close()
            await asyncio.sleep(0.05)

    async def idle(self, reader, writer) -> None:
        answer = await reader.read(200)  # nothing is sent; wait for the server to close
        if b" 429 " in answer:
            self.refused["idle"] += 1

    async def slow_head(self, reader, writer) -> None:
        writer.write(b"GET /api/editions HTTP/1.1\r\nHost: x\r\n")
        closed = asyncio.ensure_future(reader.read(200))
        while not closed.done() and not self.stopping:
            writer.write(b"X")
            await writer.drain()
            await asyncio.wait([closed], timeout=1)
        closed.cancel()

    async def slow_body(self, reader, writer) -> None:
        game_id, key = self.game
        writer.write(
            f"POST /api/games/{game_id}/actions HTTP/1.1\r\nHost: x\r\nX-Banker-Key: {key}\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode()
        )
        closed = asyncio.ensure_future(reader.read(200))
        while not closed.done() and not self.stopping:
            writer.write(b"     ")
            await writer.drain()
            await asyncio.wait([closed], timeout=1)
        closed.cancel()

    def held(self) -> dict:
        return dict(self.open)


async def attack(args, port: int, game, run_phase) -> tuple[dict, dict, dict]:
    """Hold the connections, run `run_phase` (blocking) in a thread, and report."""
    assault = Attack(port, game)
    sources = [f"127.0.0.{10 + n}" for n in range(args.addresses)]
    kinds = ["idle"] * args.idle + ["slow_head"] * (args.slow // 2)
    kinds += ["slow_body"] * (args.slow - args.slow // 2)
    tasks = [
        asyncio.ensure_future(assault.hold(kind, sources[n % len(sources)]))
        for n, kind in enumerate(kinds)
    ]
    await asyncio.sleep(args.ramp)  # the connections open and settle
    held_at_start = assault.held()
    banker_figures = await asyncio.get_running_loop().run_in_executor(None, run_phase)
    held_at_end = assault.held()
    assault.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return (
        banker_figures,
        {"at_start": held_at_start, "at_end": held_at_end},
        {
            "opened": dict(assault.opened),
            "refused_429": dict(assault.refused),
        },
    )


async def one_client(port: int, count: int) -> dict:
    """`count` idle connections from one address at once: how many the server turned away
    (a 429 in words, then closed) within two seconds, before any idle time limit."""
    held: list = []
    for _ in range(count):
        try:
            held.append(
                await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.9", 0))
            )
        except OSError:
            continue
    await asyncio.sleep(2)
    refused = 0
    for reader, _writer in held:
        with contextlib.suppress(TimeoutError):
            refused += b" 429 " in await asyncio.wait_for(reader.read(200), 0.001)
    for _reader, writer in held:
        writer.close()
    return {"tried": count, "opened": len(held), "refused_429": refused}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="tablebank", choices=["tablebank", "gunicorn"])
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--idle", type=int, default=3000)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--addresses", type=int, default=30)
    parser.add_argument("--one-client", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--ramp", type=float, default=5)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.idle, args.slow, args.one_client, args.seconds, args.ramp = 50, 10, 50, 3, 1
    print(f"{machine()}; open files: {raise_file_limit()}")
    with fresh_database(args.database) as url:
        port = free_port()
        command = server_command(args.server, port, workers=args.workers)
        with Server(command, url, port) as server:
            base = server.url
            games = []
            for _ in range(3):
                made = requests.post(f"{base}/api/games", json=SETUP, timeout=30).json()
                games.append((made["id"], made["banker_key"]))
            before = phase(base, games, args.seconds)
            memory_before = server.usage()["rss_mib"]

            def attacked():
                figures = phase(base, games, args.seconds)
                figures["rss_mib"] = server.usage()["rss_mib"]
                return figures

            during, held, churn = asyncio.run(attack(args, port, games[0], attacked))
            after = phase(base, games, args.seconds)
            capped = asyncio.run(one_client(port, args.one_client))
            logs = server.log_counts()
    rows = [
        [name, f["n"], f["p50"], f["p95"], f["max"], f["failed"]]
        for name, f in (("alone, before", before), ("attacked", during), ("alone, after", after))
    ]
    print(f"{args.server}, {args.database}: {args.idle} idle + {args.slow} slow connections "
          f"from {args.addresses} addresses")  # fmt: skip
    print(table(["banker", "n", "p50 ms", "p95 ms", "max ms", "failed"], rows))
    print(f"connections held at the attack's start / end: {held}")
    print(f"connections opened during the attack: {churn}")
    print(f"server memory: {memory_before} MiB alone, {during['rss_mib']} MiB attacked")
    print(f"one address, {args.one_client} connections at once: {capped}")
    print(f"server log: {logs}")
    print_json(
        "slow_clients",
        {
            "server": args.server,
            "database": args.database,
            "before": before,
            "during": during,
            "after": after,
            "held": held,
            "churn": churn,
            "one_client": capped,
            "log": logs,
        },
    )
    return 1 if during["failed"] or before["failed"] or after["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
