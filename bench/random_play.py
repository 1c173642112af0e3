"""Random play of the rules core for N steps (default 100,000), with the checks of the tests.

Games follow one another, each on an edition, mode, house rules and starting cash drawn
from its own seed (`<seed>:<game>`), played by the machine of the tests
(tests/rules/machine.py): mostly the dice and the core's own answers to what waits, now and
then any other kind. After every step, who gets what (tests/rules/ledger.py) and the rule
book's invariants; the log is replayed (undos included) every --replay-every steps, after
every undo and at each game's end. A game stops when the rules end it (then a few actions
that must all be refused) or after --game-steps.

Prints the steps (actions put to the core), the games, each kind accepted and refused, the
cases seen, the violations, each with the command that replays its game, and the figures as
one JSON line. Exits 1 on a violation or when a declared kind was never accepted.

Run from the top of the repository (the machine is the tests' own):

    .venv/bin/python -m bench.random_play                       # 100,000 steps, seed 1
    .venv/bin/python -m bench.random_play --steps 2000          # smoke: a few seconds
    .venv/bin/python -m bench.random_play --seed 1 --game 12    # one game again, each step
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback

from tablebank.rules import KINDS

from tests.rules.machine import (
    MOVES,
    Play,
    RandomChooser,
    Violation,
    a_move,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
)


def play_one(seed: str, game: int, most: int, replay_every: int, verbose: bool) -> Play:
    """One game, `most` steps at most; raises Violation (naming the step) when a check fails."""
    chooser = RandomChooser(random.Random(f"{seed}:{game}"))
    play = Play(random_setup(chooser))
    play.replay_every = replay_every
    play.steps = 0
    if verbose:
        print("setup", json.dumps(play.setup))
    while play.steps < most and not play.state.ended:
        drawn = MOVES[a_move(chooser)](play, chooser)
        if drawn is None:
            continue
        play.steps += 1
        try:
            done = play.tap(*drawn)
            play.check(play.steps)
            if done and drawn[0] == "undo":
                replaying_the_log_gives_the_state(play)
            if play.state.ended:
                refuses_everything_once_ended(play, chooser)
        except Violation as violation:
            where = f"step {play.steps}, {drawn[0]} {json.dumps(drawn[1])}"
            raise Violation(f"{where}: {violation}") from None
        if verbose:
            print(play.steps, "ok " if done else "no ", drawn[0], json.dumps(drawn[1]))
    replaying_the_log_gives_the_state(play)
    return play


class Tally:
    def __init__(self) -> None:
        self.steps = self.games = self.ended = 0
        self.accepted = {name: 0 for name in KINDS}
        self.refused = {name: 0 for name in KINDS}
        self.cases: dict[str, int] = {}
        self.settings: dict[str, int] = {}
        self.violations: list[str] = []

    def add(self, play: Play) -> None:
        self.steps += play.steps
        self.ended += play.state.ended
        for mine, theirs in ((self.accepted, play.accepted), (self.refused, play.refused)):
            for kind, n in theirs.items():
                mine[kind] += n
        for case, n in play.cases.items():
            self.cases[case] = self.cases.get(case, 0) + n
        setup = play.setup
        for word in (setup["edition"], setup["mode"], f"{len(setup['players'])} players"):
            self.settings[word] = self.settings.get(word, 0) + 1
        for rule in ("free_parking_jackpot", "double_go", "no_auctions", "income_tax_percent"):
            self.settings[rule] = self.settings.get(rule, 0) + bool(setup[rule])

    def never(self) -> list[str]:
        return [kind for kind, n in self.accepted.items() if not n]


def run(args) -> Tally:
    tally = Tally()
    command = f".venv/bin/python -m bench.random_play --seed {args.seed}"
    while tally.steps < args.steps:
        budget = min(args.game_steps, args.steps - tally.steps)
        try:
            tally.add(play_one(args.seed, tally.games, budget, args.replay_every, False))
        except Violation as violation:
            tally.steps += budget
            tally.violations.append(
                f"game {tally.games}: {violation}\n    replay: {command} --game {tally.games}"
            )
        except Exception:  # noqa: BLE001  (a crash of the rules core is a finding too)
            tally.steps += budget
            tally.violations.append(
                f"game {tally.games}: crash\n{traceback.format_exc()}"
                f"    replay: {command} --game {tally.games}"
            )
        tally.games += 1
    return tally


def report(args, tally: Tally, elapsed: float, cpu: float) -> None:
    print(
        f"seed {args.seed}: {tally.steps:,} steps in {tally.games:,} games "
        f"({tally.ended:,} ended by the rules or the banker)"
    )
    print(f"time {elapsed:.1f} s, {tally.steps / elapsed:,.0f} steps/s; CPU {cpu:.1f} s")
    print("tables:", ", ".join(f"{k} {v}" for k, v in sorted(tally.settings.items())))
    print(f"{'kind':<14} {'accepted':>9} {'refused':>9}")
    for kind in sorted(KINDS):
        print(f"{kind:<14} {tally.accepted[kind]:>9,} {tally.refused[kind]:>9,}")
    print("cases:")
    for case, n in sorted(tally.cases.items()):
        print(f"  {case:<48} {n:>7,}")
    exercised = len(KINDS) - len(tally.never())
    print(f"kinds exercised: {exercised} of {len(KINDS)}", tally.never() or "")
    print(f"violations: {len(tally.violations)}")
    for line in tally.violations[:20]:
        print(" ", line)
    figures = {
        "seed": args.seed,
        "steps": tally.steps,
        "games": tally.games,
        "kinds": len(KINDS),
        "kinds_exercised": exercised,
        "violations": len(tally.violations),
        "accepted": sum(tally.accepted.values()),
        "refused": sum(tally.refused.values()),
        "seconds": round(elapsed, 1),
        "cpu_seconds": round(cpu, 1),
    }
    print(json.dumps(figures))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=100_000, help="steps in all (100,000)")
    parser.add_argument("--seed", default="1", help="the run's seed (default 1)")
    parser.add_argument("--game", type=int, help="play this one game of the seed, verbosely")
    parser.add_argument("--game-steps", type=int, default=1000, help="most steps of one game")
    parser.add_argument("--replay-every", type=int, default=50, help="replay the log every N")
    args = parser.parse_args()
    if args.game is not None:
        try:
            play_one(args.seed, args.game, args.game_steps, 1, verbose=True)
        except Violation as violation:
            print(f"VIOLATION game {args.game}: {violation}")
            return 1
        print("no violation")
        return 0
    started, cpu_started = time.perf_counter(), time.process_time()
    tally = run(args)
    report(args, tally, time.perf_counter() - started, time.process_time() - cpu_started)
    return 1 if tally.violations or tally.never() else 0


if __name__ == "__main__":
    sys.exit(main())
