"""What tests share that needs neither Flask nor a database: the database under test, the
hypothesis profile, the product's editions, a game's setup, board constants, and `Table`, a
game in the rules core played the way a table plays it. (The rules tests run with only pytest
and hypothesis installed: see .ci/run.)"""

from __future__ import annotations

import os

import pytest
from tablebank.edition_files import load_editions
from tablebank.rules import RuleError, apply, new_game
from tablebank.rules.moves import waits
from tablebank.rules.state import GameState

# The database server under test: PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) names
# one, else SQLite files.
SERVER = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL") or ""
POSTGRES = SERVER.startswith(("postgres://", "postgresql"))

# The hypothesis profile (tests/conftest.py registers both): `quick`, the default, tries the
# same few examples every run, so the suite stays fast and a failure is never luck; `thorough`
# (HYPOTHESIS_PROFILE=thorough, for CI's long job and bench/random_play.py) tries many new ones.
QUICK, THOROUGH = "quick", "thorough"
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", QUICK)
if PROFILE not in (QUICK, THOROUGH):
    raise ValueError(f"HYPOTHESIS_PROFILE is {QUICK} (the default) or {THOROUGH}, not {PROFILE!r}")


def examples(quick: int, thorough: int) -> int:
    """How many examples a hypothesis test tries in the profile under way. FUZZ_EXAMPLES sets
    the fuzzers' count outright (tests/server/test_fuzz_*.py)."""
    return thorough if PROFILE == THOROUGH else quick


ALL_EDITIONS = load_editions()
US = ALL_EDITIONS["us-classic"]
US2008 = ALL_EDITIONS["us-2008"]
PALETTE = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c"]

# Spaces of the US boards (the same indices on every edition's board)
GO, INCOME_TAX, READING, CHANCE, JAIL, ELECTRIC = 0, 4, 5, 7, 10, 12
CHEST, PARKING, WATER, GO_TO_JAIL, LUXURY_TAX = 17, 20, 28, 30, 38
MEDITERRANEAN, BALTIC, ORIENTAL, VERMONT, CONNECTICUT, ILLINOIS = 1, 3, 6, 8, 9, 24
PACIFIC, PENNSYLVANIA, PARK_PLACE, BOARDWALK = 31, 34, 37, 39
RAILROADS = (5, 15, 25, 35)
BROWN = (MEDITERRANEAN, BALTIC)
LIGHT_BLUE = (ORIENTAL, VERMONT, CONNECTICUT)
ORANGE = (16, 18, 19)
GREEN = (PACIFIC, 32, PENNSYLVANIA)
DARK_BLUE = (PARK_PLACE, BOARDWALK)


def setup_of(names=("Ana", "Bea", "Cal"), **settings) -> dict:
    players = [{"name": n, "colour": c} for n, c in zip(names, PALETTE, strict=False)]
    return {"edition": "us-classic", "players": players, **settings}


def paid(outcome) -> list[tuple[int | None, int | None, int]]:
    """Who paid whom how much in an action, in order: (payer, payee, amount), None the bank."""
    return [(m.payer, m.payee, m.amount) for m in outcome.movements]


def card_of(edition, effect: str, **match):
    """The first card of the edition with this effect (and these fields)."""
    return next(
        c
        for c in edition.cards.values()
        if c.effect == effect and all(getattr(c, k) == v for k, v in match.items())
    )


class Table:
    """A game in the rules core, played as at a real table: `throws` the dice and makes the
    choices its landing leaves; `own` and `put` set the board up. Each action is applied
    through `apply`, so the state only ever holds what the rules allowed."""

    def __init__(self, edition=US, names=("Ana", "Bea", "Cal"), **settings) -> None:
        self.edition = edition
        self.state: GameState = new_game(edition, setup_of(names, **settings))
        self.outcome = None

    # -- setting the board up (not actions: the position the test starts from) --

    def own(self, seat: int, *deeds: int, houses: int = 0, mortgaged=()) -> Table:
        for index in deeds:
            self.state.deeds[index].owner = seat
            if self.edition.spaces[index].kind == "street":
                self.state.deeds[index].houses = houses
            self.state.deeds[index].mortgaged = index in mortgaged
        return self

    def put(self, seat: int, position: int | None = None, **fields) -> Table:
        player = self.state.players[seat]
        if position is not None:
            player.position = position
        for key, value in fields.items():
            setattr(player, key, value)
        return self

    def turn_of(self, seat: int) -> Table:
        self.state.turn, self.state.doubles = seat, 0
        self.state.moved = self.state.again = False
        return self

    # -- actions --

    def do(self, kind: str, **payload):
        self.outcome = apply(self.state, self.edition, kind, payload)
        self.state = self.outcome.state
        return self.outcome

    def roll(self, seat: int, dice: int, doubles: bool = False, *choices: dict):
        payload = {"player": seat, "dice": dice, "doubles": doubles}
        if choices:
            payload["choices"] = list(choices)
        return self.do("roll", **payload)

    def throws_onto(self, seat: int, space: int, dice: int = 7, *choices: dict):
        """`seat` throws `dice` (not doubles) from the space that many steps before `space`."""
        self.turn_of(seat).put(seat, (space - dice) % 40)
        return self.roll(seat, dice, False, *choices)

    def draws(self, seat: int, card, space: int | None = None, *choices: dict):
        """`seat` throws 7 onto `space` (by default the deck's first space past GO, reached
        without passing GO) and draws `card` there; `choices` answer what its move leaves."""
        if space is None:
            space = next(s.index for s in self.edition.spaces[7:] if s.kind == card.deck)
        return self.throws_onto(seat, space, 7, {"kind": "card", "card": card.id}, *choices)

    def refused(self, kind: str, **payload) -> RuleError:
        """The refusal of an action, which changes nothing."""
        before = self.state.to_dict()
        with pytest.raises(RuleError) as refusal:
            self.do(kind, **payload)
        assert self.state.to_dict() == before, "a refused action changed the state"
        return refusal.value

    def copy(self) -> Table:
        """Another table from the same position (to play two ways on from one state)."""
        other = Table.__new__(Table)
        other.edition, other.state, other.outcome = self.edition, self.state.copy(), None
        return other

    # -- what a person reads --

    def cash(self, seat: int | None = None):
        if seat is None:
            return [p.cash for p in self.state.players]
        return self.state.players[seat].cash

    def waits(self):
        return waits(self.state, self.edition)

    def waiting(self) -> list[tuple[str, int | None]]:
        return [(w.what, w.seat) for w in self.waits()]


def calls_of(monkeypatch, owner, name: str, noted=lambda *args: args) -> list:
    """Every call of `owner.name` while the test runs, each as `noted(*args)` gives it (the
    call itself goes on as before)."""
    found: list = []
    original = getattr(owner, name)

    def counting(*args):
        found.append(noted(*args))
        return original(*args)

    monkeypatch.setattr(owner, name, counting)
    return found
