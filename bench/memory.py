"""Memory per open page: the server's resident memory (every process of it) with --games
games' pages open (6 players' phones and the table screen each), against the same server
with its first games' pages open, each page having been sent a live part at least once.

Method. For each setup (server:database): a fresh database and --games games of six players.
First the 7 pages of one game per process that serves pages (one for the command, one per
gunicorn worker) are opened and one action done on each game (what a process's first pages
cost once: the code paths, templates, the watcher; with one game only, a gunicorn worker that
got none of its pages paid that in the "after"), then the RSS is read (/proc, summed over the
server's processes: gunicorn's master and workers), the "before". Then every other game's 7
pages are opened (asyncio clients that load the page and hold its stream, as static/app.js
does), one banker action is done on each game, and once every page shows its game's new
version (or --timeout) the RSS is read again, twice a second apart, the larger kept: the
"after". Memory per open page = (after - before) / pages opened; target <= 20 kB. How much each
process grew is printed beside it.

    python -m bench.memory                          # both setups, 100 games (700 pages)
    python -m bench.memory --smoke
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path

from tablebank.stream_homes import Homes

from . import clients, common

TARGET_KB = 20


def rss_kib(server: common.Server) -> float:
    return server.usage()["rss_mib"] * 1024


def rss_each(server: common.Server) -> dict[int, int]:
    """Each process's RSS in kB (gunicorn: the master and each worker)."""
    found = {}
    for pid in server.pids():
        with contextlib.suppress(OSError, StopIteration):
            status = Path(f"/proc/{pid}/status").read_text()
            line = next(v for v in status.splitlines() if v.startswith("VmRSS"))
            found[pid] = int(line.split()[1])
    return found


def warming_games(server: common.Server, games: list) -> list:
    """Games whose pages open before the "before": one per process that serves pages (one for
    the command; one per gunicorn worker, its master serving none), so that each process's
    first page (its code paths, templates, watcher) is not counted as a page's cost. Under
    gunicorn a game's pages all go to its home worker (app/stream_homes.py): one game of
    each home."""
    slots = Homes("", max(1, server.usage()["processes"] - 1))
    homes: dict[int, object] = {}
    for game in games[:-1]:
        homes.setdefault(slots.home_of(game.id), game)
    return list(homes.values())


async def open_game(session, server, game, tally) -> list:
    pages = [
        clients.LivePage(session, server.url, f"/p/{token}", game.id, seat, tally)
        for seat, token in enumerate(game.player_tokens)
    ]
    pages.append(
        clients.LivePage(session, server.url, f"/t/{game.table_token}", game.id, None, tally)
    )
    return pages


async def act_and_wait(server, session, games, pages, timeout: float) -> int:
    """One action on each game; then until every page shows it. Pages left behind."""
    versions = {}
    for game in games:
        async with session.post(
            f"{server.url}/api/games/{game.id}/actions",
            json={"kind": "bank_pay", "player": 0, "amount": 1},
            headers={"X-Banker-Key": game.key},
        ) as answer:
            versions[game.id] = (await answer.json())["game"]["version"]
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        behind = [p for p in pages if p.version < versions.get(p.game, -1)]
        if not behind:
            return 0
        await asyncio.sleep(0.1)
    return len(behind)


async def measure(server, args) -> dict:
    caller = common.Http(server.url)
    games = [common.Game(caller) for _ in range(args.games)]
    tally = clients.Tally()
    async with clients.aiohttp.ClientSession(connector=clients.connector()) as session:
        warm = warming_games(server, games)
        measured = [game for game in games if game not in warm]
        first = []
        for game in warm:
            first += await open_game(session, server, game, tally)
        await clients.open_pages(first, rate=50, timeout=30)
        await act_and_wait(server, session, warm, first, args.timeout)
        await asyncio.sleep(1)
        before, each_before = rss_kib(server), rss_each(server)
        rest = []
        for game in measured:
            rest += await open_game(session, server, game, tally)
        await clients.open_pages(rest, rate=args.open_rate, timeout=args.timeout)
        opened = sum(page.opened.is_set() for page in rest)
        behind = await act_and_wait(server, session, measured, rest, args.timeout)
        after, each_after = [], {}
        for _ in range(2):
            await asyncio.sleep(1)
            after.append(rss_kib(server))
            each_after = max(each_after, rss_each(server), key=lambda e: sum(e.values()))
        for page in first + rest:
            page.task.cancel()
    per_page = (max(after) - before) / max(opened, 1)
    grown = [round((kib - each_before.get(pid, 0)) / 1024, 1) for pid, kib in each_after.items()]
    return {
        "warming_games": len(warm),
        "grown_mib_per_process": sorted(grown, reverse=True),
        "pages": opened,
        "rss_before_mib": round(before / 1024, 1),
        "rss_after_mib": round(max(after) / 1024, 1),
        "kib_per_page": round(per_page, 1),
        "pages_behind": behind,
        "stream_errors": len(tally.stream_errors),
        "met": per_page <= TARGET_KB and not behind,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--open-rate", type=float, default=100, help="pages opened a second")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.timeout = 3, 20
    common.raise_file_limit()
    print(f"memory: {common.machine()}")
    results = []
    for kind, database in common.setups(args):
        with common.running(args, kind, database, **common.MANY_PAGES) as server:
            result = asyncio.run(measure(server, args))
            result.update(server=kind, database=database, server_log=server.log_counts())
        print(
            f"\n## memory: {kind}, {database}: {result['pages']} pages opened, RSS "
            f"{result['rss_before_mib']} -> {result['rss_after_mib']} MiB: "
            f"{result['kib_per_page']} kB per open page (target <= {TARGET_KB} kB: "
            f"{'met' if result['met'] else 'NOT met'}); pages behind: {result['pages_behind']}; "
            f"grown per process (MiB): {result['grown_mib_per_process']}"
        )
        results.append(result)
    for result in results:
        common.print_json("memory", result)
    bad = [r for r in results if r["pages_behind"] or r["stream_errors"]]
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"memory: {error}", file=sys.stderr)
        sys.exit(1)
