"""Random play of whole games through the rules core (hypothesis): random_play.py's machine,
on every edition, in the classic, short and time-limited modes, with any house rules and
starting cash. After every action, who gets what (ledger.py): the salary to the mover, rent to
the owner of the deed landed on, a tax or fine to the bank (or the H1 pot), a card's money as
the card says, a debt to its creditor, a bankrupt's cash and deeds to the creditor (K2) or the
bank (K3, K5), an auction's price from the winner to the bank, a trade between its two
parties; and conservation of money and buildings, single ownership, the turn, and the log
replayed.

The quick profile (the default) plays 20 games of 30 steps, the same ones every run; the
thorough one 200 games of 100 steps, new ones each run (or RANDOM_PLAY_STEPS in all):

    HYPOTHESIS_PROFILE=thorough .venv/bin/python -m pytest tests/rules/test_game_machine.py -s

`python -m bench.random_play --steps 100000` runs it so and prints its figures. Every finding
is kept as an example of its own in test_machine_findings.py.
"""

from __future__ import annotations

from hypothesis.stateful import run_state_machine_as_test

from .random_play import TALLY, WholeGame, machine_settings


def test_random_play_keeps_who_gets_what_and_the_rule_book():
    """Every rule of the machine's checks, after every step of every game (see the top)."""
    TALLY.__init__()
    run_state_machine_as_test(WholeGame, settings=machine_settings((20, 30), (200, 100)))
    TALLY.report("the rules core")
    assert TALLY.accepted["roll"] > sum(TALLY.accepted.values()) / 4, "mostly by the dice"
