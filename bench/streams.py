"""Stream capacity: open live pages step by step up to 1,000 while a banker keeps acting, and
see whether the banker's taps stay fast and every page stays live.

Needs aiohttp: pip install -e '.[bench]'

Method. The server is started by its command line (the `tablebank` command, one process;
gunicorn with N workers) on a fresh database. Games of 6 players are made through the JSON
API, enough for --pages pages (6 player pages and 1 table screen per game). One asyncio
process holds every client (bench/clients.py): each page loads, opens its live stream and
reads the live part each event carries (a bare "event: version": fetches it), as app.js
does; each game has a banker (session cookie, CSRF token from the page) who posts the
page's form and follows the redirect to the dashboard, one action at a time.

The pages are opened in steps of --step (250, 500, 750, 1,000 by default) at --ramp-rate a
second. After each step the script waits for the new streams to answer (at most
--open-timeout s) and holds for --hold s. All along, the banker side acts --rate times a
second (open loop) on a game chosen at random among those whose pages are open and whose
banker is not waiting for an answer. At the end the actions stop; 1 s after the last answer
every page is checked against the API (a player's page shows the player's balance, the table
screen every balance), and every action answered as done is looked for in the log.

Reported per step: pages live, banker action time p50/p95/max and errors (actions started
during the hold), fragment fetch p50/p95, server RSS (summed over its processes) and threads
(/proc/<pid>/status), server CPU, this client's CPU and event loop lag; then errors, pages
not up to date, lost actions and what the server's output says ("database is locked",
tracebacks, worker timeouts).

    python -m bench.streams                                   # tablebank, then gunicorn
    python -m bench.streams --servers gunicorn --databases postgres
    python -m bench.streams --pages 100 --step 50 --hold 5    # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import secrets
import sys
import time

from . import clients, common

PAGES_PER_GAME = 7  # 6 players and the table screen


async def drive(args, server: common.Server, games: list[common.Game]) -> dict:
    async with clients.Crowd(server, games, 6, True) as crowd:
        return await ramp(args, server, crowd)


async def banker_loop(args, crowd: clients.Crowd, state: dict) -> None:
    rng, run = random.Random(args.seed), secrets.token_hex(3)
    began, n = time.monotonic(), 0
    while not state["stop"]:
        active = crowd.bankers[: state["games_open"]]
        free = [banker for banker in active if not banker.busy]
        if free:
            banker = rng.choice(free)
            banker.busy = True
            kind, fields = clients.money_action(rng, 6, f"streams-{run}-{n}")

            async def one(banker=banker, kind=kind, fields=fields, level=state["level"]):
                result = await banker.act(kind, fields)
                result["level"] = level
                return result

            state["tasks"].append(asyncio.ensure_future(one()))
        elif active:
            state["skipped"] += 1
        n += 1
        await asyncio.sleep(max(0.0, began + n / args.rate - time.monotonic()))


async def ramp(args, server: common.Server, crowd: clients.Crowd) -> dict:
    pages, monitor, tally = crowd.pages, crowd.monitor, crowd.tally
    state = {"stop": False, "games_open": 0, "level": 0, "tasks": [], "skipped": 0}
    loop = asyncio.ensure_future(banker_loop(args, crowd, state))
    levels = list(range(args.step, len(pages), args.step)) + [len(pages)]
    steps, started = [], 0
    for level in levels:
        state["level"] = level
        opening = time.monotonic()
        await clients.open_pages(pages[started:level], args.ramp_rate, args.open_timeout)
        started = level
        state["games_open"] = level // PAGES_PER_GAME
        live = sum(page.opened.is_set() for page in pages[:level])
        print(
            f"  {live}/{level} pages live after {time.monotonic() - opening:.0f} s", file=sys.stderr
        )
        cpu, server_cpu = common.cpu_seconds(), server.usage()["cpu_s"]
        hold_from = time.monotonic()
        await asyncio.sleep(args.hold)
        hold_to = time.monotonic()
        steps.append(
            {
                "level": level,
                "pages_live": live,
                "window": (hold_from, hold_to),
                "server": monitor.peak(hold_from, hold_to),
                "server_cpu_s": round(server.usage()["cpu_s"] - server_cpu, 1),
                "client_cpu_share": round((common.cpu_seconds() - cpu) / (hold_to - hold_from), 2),
                "client_loop_lag_ms": monitor.lag(hold_from, hold_to),
                "fragment_ms": common.summary(
                    [ms for t, ms in tally.fetch_ms if hold_from <= t <= hold_to]
                ),
            }
        )
    state["stop"] = True
    await loop
    results = await asyncio.gather(*state["tasks"])
    last = max((r["answered"] for r in results), default=time.monotonic())
    await asyncio.sleep(max(0.0, last + args.settle - time.monotonic()))
    snapshot = [clients.PageState.of(page) for page in pages]
    await crowd.close_pages()
    finals, histories = await clients.read_back(crowd.bankers, args.readback_timeout)
    lost = clients.lost(results, histories)
    for step in steps:
        hold_from, hold_to = step.pop("window")
        mine = [r for r in results if r["level"] == step["level"] and r["started"] >= hold_from]
        mine = [r for r in mine if r["started"] <= hold_to]
        step["action_ms"] = common.summary([r["ms"] for r in mine])
        step["action_errors"] = sum(not r["ok"] for r in mine)
    failed = [r for r in results if not r["ok"]]
    return {
        "pages": len(pages),
        "games": len(crowd.bankers),
        "steps": steps,
        "actions": len(results),
        "skipped_no_free_banker": state["skipped"],
        "action_ms_all": common.summary([r["ms"] for r in results]),
        "action_errors": len(failed),
        "action_error_examples": sorted({r.get("error", "") for r in failed})[:5],
        "fetch_errors": len(tally.fetch_errors),
        "page_errors": len(tally.page_errors),
        "stream_errors": len(tally.stream_errors),
        "error_examples": (tally.fetch_errors + tally.page_errors + tally.stream_errors)[:5],
        "status_5xx": tally.status_5xx,
        "lost_actions": len(lost),
        "games_not_read_back": len(crowd.bankers) - len(finals),
        "after_last_action": clients.check(snapshot, finals),
        "settle_s": args.settle,
    }


def run(args, kind: str, database: str) -> dict:
    with common.fresh_database(database, args.pg_admin_url) as url:
        port = common.free_port()
        command = common.command_for(args, kind, port)
        print(f"{database} / {kind}: {' '.join(command)}", file=sys.stderr)
        with common.Server(command, url, port, kind, common.MANY_PAGES) as server:
            caller = common.Http(server.url)
            count = math.ceil(args.pages / PAGES_PER_GAME)
            games = [common.Game(caller) for _ in range(count)]
            result = asyncio.run(drive(args, server, games))
            result["server_log"] = server.log_counts()
            result["server_end"] = server.usage()
    return {"database": database, "server": kind, "command": " ".join(command), **result}


def report(r: dict) -> None:
    print(f"\n## streams: {r['database']}, {r['server']}")
    print(f"server: {r['command']}")
    rows = []
    for s in r["steps"]:
        a, f, lag = s["action_ms"], s["fragment_ms"], s["client_loop_lag_ms"]
        rows.append(
            [
                f"{s['level']:,}",
                s["pages_live"],
                a["n"],
                common.fmt_ms(a["p50"]),
                common.fmt_ms(a["p95"]),
                common.fmt_ms(a["max"]),
                s["action_errors"],
                common.fmt_ms(f["p50"]),
                common.fmt_ms(f["p95"]),
                s["server"]["rss_mib_max"],
                s["server"]["threads_max"],
                s["server_cpu_s"],
                f"{s['client_cpu_share']:.0%}",
                common.fmt_ms(lag["p95"]),
            ]
        )
    print(
        common.table(
            [
                "pages",
                "live",
                "actions",
                "p50",
                "p95",
                "max",
                "errors",
                "fetch p50",
                "fetch p95",
                "RSS MiB",
                "threads",
                "server CPU s",
                "client CPU",
                "loop lag p95",
            ],
            rows,
        )
    )
    print(
        f"{r['actions']} actions in all ({r['skipped_no_free_banker']} ticks skipped: every "
        f"banker busy); errors: {r['action_errors']} actions, {r['fetch_errors']} fetches, "
        f"{r['page_errors']} page loads, {r['stream_errors']} streams, "
        f"{r['status_5xx']} answers 5xx"
    )
    examples = r["action_error_examples"] + r["error_examples"]
    if examples:
        print(f"error examples: {examples}")
    u = r["after_last_action"]
    print(
        f"{r['settle_s']} s after the last action: {u['not_up_to_date']} of {u['pages']} pages "
        f"not up to date, {u['stream_behind']} streams behind {u['examples']}"
    )
    print(
        f"lost actions: {r['lost_actions']}"
        + (
            f" ({r['games_not_read_back']} games could not be read back)"
            if r["games_not_read_back"]
            else ""
        )
    )
    print(f"server log: {r['server_log']}; at the end: {r['server_end']}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_server_options(parser, workers_default=4)
    parser.add_argument("--databases", default="sqlite", help="default %(default)s")
    parser.add_argument("--pages", type=int, default=1000, help="live pages at the end")
    parser.add_argument("--step", type=int, default=250, help="pages added per step")
    parser.add_argument("--ramp-rate", type=float, default=50, help="pages opened a second")
    parser.add_argument("--hold", type=float, default=20, help="s measured at each step")
    parser.add_argument("--rate", type=float, default=5, help="banker actions a second")
    parser.add_argument("--open-timeout", type=float, default=30)
    parser.add_argument("--settle", type=float, default=1.0)
    parser.add_argument("--readback-timeout", type=float, default=180)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.pages, args.step, args.hold, args.rate = 14, 7, 2, 2
    limit = common.raise_file_limit()
    if limit < args.pages * 3:
        print(f"note: open files limit {limit} for {args.pages} pages", file=sys.stderr)
    print(f"streams: {common.machine()}; open files limit {limit}")
    results = []
    for database in common.split_list(args.databases):
        for kind in common.split_list(args.servers):
            result = run(args, kind, database)
            report(result)
            results.append(result)
    for result in results:
        common.print_json("streams", result)
    if any(clients.saw_errors(result) for result in results):
        print(
            "streams: the run saw errors, lost actions or stale pages (see above)", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"streams: {error}", file=sys.stderr)
        sys.exit(1)
