"""Random play of whole games through the JSON API (and now and then a player's phone), on the
test database (SQLite, or PostgreSQL when DATABASE_URL names one): the random-play machine of
tests/rules/random_play.py with its table made by api_machine.py.

Each step is mostly the table's next act as the API's `pending` says it, now and then any
other kind. After every step: never a 500; a refusal changes nothing and the rules core
refuses it too; an action done is one row of the history whose movements go to the party the
rule book names (R1, G1, P1-P7, T1, T2, C1-C3, J1-J3, H1, K1-K5, SG1, SG3, M1-M4, B1-B6, X1);
the snapshot is the log replayed; the API's game and pending are the store's.

The quick profile (the default) plays 10 games of 30 steps, the same ones every run; the
thorough one 40 games of 100 steps, new ones each run (or RANDOM_PLAY_STEPS in all):

    HYPOTHESIS_PROFILE=thorough .venv/bin/python -m pytest tests/web/test_api_machine.py -s

`python -m bench.random_play --api sqlite` (or `postgres`) runs it so and prints its figures.
"""

from __future__ import annotations

import random

from hypothesis.stateful import run_state_machine_as_test

from ..rules.machine import (
    ENDS_AT,
    RandomChooser,
    random_setup,
    refuses_everything_once_ended,
)
from ..rules.random_play import TALLY, machine_settings
from .api_machine import ApiGame, ApiPlay


def test_random_play_through_the_api_keeps_store_log_and_rules_in_step(app, client):
    """K1-K5, R1, S2 and who gets what, through the API: every step checked (see the top)."""
    TALLY.__init__()
    game = machine_settings((10, 30), (40, 100))
    run_state_machine_as_test(lambda: ApiGame(app, client), settings=game)
    TALLY.report("the JSON API and the phones")
    assert TALLY.accepted["roll"] > sum(TALLY.accepted.values()) / 4, "mostly by the dice"


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
