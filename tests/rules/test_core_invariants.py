"""Invariants under long random play (hypothesis): building, selling, mortgaging, lifting,
trading and undoing, checked after every step (S3, B2, X1, K1, and replay of the log)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from tablebank.rules import HOTEL, RuleError, apply, new_game, replay
from tablebank.rules.property import level

from ..support import ALL_EDITIONS

US = ALL_EDITIONS["us-classic"]
DEEDS = [d.index for d in US.deeds]
COLOUR_GROUPS = [g for g in US.groups.values() if g.house_price]
SEATS = st.integers(0, 2)


def setup(mode: str) -> dict:
    names = ("Ana", "Bea", "Cal")
    players = [{"name": n, "colour": "#336699"} for n in names]
    return {"edition": "us-classic", "players": players, "starting_cash": 6000, "mode": mode}


class Table(RuleBasedStateMachine):
    """A bank under random banker taps; refused taps must change nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.setup = setup("classic")
        self.state = new_game(US, self.setup)
        self.log: list[tuple[str, dict]] = []
        self.history = [self.state]
        self.bank_flow = 0  # money the bank paid out minus money it took in

    @initialize()
    def deal_some_groups(self):
        """A table mid-game: each player holds two colour groups and a railroad."""
        for n, group in enumerate(COLOUR_GROUPS[:6]):
            for deed in group.deeds:
                self.tap("buy", {"player": n % 3, "deed": deed})
        for seat, railroad in enumerate((5, 15, 25)):
            self.tap("buy", {"player": seat, "deed": railroad})

    def tap(self, kind: str, payload: dict) -> None:
        before = self.state
        try:
            outcome = apply(before, US, kind, payload)
        except RuleError:
            assert self.state == before
            return
        for move in outcome.movements:
            assert move.amount > 0
            if move.payer is None:
                self.bank_flow += move.amount
            if move.payee is None:
                self.bank_flow -= move.amount
        self.state = outcome.state
        self.log.append((kind, payload))
        self.history.append(self.state)

    @rule(seat=SEATS, deed=st.sampled_from(DEEDS))
    def buy(self, seat, deed):
        self.tap("buy", {"player": seat, "deed": deed})

    @rule(seat=SEATS, group=st.sampled_from(COLOUR_GROUPS))
    def buy_group(self, seat, group):
        for deed in group.deeds:
            self.tap("buy", {"player": seat, "deed": deed})

    @rule(seat=SEATS, group=st.sampled_from(COLOUR_GROUPS), data=st.data())
    def build(self, seat, group, data):
        levels = data.draw(
            st.lists(st.integers(0, HOTEL), min_size=len(group.deeds), max_size=len(group.deeds))
        )
        self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(data=st.data(), height=st.integers(0, HOTEL), step=st.integers(-1, 1))
    def build_on_a_whole_group(self, data, height, step):
        """Most taps aim at a group someone holds whole: set it to a height, +/- one street."""
        whole = [
            (g, self.state.deeds[g.deeds[0]].owner)
            for g in COLOUR_GROUPS
            if len({self.state.deeds[i].owner for i in g.deeds}) == 1
            and self.state.deeds[g.deeds[0]].owner is not None
        ]
        if not whole:
            return
        group, seat = data.draw(st.sampled_from(whole))
        levels = [height] * len(group.deeds)
        levels[0] = min(max(height + step, 0), HOTEL)
        self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(data=st.data(), cash=st.integers(0, 300), lift=st.booleans())
    def trade_held_deeds(self, data, cash, lift):
        seat, partner = data.draw(st.permutations([0, 1, 2]))[:2]
        mine = self.state.held_by(seat)
        theirs = self.state.held_by(partner)
        give = data.draw(st.lists(st.sampled_from(mine), max_size=2, unique=True)) if mine else []
        take = (
            data.draw(st.lists(st.sampled_from(theirs), max_size=2, unique=True)) if theirs else []
        )
        payload = {
            "player": seat,
            "partner": partner,
            "give": {"deeds": give},
            "take": {"deeds": take, "cash": cash},
            "lift": give + take if lift else [],
        }
        self.tap("trade", payload)

    @rule(data=st.data())
    def mortgage_or_lift_a_held_deed(self, data):
        held = [i for i in DEEDS if self.state.deeds[i].owner is not None]
        if held:
            deed = data.draw(st.sampled_from(held))
            kind = "lift" if self.state.deeds[deed].mortgaged else "mortgage"
            self.tap(kind, {"player": self.state.deeds[deed].owner, "deed": deed})

    @rule(seat=SEATS, deed=st.sampled_from(DEEDS))
    def mortgage(self, seat, deed):
        self.tap("mortgage", {"player": seat, "deed": deed})

    @rule(seat=SEATS, deed=st.sampled_from(DEEDS))
    def lift(self, seat, deed):
        self.tap("lift", {"player": seat, "deed": deed})

    @rule(
        seat=SEATS,
        partner=SEATS,
        give=st.lists(st.sampled_from(DEEDS), max_size=2, unique=True),
        take=st.lists(st.sampled_from(DEEDS), max_size=2, unique=True),
        cash=st.integers(0, 600),
        lift=st.booleans(),
    )
    def trade(self, seat, partner, give, take, cash, lift):
        payload = {
            "player": seat,
            "partner": partner,
            "give": {"deeds": give, "cash": cash},
            "take": {"deeds": take},
            "lift": give + take if lift else [],
        }
        self.tap("trade", payload)

    @rule(seat=SEATS, deed=st.sampled_from(DEEDS), dice=st.integers(2, 12))
    def rent(self, seat, deed, dice):
        self.tap("rent", {"player": seat, "deed": deed, "dice": dice})

    @rule()
    def undo(self):
        if len(self.history) > 1:
            self.log.append(("undo", {}))
            self.history.pop()
            self.state = self.history[-1]
            self.bank_flow = self.flow_of_history()

    def flow_of_history(self) -> int:
        start = sum(p.cash for p in self.history[0].players)
        return sum(p.cash for p in self.state.players) - start

    @invariant()
    def s3_buildings_on_the_board_and_in_the_bank_add_up(self):
        built = [d.houses for d in self.state.deeds.values()]
        assert sum(h for h in built if h < HOTEL) + self.state.houses == 32
        assert built.count(HOTEL) + self.state.hotels == 12

    @invariant()
    def b2_every_group_is_even_and_built_only_when_whole(self):
        for group in COLOUR_GROUPS:
            deeds = [self.state.deeds[i] for i in group.deeds]
            heights = [level(d.houses, self.state) for d in deeds]
            assert max(heights) - min(heights) <= 1
            if any(heights):
                assert len({d.owner for d in deeds}) == 1 and deeds[0].owner is not None
                assert not any(d.mortgaged for d in deeds)

    @invariant()
    def k1_no_cash_below_zero(self):
        assert all(p.cash >= 0 for p in self.state.players)

    @invariant()
    def money_moves_only_by_the_bank_s_own_rules(self):
        assert self.flow_of_history() == self.bank_flow

    @invariant()
    def replaying_the_log_gives_the_same_state(self):
        assert replay(US, self.setup, self.log) == self.state


Table.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_invariants_under_random_building_mortgages_and_trades = Table.TestCase
