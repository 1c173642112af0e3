"""Random play of whole games through the JSON API (and now and then a player's phone), on the
test database (SQLite, or PostgreSQL when DATABASE_URL names one): see api_machine.py.

Games follow one another, each on an edition, mode and house rules drawn from its own seed,
driven mostly by the table's next act as the API's `pending` says it, now and then by every
other kind. After every step: never a 500; a refusal changes nothing and the rules core
refuses it too; an action done is one row of the history whose movements go to the party the
rule book names (R1, G1, P1-P7, T1, T2, C1-C3, J1-J3, H1, K1-K5, SG1, SG3, M1-M4, B1-B6, X1);
the snapshot is the log replayed; the API's game and pending are the store's.

Two settings, by environment variable:

- the default: API_MACHINE_STEPS=300 steps (a few seconds), the same games every run;
- thorough: API_MACHINE_STEPS=2000 (issue 19's target per database), with API_MACHINE_SEED
  for other games and `-s` for the figures:

      API_MACHINE_STEPS=2000 .venv/bin/python -m pytest tests/web/test_api_machine.py -s

A violation names the seed and game that replay it (API_MACHINE_SEED, API_MACHINE_GAME).
"""

from __future__ import annotations

import os
import random
import time

from ..rules.machine import (
    ENDS_AT,
    WEIGHTS,
    RandomChooser,
    Violation,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
)
from .api_machine import ApiPlay

STEPS = int(os.environ.get("API_MACHINE_STEPS", "300"))
SEED = os.environ.get("API_MACHINE_SEED", "19")
ONE_GAME = os.environ.get("API_MACHINE_GAME")
GAME_STEPS = 400  # at most, in one game
# The rules machine's mix, with more building and trading (dearer rents: debts, bankruptcies
# within a few hundred steps) and fewer games ended by the banker.
MIX = {name: 2 * weight for name, weight in WEIGHTS.items()} | {
    "build": 24,
    "trade": 12,
    "end_game": 1,
}
NAMES, MIX_WEIGHTS = list(MIX), list(MIX.values())


def play_game(app, client, seed: str, game: int, budget: int) -> ApiPlay:
    """One game of at most `budget` API steps; a Violation names the step and how to replay."""
    c = RandomChooser(random.Random(f"{seed}:{game}"))
    setup = random_setup(c)
    if c.odds(1, 2):  # short of cash: debts and bankruptcies within a few hundred steps
        setup["starting_cash"] = c.pick((200, 400, 600))
    play = ApiPlay(app, client, setup)
    play.replay_every = 20
    while play.calls < budget:
        name = c.weighted(NAMES, MIX_WEIGHTS)
        try:
            if play.setup["mode"] == "timed" and c.odds(1, 400):
                play.clock_runs_out()  # TL1
            done = play.move(name, c)
            if done is None:
                continue
            play.check(play.calls)
            if play.state.ended and c.odds(4, 5):
                refuses_everything_once_ended(play, c)
                break
        except Violation as violation:
            replay = f"API_MACHINE_SEED={seed} API_MACHINE_GAME={game}"
            raise Violation(f"{replay}, call {play.calls}, {name}: {violation}") from None
    replaying_the_log_gives_the_state(play)
    play.replayed_by_the_bank()
    return play


def test_random_play_through_the_api_keeps_store_log_and_rules_in_step(app, client):
    """K1-K5, R1, S2 and who gets what, through the API: every step checked (see the top)."""
    started = time.perf_counter()
    games = [int(ONE_GAME)] if ONE_GAME is not None else range(10_000)
    accepted: dict[str, int] = {}
    refused: dict[str, int] = {}
    cases: dict[str, int] = {}
    statuses: dict[int, int] = {}
    steps = ended = played = 0
    for game in games:
        if steps >= STEPS:
            break
        play = play_game(app, client, SEED, game, min(GAME_STEPS, STEPS - steps))
        steps, ended, played = steps + play.calls, ended + play.state.ended, played + 1
        for mine, theirs in ((accepted, play.accepted), (refused, play.refused)):
            for key, n in theirs.items():
                mine[key] = mine.get(key, 0) + n
        for key, n in play.cases.items():
            cases[key] = cases.get(key, 0) + n
        for key, n in play.statuses.items():
            statuses[key] = statuses.get(key, 0) + n
    seconds = time.perf_counter() - started
    print(f"\napi machine: {steps} steps in {played} games ({ended} ended) in {seconds:.1f} s")
    print("answers", dict(sorted(statuses.items())))
    print("done", dict(sorted(accepted.items())))
    print("refused", dict(sorted(refused.items())))
    print("cases", dict(sorted(cases.items())))
    print("violations: 0")
    assert steps >= min(STEPS, 1)
    assert accepted.get("roll", 0) > sum(accepted.values()) / 4, "mostly by roll"


def test_tl1_the_end_time_passing_ends_the_game_with_one_row_of_the_clock(app, client):
    """TL1: after the end time the next action is refused (422) and the clock's end_game is
    the one row a refusal adds; then the game refuses everything (K4) and the stored
    snapshot is still the log replayed."""
    c = RandomChooser(random.Random(14))
    play = ApiPlay(app, client, random_setup(c) | {"mode": "timed", "ends_at": ENDS_AT})
    assert play.tap("pass_go", {"player": 0})
    play.clock_runs_out()
    assert play.state.ended and play.version == 2
    assert [kind for kind, _ in play.log] == ["pass_go", "end_game"]
    refuses_everything_once_ended(play, c, tries=5)
    play.check()
