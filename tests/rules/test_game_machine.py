"""The whole game under random play (hypothesis): every action kind the rules core accepts, on
every edition, in the classic, short and time-limited modes, with any house rules.

One rule per action kind (tests/rules/machine.py draws its fields from the state, so most
taps are legal and some are not). After every step: S2 money (cash, the bank's flow, the H1
pot), S3 supply, B1-B4 groups, X1/C3 one holder per deed and card, K1 no cash below zero,
K2/K3 a bankrupt player holds nothing and never acts again, K3 the auction queue, K4/SG3 the
end, an ended game refusing every action, the state read back from JSON, and the log
replayed (undo included) equal to the state. A refused tap changes nothing.

The CI profile is short; long runs go through bench/soak.py (same moves, same checks).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from .machine import (
    CHECKS,
    MOVES,
    Chooser,
    Play,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
    the_state_survives_the_database,
)


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
            return []  # e.g. a third deal once the bank has no deed left
        return self.data.draw(st.lists(st.sampled_from(list(items)), max_size=most, unique=True))


class WholeGame(RuleBasedStateMachine):
    """S1-S3, G1, P1-P7, T1, T2, C1-C3, J1-J3, B1-B6, M1-M5, X1-X3, K1-K4, SG1-SG3, TL1,
    H1-H3, R1, R2: a table under a random banker, one rule per action kind."""

    play: Play

    @initialize(data=st.data())
    def s1_a_new_table(self, data):
        """S1: any edition, mode (SG1, TL1) and house rules (H1-H3), 2 to 8 players."""
        self.play = Play(random_setup(Draw(data)))

    def move(self, name: str, data) -> None:
        self.play.move(name, Draw(data))

    @precondition(lambda self: self.play.state.ended)
    @rule(data=st.data())
    def k4_an_ended_game_refuses_every_action(self, data):
        refuses_everything_once_ended(self.play, Draw(data), tries=1)

    @invariant()
    def the_rule_book_holds(self):
        """S2, S3, B1-B4, X1, C3, K1-K4, SG3: see machine.CHECKS."""
        for check in CHECKS:
            check(self.play)

    @invariant()
    def the_log_replays_to_the_state_and_the_state_to_json(self):
        """Undo restores the state before the action exactly: replay of the log agrees."""
        the_state_survives_the_database(self.play)
        replaying_the_log_gives_the_state(self.play)


def _rule_for(name: str):
    def tap(self, data):
        self.move(name, data)

    tap.__name__ = name
    tap.__doc__ = f"The banker taps {name} (rules: see app/rules, KINDS[{name!r}])."
    return rule(data=st.data())(tap)


for _name in MOVES:  # one rule per action kind, undo included
    setattr(WholeGame, _name, _rule_for(_name))


WholeGame.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_every_action_kind_keeps_the_rule_book = WholeGame.TestCase
