"""Random play of whole games through the rules core (hypothesis): machine.py's moves, on every
edition, in the classic, short and time-limited modes, with any house rules and starting cash.

Each step is mostly the table's next act (a throw of the dice, or the core's own answer to
what waits: buy or decline, a card, the tax's way, a fresh throw, a debt paid or given up,
bids and the close of an auction, the deal), now and then any other kind of action. After
every action, who gets what (ledger.py): the salary to the mover, rent to the owner of the
deed landed on, a tax or fine to the bank (or the H1 pot), a card's money as the card says,
a debt to its creditor, a bankrupt's cash and deeds to the creditor (K2) or the bank (K3,
K5), an auction's price from the winner to the bank, a trade between its two parties; and
conservation of money and buildings, single ownership, the turn, and the log replayed.

Two profiles, chosen by the environment variable HYPOTHESIS_PROFILE:

- `quick` (the default): a few dozen short games, the same ones every run (derandomized),
  the log replayed after every step: a few seconds, so the rules tier stays fast and never
  flaky.
- `thorough` (for CI's long job): a few hundred longer games, new ones each run; the log
  replayed every 10 steps, after every undo and at each game's end (replaying every step
  costs the square of a game's length):

      HYPOTHESIS_PROFILE=thorough .venv/bin/python -m pytest tests/rules/test_game_machine.py

The 100,000-step run that prints its figures is `python -m bench.random_play`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from .machine import (
    Chooser,
    Play,
    a_move,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
)

QUICK, THOROUGH = "quick", "thorough"
PROFILES = {
    QUICK: settings(
        max_examples=20,
        stateful_step_count=30,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ),
    THOROUGH: settings(
        max_examples=200,
        stateful_step_count=100,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ),
}
REPLAY_EVERY = {QUICK: 1, THOROUGH: 10}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", QUICK)
if PROFILE not in PROFILES:
    raise ValueError(f"HYPOTHESIS_PROFILE is {QUICK} (the default) or {THOROUGH}, not {PROFILE!r}")


class Draw(Chooser):
    """The moves' choices drawn by hypothesis, so that a failure shrinks."""

    def __init__(self, data) -> None:
        self.data = data

    def pick(self, items):
        return self.data.draw(st.sampled_from(list(items)))

    def number(self, low, high):
        return self.data.draw(st.integers(low, high))

    def some(self, items, most):
        if not items:
            return []
        return self.data.draw(st.lists(st.sampled_from(list(items)), max_size=most, unique=True))


class WholeGame(RuleBasedStateMachine):
    """S1-S3, G1, G2, P1-P7, T1, T2, C1-C3, J1-J3, B1-B6, M1-M5, X1-X3, K1-K5, SG1-SG3, TL1,
    H1-H3, R1, R2: a table playing by the dice, answering what waits as the core offers it."""

    play: Play | None = None
    steps = 0

    @initialize(data=st.data())
    def s1_a_new_table(self, data):
        """S1: any edition, mode (SG1, TL1) and house rules (H1-H3), 2 to 8 players."""
        self.play = Play(random_setup(Draw(data)))
        self.play.replay_every = REPLAY_EVERY[PROFILE]

    @precondition(lambda self: not self.play.state.ended)
    @rule(data=st.data())
    def the_table_plays_on(self, data):
        """Mostly the next throw or the answer to what waits; now and then another kind."""
        chooser = Draw(data)
        self.steps += 1
        self.play.move(a_move(chooser), chooser)

    @precondition(lambda self: self.play.state.ended)
    @rule(data=st.data())
    def k4_an_ended_game_refuses_every_action(self, data):
        refuses_everything_once_ended(self.play, Draw(data), tries=1)

    @invariant()
    def the_rule_book_holds_and_the_log_replays_to_the_state(self):
        """S2, S3, B1-B4, X1, C3, R1, J3, K1-K4, SG3 (machine.CHECKS); the state read back from
        JSON, and the log replayed with its undos equal to the state."""
        self.play.check(self.steps)

    def teardown(self):
        if self.play is not None:
            replaying_the_log_gives_the_state(self.play)


WholeGame.TestCase.settings = PROFILES[PROFILE]
test_random_play_keeps_who_gets_what_and_the_rule_book = WholeGame.TestCase
