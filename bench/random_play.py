"""Random play for N steps with the checks of the tests: the suite's random-play machine
(tests/rules/random_play.py), run by pytest in a process of its own with the thorough
hypothesis profile, through the rules core or, with --api, through the JSON API and the
players' phones (Flask's test client) on SQLite or PostgreSQL.

Games follow one another, each on an edition, mode, house rules and starting cash of its own,
played mostly by the dice and the core's own answers to what waits, now and then any other
kind. After every step, who gets what (tests/rules/ledger.py) and the rule book's invariants;
the log is replayed every few steps, after every undo and at each game's end.

Prints the steps, the games, each kind accepted and refused, the cases seen, the kinds never
exercised and the violations (hypothesis stops at the first and shrinks it to the fewest
steps that show it: printed as the code that plays them), then the figures as one JSON line.
Exits 1 on a violation or when a declared kind was never accepted (not in --smoke: 2,000
steps, seconds, too few for every kind). Nothing is imported from tests/ here: the machine
runs where the suite runs it.

    .venv/bin/python -m bench.random_play                             # 100,000 steps
    .venv/bin/python -m bench.random_play --smoke                     # 2,000 steps
    .venv/bin/python -m bench.random_play --api sqlite --steps 2000
    .venv/bin/python -m bench.random_play --api postgres --steps 2000 --seed 7

The same run again: the same --seed (and steps). bench/soak.py is this script.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = {
    None: "tests/rules/test_game_machine.py",
    "sqlite": "tests/web/test_api_machine.py::"
    "test_random_play_through_the_api_keeps_store_log_and_rules_in_step",
}
TESTS["postgres"] = TESTS["sqlite"]
POSTGRES = "postgresql://postgres:postgres@127.0.0.1:5432/postgres"
FIGURES = "random play: "  # the line the test prints its figures on (tests/rules/random_play.py)


def run(args) -> tuple[int, dict | None, str, float, float]:
    """The machine through pytest: its exit status, figures, output, seconds and CPU seconds."""
    env = {**os.environ, "HYPOTHESIS_PROFILE": "thorough", "RANDOM_PLAY_STEPS": str(args.steps)}
    env.pop("DATABASE_URL", None)
    env.pop("TEST_DATABASE_URL", None)
    if args.api == "postgres":
        env["DATABASE_URL"] = args.database_url
    command = [
        sys.executable, "-m", "pytest", TESTS[args.api], "-q", "-s", "-p", "no:cacheprovider",
        f"--hypothesis-seed={args.seed}", "-o", "addopts=",
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    children = os.times()
    cpu = children.children_user + children.children_system
    lines = [line for line in done.stdout.splitlines() if line.startswith(FIGURES)]
    figures = json.loads(lines[-1][len(FIGURES) :]) if lines else None
    return done.returncode, figures, done.stdout + done.stderr, elapsed, cpu


def report(args, status: int, figures: dict | None, output: str, elapsed: float, cpu: float):
    via = f"the JSON API and the phones on {args.api}" if args.api else "the rules core"
    violations = 0 if status == 0 else 1
    print(f"random play through {via}, seed {args.seed}, thorough profile")
    if figures:
        steps = figures["steps"]
        print(f"{steps:,} steps in {figures['games']:,} games ({figures['ended']:,} ended)")
        print(f"time {elapsed:.1f} s, {steps / elapsed:,.0f} steps/s; CPU {cpu:.1f} s")
        if figures["answers"]:
            print("answers", figures["answers"], "(302: a phone sent back to its page)")
        print(f"{'kind':<14} {'accepted':>9} {'refused':>9}")
        for kind in sorted(figures["accepted"]):
            print(f"{kind:<14} {figures['accepted'][kind]:>9,} {figures['refused'][kind]:>9,}")
        print("cases:")
        for case, n in figures["cases"].items():
            print(f"  {case:<48} {n:>7,}")
        print(f"kinds exercised: {figures['kinds_exercised']} of {figures['kinds']}", end=" ")
        print(figures["never"] or "")
    print(f"violations: {violations}")
    if status != 0:  # the failure as pytest and hypothesis tell it: the steps that show it
        print(output[-6000:])
    summary = {
        "seed": args.seed,
        "via": args.api or "core",
        "steps": figures and figures["steps"],
        "games": figures and figures["games"],
        "kinds": figures and figures["kinds"],
        "kinds_exercised": figures and figures["kinds_exercised"],
        "violations": violations,
        "seconds": round(elapsed, 1),
        "cpu_seconds": round(cpu, 1),
    }
    print(json.dumps(summary))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--steps", type=int, help="steps in all (100,000; 2,000 in --smoke)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument(
        "--api",
        choices=("sqlite", "postgres"),
        help="through the JSON API and the phones (Flask's test client) on this database",
    )
    parser.add_argument("--database-url", default=POSTGRES, help="the PostgreSQL for --api")
    parser.add_argument(
        "--smoke", action="store_true", help="few steps; a kind never accepted is no failure"
    )
    args = parser.parse_args()
    if args.steps is None:
        args.steps = 2000 if args.smoke else 100_000
    status, figures, output, elapsed, cpu = run(args)
    report(args, status, figures, output, elapsed, cpu)
    if figures is None and status == 0:
        print("the test printed no figures", file=sys.stderr)
        return 1
    return 1 if status != 0 or (figures and figures["never"] and not args.smoke) else 0


if __name__ == "__main__":
    sys.exit(main())
