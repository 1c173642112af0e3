"""The random-play machine: whole games played by hypothesis through machine.py's `Play`, on
every edition, in the classic, short and time-limited modes, with any house rules and starting
cash. One machine for the rules core (`WholeGame`, test_game_machine.py) and, with its table
made by tests/web/api_machine.py, for the JSON API and the players' phones
(tests/web/test_api_machine.py).

Each step is mostly the table's next act (a throw of the dice, or the core's own answer to
what waits: buy or decline, a card, the tax's way, a fresh throw, a debt paid or given up,
bids and the close of an auction, the deal), now and then any other kind of action. After
every action, who gets what (ledger.py); after every step, the rule book's invariants
(machine.CHECKS) and, every few steps and after every undo, the log replayed.

How much is played comes from the hypothesis profile (tests/support.py): `quick`, the
default, plays the same few short games every run (seconds); `thorough` many longer new ones.
RANDOM_PLAY_STEPS asks a thorough run for about that many steps in all (bench/random_play.py).
With `-s`, a run prints its figures as one line: `random play: {...}` (steps, games, each
kind accepted and refused, the cases seen).
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from tablebank.rules import KINDS

from ..support import PROFILE, THOROUGH
from .machine import (
    Chooser,
    Play,
    a_move,
    random_setup,
    refuses_everything_once_ended,
    replaying_the_log_gives_the_state,
)

FIGURES = "random play: "  # the start of the line a run prints its figures on
REPLAY_EVERY = 10 if PROFILE == THOROUGH else 1  # replaying costs the square of a game's length


def machine_settings(quick: tuple[int, int], thorough: tuple[int, int]) -> settings:
    """Games and steps per game: `quick` in the suite, `thorough` in the thorough profile,
    where RANDOM_PLAY_STEPS sets how many games make about that many steps."""
    games, steps = thorough if PROFILE == THOROUGH else quick
    wanted = int(os.environ.get("RANDOM_PLAY_STEPS") or 0)
    if PROFILE == THOROUGH and wanted:
        games = max(1, -(-wanted // steps))
    return settings(
        max_examples=games,
        stateful_step_count=steps,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
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
            return []
        return self.data.draw(st.lists(st.sampled_from(list(items)), max_size=most, unique=True))


class Tally:
    """What a run played: steps, games, each kind accepted and refused, the cases seen."""

    def __init__(self) -> None:
        self.steps = self.games = self.ended = 0
        self.accepted = dict.fromkeys(KINDS, 0)
        self.refused = dict.fromkeys(KINDS, 0)
        self.cases: dict[str, int] = {}
        self.answers: dict[str, int] = {}

    def add(self, play: Play, steps: int) -> None:
        self.steps, self.games = self.steps + steps, self.games + 1
        self.ended += bool(play.state.ended)
        for mine, theirs in ((self.accepted, play.accepted), (self.refused, play.refused)):
            for kind, n in theirs.items():
                mine[kind] = mine.get(kind, 0) + n
        for case, n in play.cases.items():
            self.cases[case] = self.cases.get(case, 0) + n
        for status, n in getattr(play, "statuses", {}).items():
            self.answers[str(status)] = self.answers.get(str(status), 0) + n

    def never(self) -> list[str]:
        """The declared kinds never accepted."""
        return sorted(kind for kind in KINDS if not self.accepted.get(kind))

    def report(self, via: str) -> None:
        figures = {
            "via": via,
            "profile": PROFILE,
            "steps": self.steps,
            "games": self.games,
            "ended": self.ended,
            "kinds": len(KINDS),
            "kinds_exercised": len(KINDS) - len(self.never()),
            "never": self.never(),
            "accepted": self.accepted,
            "refused": self.refused,
            "cases": dict(sorted(self.cases.items())),
            "answers": self.answers,
        }
        print(f"\n{FIGURES}{json.dumps(figures)}")


TALLY = Tally()


class WholeGame(RuleBasedStateMachine):
    """S1-S3, G1, G2, P1-P7, T1, T2, C1-C3, J1-J3, B1-B6, M1-M5, X1-X3, K1-K5, SG1-SG3, TL1,
    H1-H3, R1, R2: a table playing by the dice, answering what waits as the core offers it."""

    play: Play | None = None
    steps = 0
    replay_every = REPLAY_EVERY

    # -- what a variant of the machine changes (tests/web/api_machine.py) --------------------

    def new_table(self, setup: dict) -> Play:
        return Play(setup)

    def a_setup(self, c: Chooser) -> dict:
        return random_setup(c)

    def a_move_name(self, c: Chooser) -> str:
        return a_move(c)

    def between_moves(self, c: Chooser) -> None:
        """What may happen at the table between two moves, besides them."""

    # -- the machine ---------------------------------------------------------------------------

    @initialize(data=st.data())
    def s1_a_new_table(self, data):
        """S1: any edition, mode (SG1, TL1) and house rules (H1-H3), 2 to 8 players."""
        self.play = self.new_table(self.a_setup(Draw(data)))
        self.play.replay_every = self.replay_every

    @precondition(lambda self: not self.play.state.ended)
    @rule(data=st.data())
    def the_table_plays_on(self, data):
        """Mostly the next throw or the answer to what waits; now and then another kind."""
        chooser = Draw(data)
        self.steps += 1
        self.between_moves(chooser)
        if not self.play.state.ended:
            self.play.move(self.a_move_name(chooser), chooser)

    @precondition(lambda self: self.play.state.ended)
    @rule(data=st.data())
    def k4_an_ended_game_refuses_every_action(self, data):
        self.steps += 1
        refuses_everything_once_ended(self.play, Draw(data), tries=1)

    @invariant()
    def the_rule_book_holds_and_the_log_replays_to_the_state(self):
        """S2, S3, B1-B4, X1, C3, R1, J3, K1-K4, SG3 (machine.CHECKS); the state read back from
        JSON, and the log replayed with its undos equal to the state."""
        self.play.check(self.steps)

    def teardown(self):
        if self.play is not None:
            replaying_the_log_gives_the_state(self.play)
            TALLY.add(self.play, self.steps)
