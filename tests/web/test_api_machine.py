"""The whole game under random play through the JSON API and the players' phones, on the
test database (SQLite, or PostgreSQL when DATABASE_URL names one): see api_machine.py.

Every action kind, every edition and mode; after every tap: never a 500, 201 exactly when the
rules core accepts (400/422 with its rule otherwise), one log row per action done and none per
refusal, the stored snapshot equal to the game's state and to the log replayed (undo: the
state before, exactly; K4: an ended game refuses everything). Long runs: bench/soak.py --api.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ..rules.machine import CHECKS, MOVES, random_setup, refuses_everything_once_ended
from ..rules.test_game_machine import Draw
from .api_machine import ApiPlay

SHORT = settings(
    max_examples=6,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def machine_on(app, client):
    class ApiGame(RuleBasedStateMachine):
        play: ApiPlay

        @initialize(data=st.data())
        def s1_a_new_game_through_the_api(self, data):
            self.play = ApiPlay(app, client, random_setup(Draw(data)))

        @precondition(lambda self: self.play.state.ended)
        @rule(data=st.data())
        def k4_an_ended_game_refuses_every_action(self, data):
            refuses_everything_once_ended(self.play, Draw(data), tries=1)

        @precondition(lambda self: self.play.setup["mode"] == "timed" and not self.play.state.ended)
        @rule()
        def tl1_the_end_time_passes(self):
            self.play.clock_runs_out()

        @invariant()
        def the_rule_book_holds(self):
            """S2, S3, B1-B4, X1, C3, K1-K4, SG3 on the mirror the store must equal."""
            for check in CHECKS:
                check(self.play)

    for name in MOVES:

        def tap(self, data, name=name):
            self.play.move(name, Draw(data))

        tap.__name__ = name
        setattr(ApiGame, name, rule(data=st.data())(tap))
    return ApiGame


def test_every_action_kind_through_the_api_keeps_store_log_and_rules_in_step(app, client):
    """K4, S2, S3 and the log: random play through the API on this test's database."""
    run_state_machine_as_test(lambda: machine_on(app, client)(), settings=SHORT)
