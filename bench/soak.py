"""Random play over the whole game through the rules core, for N steps, with a seed.

Games follow one another: each on an edition, mode and house rules drawn from its own seed
(`<seed>:<game>`), driven by the moves of tests/rules/machine.py (one per action kind, fields
drawn from the state), with every invariant of the rule book checked after every step and
the log replayed every --replay-every steps and at each game's end. A game ends when the
rules end it (after a few taps that must all be refused), or after --game-steps.

Prints steps, steps/s, the taps accepted and refused per kind, and the violations, each with
the one command that replays its game. Exits 1 on any violation.

    .venv/bin/python bench/soak.py                      # 100,000 steps, seed 1
    .venv/bin/python bench/soak.py --seed 7 --game 12   # one game again, every step shown

With --api sqlite|postgres the same moves go through the JSON API and the players' phones
(Flask's test client, on a database made for the run and dropped after it), checked by
tests/web/api_machine.py after every step: never a 500, 201 exactly when the rules core
accepts, one log row per action done and none per refusal, the stored snapshot equal to the
game's state and to the log replayed. Its figures count the answers by status.

    .venv/bin/python bench/soak.py --api postgres --steps 2000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import PG_ADMIN, fresh_database  # noqa: E402
from tablebank import create_app  # noqa: E402
from tablebank.models import db  # noqa: E402

from tests.rules.machine import (  # noqa: E402
    MOVES,
    WEIGHTS,
    Play,
    RandomChooser,
    Violation,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
)
from tests.web.api_machine import ApiPlay  # noqa: E402

NAMES = list(MOVES)
WEIGHT_LIST = [WEIGHTS[n] for n in NAMES]


def play_one(seed: str, game: int, steps: int, replay_every: int, verbose: bool, api=None) -> Play:
    """One game, `steps` at most; raises Violation (with the step) when a check fails.
    With `api` (an app and its test client) the taps go through the JSON API and phones."""
    rng = random.Random(f"{seed}:{game}")
    chooser = RandomChooser(rng)
    setup = random_setup(chooser)
    play = Play(setup) if api is None else ApiPlay(*api, setup)
    play.replay_every = replay_every
    play.steps = 0
    if verbose:
        print("setup", json.dumps(play.setup))
    for step in range(1, steps + 1):
        name = rng.choices(NAMES, WEIGHT_LIST)[0]
        drawn = MOVES[name](play, chooser)
        play.steps = step
        if drawn is None:
            continue
        try:
            if api is not None and setup["mode"] == "timed" and rng.random() < 0.002:
                play.clock_runs_out()  # TL1
            if play.state.ended or api is None:
                done = play.tap(*drawn)
            else:
                kind, payload = drawn
                phone = play.may_phone(kind, payload) and rng.random() < play.phone_odds
                done = play.tap(kind, payload, phone)
            play.check(step)
            if done and drawn[0] == "undo":
                replaying_the_log_gives_the_state(play)  # the state before, exactly
            if play.state.ended and rng.random() < 0.8:
                refuses_everything_once_ended(play, chooser)
                replaying_the_log_gives_the_state(play)
                return play
        except Violation as violation:
            raise Violation(
                f"step {step}, {drawn[0]} {json.dumps(drawn[1])}: {violation}"
            ) from None
        if verbose:
            print(step, "ok " if done else "no ", drawn[0], json.dumps(drawn[1]))
    replaying_the_log_gives_the_state(play)
    return play


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=100_000, help="steps in all (default 100,000)")
    parser.add_argument("--seed", default="1", help="the run's seed (default 1)")
    parser.add_argument("--game", type=int, help="replay this one game of the seed, verbosely")
    parser.add_argument("--game-steps", type=int, default=400, help="most steps of one game")
    parser.add_argument(
        "--replay-every",
        type=int,
        help="replay the log every N steps (default: 100 in the rules core, 1 through the API)",
    )
    parser.add_argument(
        "--api",
        choices=("sqlite", "postgres"),
        help="through the JSON API and the phones (Flask test client) on a fresh database",
    )
    parser.add_argument("--pg-admin-url", default=PG_ADMIN, help="PostgreSQL server for --api")
    args = parser.parse_args()
    if args.replay_every is None:
        args.replay_every = 1 if args.api else 100
    if args.api:
        with fresh_database(args.api, args.pg_admin_url) as url:
            app = create_app(
                {
                    "TESTING": True,
                    "SQLALCHEMY_DATABASE_URI": url,
                    "WTF_CSRF_ENABLED": False,
                    "SECRET_KEY": "soak",
                }
            )
            try:
                return run(args, (app, app.test_client()))
            finally:
                with app.app_context():
                    db.session.remove()
                    db.engine.dispose()
    return run(args, None)


def run(args, api) -> int:
    """The run (or the one game asked for), through the rules core or, with `api`, the app."""
    if args.game is not None:
        try:
            play_one(args.seed, args.game, args.game_steps, 1, verbose=True, api=api)
        except Violation as violation:
            print(f"VIOLATION game {args.game}: {violation}")
            return 1
        print("no violation")
        return 0

    accepted: dict[str, int] = {n: 0 for n in NAMES}
    refused: dict[str, int] = {n: 0 for n in NAMES}
    violations: list[str] = []
    modes: dict[str, int] = {}
    cases: dict[str, int] = {}
    statuses: dict[int, int] = {}
    editions: dict[str, int] = {}
    ended = steps = game = 0
    replay_command = f".venv/bin/python bench/soak.py --seed {args.seed}"
    if args.api:
        replay_command += f" --api {args.api}"
    started, cpu_started = time.perf_counter(), time.process_time()
    while steps < args.steps:
        budget = min(args.game_steps, args.steps - steps)
        try:
            play = play_one(args.seed, game, budget, args.replay_every, verbose=False, api=api)
            for status, n in getattr(play, "statuses", {}).items():
                statuses[status] = statuses.get(status, 0) + n
            steps += play.steps
            ended += play.state.ended
            for kind, n in play.accepted.items():
                accepted[kind] += n
            for kind, n in play.refused.items():
                refused[kind] += n
            for case, n in play.cases.items():
                cases[case] = cases.get(case, 0) + n
            modes[play.setup["mode"]] = modes.get(play.setup["mode"], 0) + 1
            editions[play.setup["edition"]] = editions.get(play.setup["edition"], 0) + 1
        except Violation as violation:
            steps += budget
            command = f"{replay_command} --game {game}"
            violations.append(f"game {game}: {violation}\n    replay: {command}")
        except Exception:  # noqa: BLE001  (a crash of the rules core is a finding too)
            steps += budget
            command = f"{replay_command} --game {game}"
            violations.append(f"game {game}: crash\n{traceback.format_exc()}    replay: {command}")
        game += 1
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started

    via = f"the JSON API on {args.api}" if args.api else "the rules core"
    print(f"through {via}")
    if statuses:
        print("answers", dict(sorted(statuses.items())), "(302: a phone sent back to its page)")
    print(f"seed {args.seed}: {steps:,} steps in {game:,} games ({ended:,} ended by the rules)")
    print(
        f"time {elapsed:.1f} s, {steps / elapsed:,.0f} steps/s; "
        f"CPU {cpu:.1f} s, {steps / cpu:,.0f} steps per CPU second"
    )
    print("editions", editions, "modes", modes)
    print(f"{'kind':<14} {'accepted':>9} {'refused':>9}")
    for name in NAMES:
        print(f"{name:<14} {accepted[name]:>9,} {refused[name]:>9,}")
    print("cases:")
    for case, n in sorted(cases.items()):
        print(f"  {case:<44} {n:>7,}")
    print(f"violations: {len(violations)}")
    for line in violations[:20]:
        print(" ", line)
    figures = {
        "seed": args.seed,
        "steps": steps,
        "games": game,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(steps / elapsed),
        "cpu_seconds": round(cpu, 1),
        "violations": len(violations),
        "via": args.api or "core",
        "answers": statuses,
        "accepted": sum(accepted.values()),
        "refused": sum(refused.values()),
    }
    print(json.dumps(figures))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
