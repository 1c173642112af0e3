"""Live pages after a restart, and revoked pages: what the streams' clients see.

1. Reconnect storm: --pages live pages (players' and table screens of --pages/7 games) hold
   their streams; the server is stopped and started again on the same port; each page then
   does what EventSource does: after its stream ends or fails it waits the last `retry:` it
   was told (1 s at first) and opens it again. Counted: the answers by status during the
   storm (any 5xx is a failure), the pages told to come back later, and the time until every
   page holds a stream again.
2. Revocation: --revocations times, a player's page holds its stream; the banker gives that
   player a new link (the codes page's button, a form post); timed: from sending the post
   to the end of the old link's stream (its `gone` event), with the stream in another worker
   process as often as not.

    .venv/bin/python -m bench.reconnect --server gunicorn --database postgres --workers 4
    .venv/bin/python -m bench.reconnect --server tablebank --database sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import sys
import time

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

NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay")
SETUP = {
    "edition": "us-classic",
    "players": [{"name": n, "colour": "#e03131"} for n in NAMES],
}


class Page:
    """One live page's EventSource, as the browser runs it."""

    def __init__(self, session, base: str, path: str, tally) -> None:
        self.session, self.url, self.tally = session, base + path, tally
        self.retry = 1.0
        self.holding = asyncio.Event()  # a stream is open now (its first bytes came)
        self.stopping = False

    async def run(self) -> None:
        while not self.stopping:
            try:
                async with self.session.get(self.url) as answer:
                    self.tally[answer.status] += 1
                    if answer.status != 200:
                        self.retry = 2.0  # static/app.js: a refused stream, again in 2 s
                    else:
                        await self.read(answer)
            except (aiohttp.ClientError, TimeoutError):
                self.tally["connection failed"] += 1
            self.holding.clear()
            await asyncio.sleep(self.retry)

    async def read(self, answer) -> None:
        async for line in answer.content:
            if line.startswith(b"retry: "):
                self.retry = int(line[7:]) / 1000
                if self.retry > 1:
                    self.tally["told to come back later"] += 1
                else:
                    self.holding.set()
            if self.stopping:
                return


def links(base: str, game_id: str, key: str) -> list[str]:
    phone = requests.Session()
    phone.get(f"{base}/g/{game_id}/?key={key}", timeout=60)
    codes = phone.get(f"{base}/g/{game_id}/codes", timeout=60).text
    players = list(dict.fromkeys(re.findall(r"/p/([A-Za-z0-9_-]{20,})", codes)))
    table = re.search(r"/t/([A-Za-z0-9_-]{20,})", codes).group(1)
    return [f"/p/{t}/live" for t in players] + [f"/t/{table}/live"]


async def storm(server: Server, paths: list[str], timeout: float, addresses: int) -> dict:
    """The pages come from `addresses` loopback addresses (127.0.0.10 and up), under the
    server's cap on connections per client, as phones on many networks would."""
    tally: collections.Counter = collections.Counter()
    timeouts = aiohttp.ClientTimeout(total=None, sock_connect=10)
    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{10 + n}", 0)),
            timeout=timeouts,
        )
        for n in range(addresses)
    ]
    try:
        pages = [
            Page(sessions[n % addresses], server.url, path, tally) for n, path in enumerate(paths)
        ]
        tasks = [asyncio.ensure_future(page.run()) for page in pages]
        opened = await all_holding(pages, timeout)
        before = dict(tally)
        tally.clear()
        server.stop()
        await asyncio.sleep(0.5)
        restarted = time.perf_counter()
        # The pages hammer the server while it boots, as they would: give it time.
        await asyncio.get_running_loop().run_in_executor(None, server.start, timeout)
        boot = time.perf_counter() - restarted
        back = await all_holding(pages, timeout)
        took = time.perf_counter() - restarted
        for page in pages:
            page.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for session in sessions:
            await session.close()
    statuses = {str(k): v for k, v in tally.items()}
    failures = sum(v for k, v in tally.items() if isinstance(k, int) and k >= 500)
    return {
        "pages": len(paths),
        "all_open_at_first": opened,
        "at_first": {str(k): v for k, v in before.items()},
        "boot_s": round(boot, 1),
        "all_back": back,
        "back_after_s": round(took, 1),
        "answers_after_restart": statuses,
        "5xx": failures,
    }


async def all_holding(pages: list[Page], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(page.holding.is_set() for page in pages):
            return True
        await asyncio.sleep(0.1)
    return False


def revocations(base: str, count: int) -> list[float]:
    """Milliseconds from the new link's post to the end of the old link's stream."""
    took = []
    made = requests.post(f"{base}/api/games", json=SETUP, timeout=60).json()
    game_id, key = made["id"], made["banker_key"]
    phone = requests.Session()
    phone.get(f"{base}/g/{game_id}/?key={key}", timeout=60)
    for _ in range(count):
        codes = phone.get(f"{base}/g/{game_id}/codes", timeout=60).text
        token = re.findall(r"/p/([A-Za-z0-9_-]{20,})", codes)[0]
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', codes).group(1)
        with requests.get(f"{base}/p/{token}/live?v=0", stream=True, timeout=60) as stream:
            lines = stream.iter_lines()
            next(lines)  # retry: the stream is open
            time.sleep(0.2)  # and following the game
            tapped = time.perf_counter()
            phone.post(
                f"{base}/g/{game_id}/codes/0/new",
                data={"csrf_token": csrf},
                allow_redirects=False,
                timeout=60,
            )
            for line in lines:
                if line == b"event: gone":
                    break
            for _ in lines:  # to its end
                pass
            took.append((time.perf_counter() - tapped) * 1000)
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="gunicorn", choices=["tablebank", "gunicorn"])
    parser.add_argument("--database", default="postgres", choices=["sqlite", "postgres"])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--revocations", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.pages, args.revocations, args.workers, args.timeout = 14, 2, 2, 60
    print(f"{machine()}; open files: {raise_file_limit()}")
    with fresh_database(args.database) as url:
        port = free_port()
        command = server_command(args.server, port, workers=args.workers)
        with Server(command, url, port) as server:
            base = server.url
            paths: list[str] = []
            while len(paths) < args.pages:
                made = requests.post(f"{base}/api/games", json=SETUP, timeout=60).json()
                paths += links(base, made["id"], made["banker_key"])
            paths = paths[: args.pages]
            stormed = asyncio.run(storm(server, paths, args.timeout, args.addresses))
            revoked = revocations(base, args.revocations)
            logs = server.log_counts()
    print(f"{args.server}, {args.database}, {args.workers} workers")
    print(f"reconnect storm: {stormed}")
    print(f"revoked stream ends after (ms): {summary(revoked)}")
    print(f"server log: {logs}")
    print_json(
        "reconnect",
        {
            "server": args.server,
            "database": args.database,
            "storm": stormed,
            "revoked_ms": summary(revoked),
            "log": logs,
        },
    )
    return 0 if stormed["all_back"] and not stormed["5xx"] else 1


if __name__ == "__main__":
    sys.exit(main())
