"""Server time of one banker action, in a game with a short and with a long log, interleaved.

Method. In-process through the JSON API and Flask's test client (routing, validation, the
game lock, the rules core, the log row, the snapshot and the commit: everything but the
network), on a fresh SQLite file or a fresh PostgreSQL database. The games are grown through
the same API with a realistic mix of actions (common.Mix). Then the timed actions alternate
between the lengths action by action, in a shuffled order within each round, so that both
lengths see the same machine at the same moments: a transfer between two players with an
idempotency key, as a banker's tap sends it. To keep a short game near its nominal length
while it takes its timed actions, the rounds rotate over several short games (each stays
within +10% of its length). Reported: p50/p99 per length and the long/short ratios.

    python -m bench.action_time                          # SQLite, 300 samples per length
    python -m bench.action_time --database postgres
    python -m bench.action_time --samples 30 --lengths 50,500   # a quick look
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from . import common


def run(database: str, args) -> dict:
    lengths = args.lengths
    with common.fresh_database(database, args.pg_admin_url) as url:
        app = common.in_process_app(url)
        caller = common.InProcess(app)
        edition = common.edition_data(caller)
        rounds = args.warmup + args.samples
        pools = common.pools_for(lengths, rounds)
        games = {
            n: [
                common.grown_game(caller, edition, n, args.seed + 1000 * n + k, f"game of {n}")[0]
                for k in range(pools[n])
            ]
            for n in lengths
        }
        shuffle = random.Random(args.seed)
        times: dict[int, list[float]] = {n: [] for n in lengths}
        for round_ in range(rounds):
            order = list(lengths)
            shuffle.shuffle(order)
            for n in order:
                game = games[n][round_ % pools[n]]
                payer = round_ % 6
                body = {
                    "kind": "transfer",
                    "from": payer,
                    "to": (payer + 3) % 6,
                    "amount": 1,
                    "idempotency_key": f"bench-{round_}-{n}",
                }
                began = time.perf_counter()
                status, data, _ = caller.request(
                    "POST", f"/api/games/{game.id}/actions", body, {"X-Banker-Key": game.key}
                )
                took = (time.perf_counter() - began) * 1000
                if status != 201:
                    raise common.BenchError(f"transfer refused: {status} {data[:300]!r}")
                game.length += 1
                if round_ >= args.warmup:
                    times[n].append(took)
        ends = {
            n: [min(g.length for g in games[n]), max(g.length for g in games[n])] for n in lengths
        }
    result = {
        "database": database,
        "samples": args.samples,
        "games": pools,
        "log_lengths_at_end": ends,
        "lengths": {},
    }
    for n in lengths:
        result["lengths"][n] = {
            "p50": round(common.percentile(times[n], 0.5), 2),
            "p99": round(common.percentile(times[n], 0.99), 2),
            "max": round(max(times[n]), 2),
        }
    short = lengths[0]
    for n in lengths[1:]:
        for figure in ("p50", "p99"):
            result[f"{figure} {n}/{short}"] = common.ratio(
                result["lengths"][n][figure], result["lengths"][short][figure]
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database", default="sqlite", help="sqlite, postgres or both, comma-separated"
    )
    parser.add_argument("--lengths", default="50,5000", help="log lengths (default %(default)s)")
    parser.add_argument("--samples", type=int, default=300, help="timed actions per length")
    parser.add_argument("--warmup", type=int, default=10, help="untimed rounds first")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--pg-admin-url", default=common.PG_ADMIN)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.lengths, args.samples, args.warmup = "20", 5, 1
    args.lengths = common.split_ints(args.lengths)
    print(f"action_time: {common.machine()}; lengths {args.lengths}, {args.samples} samples each")
    results = []
    for database in common.split_list(args.database):
        result = run(database, args)
        results.append(result)
        print(f"\n## {database}: one transfer through the JSON API, interleaved")
        print(f"log lengths at the end (min, max): {result['log_lengths_at_end']}")
        rows = []
        for n, figures in result["lengths"].items():
            rows.append(
                [
                    f"{n:,}",
                    common.fmt_ms(figures["p50"]),
                    common.fmt_ms(figures["p99"]),
                    common.fmt_ms(figures["max"]),
                ]
            )
        print(common.table(["log", "p50", "p99", "max"], rows))
        short = args.lengths[0]
        for n in args.lengths[1:]:
            print(
                f"long/short {n}/{short}: p50 x{result[f'p50 {n}/{short}']}, "
                f"p99 x{result[f'p99 {n}/{short}']}"
            )
    for result in results:
        common.print_json("action_time", result)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"action_time: {error}", file=sys.stderr)
        sys.exit(1)
