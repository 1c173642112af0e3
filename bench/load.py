"""Many tables at once, with real pages: 100 games x 6 players, every player's phone and the
table screen open and live, and a banker per game who lands on the dashboard after each tap;
20 actions a second spread over the games at random, for 60 seconds.

Needs aiohttp: pip install -e '.[bench]'

Method. The server is started by its command line (the `tablebank` command, or gunicorn with
N workers) on a fresh SQLite file or PostgreSQL database; the games are made through the
JSON API and the players' links read from the banker's QR page. One asyncio process holds
every client (bench/clients.py):

- per game, 6 player pages (`/p/<token>`) and 1 table screen (`/t/<token>`): each loads
  the page, opens its live stream (`.../live?v=N`) and reads the live part each event carries
  (fetching `?fragment=1` on a bare "event: version"), as static/app.js does; pages are
  opened at --open-rate a second;
- per game, a banker with its own session cookie (from the banker link) who posts each action
  as the page's form does (`POST /g/<id>/do`: CSRF token from the page, a fresh idempotency
  key, the version of the page it came from, the payload) and follows the redirect to the
  dashboard, read in full. A banker does one action at a time, as one phone does: each
  tick of the schedule (--rate a second, open loop) picks a game at random among those
  whose banker is not waiting for an answer (a tick with none free is counted as skipped);
- actions are payments (between players, from and to the bank) with a unique note, so each
  can be found in the log afterwards.

Reported: action time (post + landing on the dashboard) p50/p95/max; fragment fetch time
p50/p95 (only pages told a bare "version N is out" fetch);
errors (refused or failed actions, failed fetches, page loads, streams, 5xx);
"database is locked" and tracebacks in the server's output; lost actions (answered as done,
missing from the log: read back through the API, every page of it; an action is answered
as done by a green banner naming it, bench/clients.py); actions in the log not answered as
done (the post failed, or the page its redirect led to failed and its green banner came on a
later page); pages not up to date 1 s after the last action (the balance a player's page
shows, or every balance on the table screen, against the API's); the server's RSS (summed
over its processes, from /proc) and threads; the CPU time of the server and of this client
process, and this event loop's lag, to tell whether the client kept up.

    python -m bench.load                                  # gunicorn, SQLite then PostgreSQL
    python -m bench.load --servers tablebank --databases sqlite
    python -m bench.load --games 10 --seconds 10 --rate 5  # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import time

from . import clients, common


async def drive(args, server: common.Server, games: list[common.Game]) -> dict:
    async with clients.Crowd(server, games, args.players, args.table, args.tap) as crowd:
        return await act(args, server, crowd)


async def act(args, server: common.Server, crowd: clients.Crowd) -> dict:
    pages, bankers, tally, monitor = crowd.pages, crowd.bankers, crowd.tally, crowd.monitor
    open_s = await clients.open_pages(pages, args.open_rate, args.open_timeout)
    opened = sum(page.opened.is_set() for page in pages)
    print(f"  {opened}/{len(pages)} pages live after {open_s:.0f} s", file=sys.stderr)
    await asyncio.sleep(2)

    rng, run = random.Random(args.seed), secrets.token_hex(3)
    tasks, skipped, n = [], 0, 0
    cpu_before, server_before = common.cpu_seconds(), server.usage()["cpu_s"]
    began = time.monotonic()
    while time.monotonic() - began < args.seconds:
        free = [banker for banker in bankers if not banker.busy]
        if free:
            banker = rng.choice(free)
            banker.busy = True
            kind, fields = clients.money_action(rng, args.players, f"load-{run}-{n}")
            tasks.append(asyncio.ensure_future(banker.act(kind, fields)))
        else:
            skipped += 1
        n += 1
        await asyncio.sleep(max(0.0, began + n / args.rate - time.monotonic()))
    results = await asyncio.gather(*tasks)
    ended = time.monotonic()
    client_cpu = common.cpu_seconds() - cpu_before
    server_cpu = server.usage()["cpu_s"] - server_before
    last = max((r["answered"] for r in results), default=ended)
    await asyncio.sleep(max(0.0, last + args.settle - time.monotonic()))
    snapshot = [clients.PageState.of(page) for page in pages]

    await crowd.close_pages()  # streams closed first: a server they hold may then answer
    finals, histories = await clients.read_back(bankers, args.readback_timeout)
    lost = clients.lost(results, histories)
    if args.results:
        with open(args.results, "w") as out:
            json.dump({"results": results, "lost": lost, "logs": histories}, out)

    done = [r for r in results if r["ok"]]
    failed = [r for r in results if not r["ok"]]
    updates, late = page_updates(done, pages, args.late)
    window = (began, ended)
    fetches = [ms for t, ms in tally.fetch_ms if began <= t <= ended + args.settle]
    return {
        "games": len(bankers),
        "pages": len(pages),
        "pages_live": opened,
        "seconds": round(ended - began, 1),
        "actions": len(results),
        "skipped_no_free_banker": skipped,
        "action_ms": common.summary([r["ms"] for r in results]),
        "action_errors": len(failed),
        "actions_resent": sum(bool(r.get("resent")) for r in results),
        "action_error_examples": sorted({r.get("error", "") for r in failed})[:5],
        "fragment_ms": common.summary(fetches),
        "page_update_ms": common.summary(updates),
        "updates_later_than_late": late,
        "late_s": args.late,
        "fragment_fetches": len(fetches),
        "fetch_errors": len(tally.fetch_errors),
        "page_errors": len(tally.page_errors),
        "stream_errors": len(tally.stream_errors),
        "error_examples": (tally.fetch_errors + tally.page_errors + tally.stream_errors)[:5],
        "status_5xx": tally.status_5xx,
        "lost_actions": len(lost),
        "lost_examples": lost[:5],
        "done_not_answered": clients.done_not_answered(results, histories),
        "late_banners": sum(len(banker.late) for banker in bankers),
        "games_not_read_back": len(bankers) - len(finals),
        "done_actions": len(done),
        "after_last_action": clients.check(snapshot, finals),
        "settle_s": args.settle,
        "server_usage": monitor.peak(*window),
        "server_cpu_s": round(server_cpu, 1),
        "client_cpu_s": round(client_cpu, 1),
        "client_cpu_share": round(client_cpu / (ended - began), 2),
        "client_loop_lag_ms": monitor.lag(*window),
    }


def page_updates(done: list[dict], pages: list, late: float) -> tuple[list[float], int]:
    """For each action answered as done and each open page of its game: ms from the tap to
    the page showing the action's version (or a later one); and how many took longer than
    `late` seconds, or never came."""
    by_game: dict[str, list] = {}
    for page in pages:
        by_game.setdefault(page.game, []).append(page)
    updates, later = [], 0
    for result in done:
        for page in by_game.get(result["game"], []):
            shown = page.shown_since(result.get("version", 10**9))
            if shown is None:
                later += 1
                continue
            ms = max(0.0, (shown - result["started"]) * 1000)
            updates.append(ms)
            later += ms > late * 1000
    return updates, later


def run(args, kind: str, database: str) -> dict:
    with common.fresh_database(database, args.pg_admin_url) as url:
        port = common.free_port()
        command = common.command_for(args, kind, port)
        print(f"{database} / {kind}: {' '.join(command)}", file=sys.stderr)
        with common.Server(command, url, port, kind, common.MANY_PAGES) as server:
            caller = common.Http(server.url)
            games = [common.Game(caller, players=args.players) for _ in range(args.games)]
            result = asyncio.run(drive(args, server, games))
            result["server_log"] = server.log_counts()
            result["server_end"] = server.usage()
    return {"database": database, "server": kind, "command": " ".join(command), **result}


def report(r: dict) -> None:
    print(f"\n## load: {r['database']}, {r['server']}")
    print(f"server: {r['command']}")
    print(
        f"{r['games']} games, {r['pages']} live pages ({r['pages_live']} streams answered), "
        f"{r['actions']} actions in {r['seconds']} s ({r['skipped_no_free_banker']} ticks "
        f"skipped: every banker busy)"
    )
    a, f, u = r["action_ms"], r["fragment_ms"], r["page_update_ms"]
    print(
        common.table(
            ["", "n", "p50", "p95", "max"],
            [
                [
                    "action (post + dashboard)",
                    a["n"],
                    common.fmt_ms(a["p50"]),
                    common.fmt_ms(a["p95"]),
                    common.fmt_ms(a["max"]),
                ],
                [
                    "page updated (tap to shown)",
                    u["n"],
                    common.fmt_ms(u["p50"]),
                    common.fmt_ms(u["p95"]),
                    common.fmt_ms(u["max"]),
                ],
                [
                    "fragment fetch",
                    f["n"],
                    common.fmt_ms(f["p50"]),
                    common.fmt_ms(f["p95"]),
                    common.fmt_ms(f["max"]),
                ],
            ],
        )
    )
    print(
        f"errors: {r['action_errors']} actions, {r['fetch_errors']} fetches, "
        f"{r['page_errors']} page loads, {r['stream_errors']} streams, "
        f"{r['status_5xx']} answers 5xx; {r['actions_resent']} posts resent on a new "
        "connection (a kept-alive one closed on the way, as a browser resends)"
    )
    examples = r["action_error_examples"] + r["error_examples"]
    if examples:
        print(f"error examples: {examples}")
    print(f"updates later than {r['late_s']} s (or never): {r['updates_later_than_late']}")
    met = (a["p95"] or 1e9) <= 100 and (u["p95"] or 1e9) <= 100
    met = met and not r["action_errors"] and not r["updates_later_than_late"]
    print(
        "targets (banker and pages p95 <= 100 ms, 0 errors, 0 updates later than 1 s): "
        + ("met" if met else "NOT met")
    )
    print(f"server log: {r['server_log']}")
    print(
        f"lost actions: {r['lost_actions']} of {r['done_actions']} answered as done"
        + (
            f" ({r['games_not_read_back']} games could not be read back)"
            if r["games_not_read_back"]
            else ""
        )
    )
    d = r["done_not_answered"]
    print(
        f"in the log but not answered as done: {d['post_failed']} whose post failed, "
        f"{d['landing_failed']} whose landing page failed ({r['late_banners']} green banners "
        "shown late, on a later page)"
    )
    u = r["after_last_action"]
    print(
        f"{r['settle_s']} s after the last action: {u['not_up_to_date']} of {u['pages']} pages "
        f"not up to date, {u['stream_behind']} streams behind {u['examples']}"
    )
    s = r["server_usage"]
    print(
        f"server: RSS max {s['rss_mib_max']} MiB, threads max {s['threads_max']}, "
        f"{s['processes']} processes, CPU {r['server_cpu_s']} s during the run"
    )
    lag = r["client_loop_lag_ms"]
    print(
        f"client: CPU {r['client_cpu_s']} s ({r['client_cpu_share']:.0%} of one core), "
        f"event loop lag p95 {common.fmt_ms(lag['p95'])}, max {common.fmt_ms(lag['max'])}"
    )
    if r["client_cpu_share"] > 0.8 or (lag["p95"] or 0) > 50:
        print("WARNING: the client process was busy: its figures include its own delays")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=6, help="players (live pages) per game")
    parser.add_argument(
        "--no-table", dest="table", action="store_false", help="no table screen page per game"
    )
    parser.add_argument("--rate", type=float, default=20, help="banker actions a second")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--open-rate", type=float, default=100, help="pages opened a second")
    parser.add_argument("--open-timeout", type=float, default=60)
    parser.add_argument(
        "--settle", type=float, default=1.0, help="s after the last action before pages are checked"
    )
    parser.add_argument(
        "--readback-timeout",
        type=float,
        default=180,
        help="s to read every game back through the API at the end",
    )
    parser.add_argument(
        "--late", type=float, default=1.0, help="s after which a page's update is late"
    )
    parser.add_argument(
        "--no-tap",
        dest="tap",
        action="store_false",
        help="post the forms as without JavaScript (redirect, then the dashboard)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--results", help="write every action's answer and the logs here (JSON)")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.seconds, args.rate, args.readback_timeout = 3, 3, 5, 30
    limit = common.raise_file_limit()
    print(f"load: {common.machine()}; open files limit {limit}")
    results = common.run_each_setup("load", args, run, report)
    if any(clients.saw_errors(result) for result in results):
        print("load: the run saw errors, lost actions or stale pages (see above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"load: {error}", file=sys.stderr)
        sys.exit(1)
