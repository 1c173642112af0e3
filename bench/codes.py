"""The players' QR codes page against the dashboard: its time as the banker's phone gets it,
over HTTP, on each setup, in one run.

Method. For each setup (server:database), a fresh database and --games games of six players
made through the API. Each round asks, over one kept-alive connection with the banker key, a
game's dashboard and its codes page in a shuffled order, and times each answer (request sent
to last byte read, on this machine: the server's time and the loopback). "first" is the
first view of each game's codes page (its QR codes drawn: each game's first round), "again"
every later view (the codes kept by link). Reported: p50 and p95 of each, and the ratios
codes / dashboard (target: codes page <= 2x the dashboard).

    python -m bench.codes                          # both setups
    python -m bench.codes --smoke
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from . import common

TARGET = 2.0


def timed(caller: common.Http, path: str, key: str) -> float:
    began = time.perf_counter()
    status, _, _ = caller.request("GET", path, headers={"X-Banker-Key": key})
    if status != 200:
        raise common.BenchError(f"GET {path}: {status}")
    return (time.perf_counter() - began) * 1000


def run(args, kind: str, database: str) -> dict:
    with common.running(args, kind, database) as server:
        setup = common.Http(server.url)
        games = [common.Game(setup) for _ in range(args.games)]
        caller = common.Http(server.url)
        rng = random.Random(args.seed)
        times: dict[str, list[float]] = {"dashboard": [], "codes first": [], "codes again": []}
        for game in games[:1]:  # warm up: templates compiled, connections made
            timed(caller, f"/g/{game.id}/", game.key)
        first = set()
        for _ in range(args.rounds):
            for game in rng.sample(games, len(games)):
                pages = ["dashboard", "codes"]
                rng.shuffle(pages)
                for page in pages:
                    path = f"/g/{game.id}/" + ("codes" if page == "codes" else "")
                    ms = timed(caller, path, game.key)
                    if page == "codes":
                        page = "codes again" if game.id in first else "codes first"
                        first.add(game.id)
                    times[page].append(ms)
        log = server.log_counts()
    result = {"server": kind, "database": database, "games": args.games, "rounds": args.rounds}
    result.update({name: common.summary(values, 2) for name, values in times.items()})
    dashboard = result["dashboard"]
    result["ratio_again_p50"] = common.ratio(result["codes again"]["p50"], dashboard["p50"])
    result["ratio_first_p50"] = common.ratio(result["codes first"]["p50"], dashboard["p50"])
    result["met"] = (result["ratio_again_p50"] or 99) <= TARGET
    result["server_log"] = log
    return result


def report(r: dict) -> None:
    print(f"\n## codes page: {r['server']}, {r['database']} ({r['games']} games)")
    rows = [
        [name, r[name]["n"], r[name]["p50"], r[name]["p95"], r[name]["max"]]
        for name in ("dashboard", "codes first", "codes again")
    ]
    print(common.table(["page", "n", "p50 ms", "p95 ms", "max ms"], rows))
    print(
        f"codes / dashboard p50: {r['ratio_again_p50']} (a game's first view: "
        f"{r['ratio_first_p50']}); target <= {TARGET}: {'met' if r['met'] else 'NOT met'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.rounds = 2, 2
    print(f"codes: {common.machine()}")
    results = common.run_each_setup("codes", args, run, report)
    return 1 if any(any(r["server_log"].values()) for r in results) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"codes: {error}", file=sys.stderr)
        sys.exit(1)
