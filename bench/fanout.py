"""Fan-out: the server's CPU per action with 7 open pages of the game (6 players' phones and the
table screen) against the same action with none open.

Method. For each setup (server:database), one server on a fresh database and two games of six
players: game "none" has no page open; game "pages" has its 6 players' pages and its table
screen open (asyncio clients that load each page and hold its live stream, reading each live
part as static/app.js does). Each round runs a batch of --actions banker actions (the JSON
API: the bank pays a player $10) on each game, the two batches in a shuffled order, paced at
one action every --pace seconds in both (so the server's idle work, its watcher's ticks,
weighs the same in each). In the "pages" batch, each action waits until all 7 pages show its
version (a page that does not within 5 s is counted as missed). The server's CPU (user +
system, every process of it: gunicorn's master and workers, from /proc) is read before and
after each batch: CPU per action = its difference / actions. Reported: the p50 and mean over
the rounds for each game, and the extra CPU per action the 7 pages cost (the difference of
the means), with the target beside it (<= 5 ms). The floor here is the game with no page.

    python -m bench.fanout                         # both setups, 8 rounds of 40 actions
    python -m bench.fanout --setups tablebank:sqlite --rounds 4
    python -m bench.fanout --smoke
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time

from . import clients, common

WAIT = 5.0  # seconds a page may take to show an action before it is counted as missed
TARGET_MS = 5.0


async def batch(server, api, game, pages, actions: int, pace: float) -> tuple[float, int]:
    """CPU seconds the server used for `actions` actions on `game`, and updates missed."""
    loop = asyncio.get_running_loop()
    before = await loop.run_in_executor(None, server.usage)
    missed = 0
    for n in range(actions):
        began = loop.time()
        body = {"kind": "bank_pay", "player": n % 6, "amount": 10}
        async with api.post(
            f"{server.url}/api/games/{game.id}/actions",
            json=body,
            headers={"X-Banker-Key": game.key},
        ) as answer:
            if answer.status != 201:
                raise common.BenchError(f"an action answered {answer.status}")
            version = (await answer.json())["game"]["version"]
        if pages:
            until = loop.time() + WAIT
            while any(page.version < version for page in pages) and loop.time() < until:
                await asyncio.sleep(0.002)
            missed += sum(page.version < version for page in pages)
        await asyncio.sleep(max(0.0, began + pace - loop.time()))
    after = await loop.run_in_executor(None, server.usage)
    return after["cpu_s"] - before["cpu_s"], missed


async def measure(server, args) -> dict:
    caller = common.Http(server.url)
    games = {"none": common.Game(caller), "pages": common.Game(caller)}
    tally = clients.Tally()
    async with clients.aiohttp.ClientSession(connector=clients.connector()) as session:
        game = games["pages"]
        pages = [
            clients.LivePage(session, server.url, f"/p/{token}", game.id, seat, tally)
            for seat, token in enumerate(game.player_tokens)
        ]
        pages.append(
            clients.LivePage(session, server.url, f"/t/{game.table_token}", game.id, None, tally)
        )
        await clients.open_pages(pages, rate=50, timeout=30)
        if not all(page.opened.is_set() for page in pages):
            raise common.BenchError("not every page's stream opened")
        rng = random.Random(args.seed)
        per_action: dict[str, list[float]] = {"none": [], "pages": []}
        missed = 0
        await batch(server, session, games["none"], [], 3, args.pace)  # warm up, not counted
        await batch(server, session, game, pages, 3, args.pace)
        for _ in range(args.rounds):
            order = ["none", "pages"]
            rng.shuffle(order)
            for name in order:
                shown = pages if name == "pages" else []
                cpu, lost = await batch(
                    server, session, games[name], shown, args.actions, args.pace
                )
                per_action[name].append(cpu / args.actions * 1000)
                missed += lost
        for page in pages:
            page.task.cancel()
    none, seven = per_action["none"], per_action["pages"]
    extra = statistics.mean(seven) - statistics.mean(none)
    return {
        "rounds": args.rounds,
        "actions_per_batch": args.actions,
        "cpu_ms_per_action_no_page": summary(none),
        "cpu_ms_per_action_7_pages": summary(seven),
        "extra_cpu_ms_for_7_pages": round(extra, 2),
        "target_ms": TARGET_MS,
        "met": extra <= TARGET_MS and missed == 0,
        "updates_missed": missed,
        "stream_errors": len(tally.stream_errors),
    }


def summary(values: list[float]) -> dict:
    return {
        "p50": round(statistics.median(values), 2),
        "mean": round(statistics.mean(values), 2),
        "min": round(min(values), 2),
        "max": round(max(values), 2),
    }


def report(kind: str, database: str, result: dict) -> None:
    none, seven = result["cpu_ms_per_action_no_page"], result["cpu_ms_per_action_7_pages"]
    print(f"\n## fan-out: {kind}, {database}")
    print(
        common.table(
            ["game", "CPU/action p50", "mean", "min", "max"],
            [
                ["no page open", none["p50"], none["mean"], none["min"], none["max"]],
                ["7 pages open", seven["p50"], seven["mean"], seven["min"], seven["max"]],
            ],
        )
    )
    print(
        f"extra CPU per action for 7 pages: {result['extra_cpu_ms_for_7_pages']} ms "
        f"(target <= {TARGET_MS} ms, every page updated: missed {result['updates_missed']}) "
        f"-> {'met' if result['met'] else 'NOT met'}"
    )


def add_run_options(parser, rounds: int) -> None:
    """How many batches, of how many actions, how far apart (`measure` reads them)."""
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--actions", type=int, default=40, help="actions per batch")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between two actions")
    parser.add_argument("--seed", type=int, default=3)


def smoke(args) -> None:
    """A run of seconds: does it still run at all?"""
    args.rounds, args.actions, args.pace = 1, 5, 0.05


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    add_run_options(parser, rounds=8)
    args = parser.parse_args()
    if args.smoke:
        smoke(args)
    print(f"fanout: {common.machine()}")
    results = []
    for kind, database in common.setups(args):
        with common.running(args, kind, database) as server:
            began = time.monotonic()
            result = asyncio.run(measure(server, args))
            result.update(server=kind, database=database, seconds=round(time.monotonic() - began))
            result["server_log"] = server.log_counts()
        report(kind, database, result)
        results.append(result)
    for result in results:
        common.print_json("fanout", result)
    bad = [
        r
        for r in results
        if r["updates_missed"] or r["stream_errors"] or any(r["server_log"].values())
    ]
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"fanout: {error}", file=sys.stderr)
        sys.exit(1)
