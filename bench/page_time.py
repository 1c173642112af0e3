"""Server time of the pages people look at all game, at 50, 500 and 5,000 actions in the log.

Method. In-process through Flask's test client (routing, auth, the database, templates and
gzip: everything but the network), on a fresh SQLite file or a fresh PostgreSQL database.
Games are grown through the JSON API with a realistic mix of actions (buys, rents, passing
GO, taxes, bank payments, transfers, builds and sales, mortgages and lifts, jail, a few
undos; see common.Mix). Timed pages:

  dashboard   GET /g/<id>/                  as the banker lands on it (banker's key)
  fragment    GET /p/<token>?fragment=1     a player's live part, as the phone fetches it
  history     GET /g/<id>/history
  results     GET /g/<id>/results

Each iteration first does one more action (untimed) on the game of each length it uses, so
that every timed page is the first view of a new game version (a cache keyed on the version
cannot hide the cost), then times every (page, length) cell once in a shuffled order ("first
view"), then each cell once more ("repeat view": what the other phones at the table get).
To keep each game near its nominal length while it gains one action per iteration, the
iterations rotate over several games of the short lengths (each stays within +10%).
Reported per cell: p50/p95 of both views, and the ratios 500/50 and 5,000/50 of the p50.

    python -m bench.page_time                                   # SQLite, 100 iterations
    python -m bench.page_time --database postgres --iterations 100
    python -m bench.page_time --lengths 50,500 --iterations 10  # a quick look
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from . import common

PAGES = {
    "dashboard": lambda g, seat: (f"/g/{g.id}/", True),
    "fragment": lambda g, seat: (f"/p/{g.player_tokens[seat]}?fragment=1", False),
    "history": lambda g, seat: (f"/g/{g.id}/history", True),
    "results": lambda g, seat: (f"/g/{g.id}/results", True),
    "player_page": lambda g, seat: (f"/p/{g.player_tokens[seat]}", False),
    "table_fragment": lambda g, seat: (f"/t/{g.table_token}?fragment=1", False),
}
DEFAULT_PAGES = "dashboard,fragment,history,results"
BROWSER = {"Accept-Encoding": "gzip", "Accept-Language": "en"}


def run(database: str, args) -> dict:
    lengths, pages = args.lengths, args.pages
    with common.fresh_database(database, args.pg_admin_url) as url:
        app = common.in_process_app(url)
        caller = common.InProcess(app)
        edition = common.edition_data(caller)
        rounds = args.warmup + args.iterations
        pools = common.pools_for(lengths, rounds)
        games: dict[int, list] = {}
        started = time.monotonic()
        for length in lengths:
            games[length] = [
                common.grown_game(
                    caller,
                    edition,
                    length,
                    args.seed + 1000 * length + k,
                    progress=f"{database} game of {length}",
                )
                for k in range(pools[length])
            ]
        grow_s = time.monotonic() - started
        print(
            f"{database}: grew {sum(pools.values())} games "
            f"({', '.join(f'{pools[n]} x {n:,}' for n in lengths)}) in {grow_s:.0f} s",
            file=sys.stderr,
        )
        shuffle = random.Random(args.seed)
        first = {(p, n): [] for p in pages for n in lengths}
        repeat = {(p, n): [] for p in pages for n in lengths}
        finals: dict[int, list[int]] = {n: [] for n in lengths}
        for round_ in range(rounds):
            now = {}
            for n in lengths:
                game, mix = games[n][round_ % pools[n]]
                mix.step()
                now[n] = game
            seat = round_ % 6
            cells = list(first)
            shuffle.shuffle(cells)
            for views in (first, repeat):
                for page, n in cells:
                    path, banker = PAGES[page](now[n], seat)
                    headers = {**BROWSER, **({"X-Banker-Key": now[n].key} if banker else {})}
                    began = time.perf_counter()
                    status, _, _ = caller.request("GET", path, headers=headers)
                    took = (time.perf_counter() - began) * 1000
                    if status != 200:
                        raise common.BenchError(f"GET {path}: {status}")
                    if round_ >= args.warmup:
                        views[(page, n)].append(took)
        for n in lengths:
            finals[n] = [g.length for g, _ in games[n]]
        mixes = [mix for n in lengths for _, mix in games[n]]
    cells = {}
    for page in pages:
        for n in lengths:
            cells[f"{page}@{n}"] = {
                "first": common.summary(first[(page, n)], 2),
                "repeat": common.summary(repeat[(page, n)], 2),
            }
    short = lengths[0]
    ratios = {}
    for page in pages:
        for n in lengths[1:]:
            for view in ("first", "repeat"):
                a = cells[f"{page}@{n}"][view]["p50"]
                b = cells[f"{page}@{short}"][view]["p50"]
                ratios[f"{page} {view} {n}/{short}"] = common.ratio(a, b)
    return {
        "database": database,
        "iterations": args.iterations,
        "games": {n: pools[n] for n in lengths},
        "log_lengths_at_end": {n: [min(finals[n]), max(finals[n])] for n in lengths},
        "action_mix": common.mix_counts(mixes),
        "cells": cells,
        "ratios": ratios,
    }


def report(result: dict, lengths: list[int], pages: list[str]) -> None:
    short = lengths[0]
    print(f"\n## {result['database']}: server time per page, {result['iterations']} iterations")
    print(f"log lengths at the end (min, max): {result['log_lengths_at_end']}")
    print(f"action mix used to grow the games: {result['action_mix']}")
    rows = []
    for page in pages:
        for n in lengths:
            cell = result["cells"][f"{page}@{n}"]
            row = [page, f"{n:,}"]
            for view in ("first", "repeat"):
                row += [common.fmt_ms(cell[view]["p50"]), common.fmt_ms(cell[view]["p95"])]
            if n != short:
                row.append(result["ratios"][f"{page} first {n}/{short}"])
            else:
                row.append("1")
            rows.append(row)
    print(
        common.table(
            ["page", "log", "first p50", "first p95", "repeat p50", "repeat p95", f"p50 / {short}"],
            rows,
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database", default="sqlite", help="sqlite, postgres or both, comma-separated"
    )
    parser.add_argument(
        "--lengths", default="50,500,5000", help="log lengths (default %(default)s)"
    )
    parser.add_argument(
        "--pages",
        default=DEFAULT_PAGES,
        help=f"pages to time, from {', '.join(PAGES)} (default %(default)s)",
    )
    parser.add_argument("--iterations", type=int, default=100, help="timed rounds (default 100)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first (default 3)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--pg-admin-url", default=common.PG_ADMIN)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.lengths, args.iterations, args.warmup = "20", 2, 1
    args.lengths = common.split_ints(args.lengths)
    args.pages = common.split_list(args.pages)
    unknown = [p for p in args.pages if p not in PAGES]
    if unknown:
        parser.error(f"unknown page(s) {unknown}")
    print(f"page_time: {common.machine()}; lengths {args.lengths}; pages {args.pages}")
    results = []
    for database in common.split_list(args.database):
        result = run(database, args)
        report(result, args.lengths, args.pages)
        results.append(result)
    for result in results:
        common.print_json("page_time", result)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"page_time: {error}", file=sys.stderr)
        sys.exit(1)
