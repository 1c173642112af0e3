"""Invariants of the property engine under long random play (hypothesis).

A table of three players is dealt colour groups, railroads and the Get Out of Jail Free
cards, then a random banker builds, sells, mortgages, lifts, trades and undoes. After every
step (S3, B2-B6, X1, K1, M4 and the log):

- houses on the board + in the bank = 32, hotels = 12;
- every group is even, and built only when whole, unmortgaged and (for a hotel) full;
- no deed and no card has two holders;
- no cash below zero;
- each accepted action moved exactly the money the rule book says, worked out here from the
  deeds, and the movements it reports account for every change of cash; so the total money
  changes only by the bank's own flows;
- replaying the log gives the same state, and an undo (replayed) gives back the state before.
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from tablebank.rules import HOTEL, RuleError, apply, new_game, replay

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
COLOUR_GROUPS = [g for g in US.groups.values() if g.house_price]
OTHER_DEEDS = [i for g in US.groups.values() if not g.house_price for i in g.deeds]
JAIL_FREE = [c for c in US.cards.values() if c.effect == "jail_free"]
PLAYERS = 3
SEATS = st.integers(0, PLAYERS - 1)


def rule_book_cost(old: int, new: int, price: int, needed: int) -> int:
    """What the bank charges (+) or pays back (-) to take one street from `old` to `new`,
    written out from the rule book: a house at the printed price (B1); a hotel at the price,
    once the street has the houses it needs, which go back to the bank (B3, SG2); every
    building sold back at half (B6), a hotel broken down first into the houses it needs."""
    half = price // 2
    if old == new:
        return 0
    if old == HOTEL:
        return -half + rule_book_cost(needed, new, price, needed)
    if new == HOTEL:
        return max(0, needed - old) * price + price
    return (new - old) * (price if new > old else half)


def lift_price(mortgage: int) -> int:
    return mortgage + math.ceil(mortgage / 10)  # M3


class PropertyTable(RuleBasedStateMachine):
    """The bank under a random banker's taps; a refused tap must change nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.setup: dict = {}
        self.log: list[tuple[str, dict]] = []
        self.states = []  # the state after each action in force, the setup's first
        self.flows: list[int] = []  # what the bank paid out minus took in, per action in force
        self.refusals = 0

    @property
    def state(self):
        return self.states[-1]

    # -- setting the table ---------------------------------------------------------------------

    @initialize(
        mode=st.sampled_from(["classic", "short"]),
        cash=st.sampled_from([1500, 4000, 8000, 20000]),
        owners=st.lists(
            st.sampled_from([0, 1, 2, 0, 1, 2, None]),
            min_size=len(COLOUR_GROUPS),
            max_size=len(COLOUR_GROUPS),
        ),
        others=st.lists(SEATS, min_size=len(OTHER_DEEDS), max_size=len(OTHER_DEEDS)),
        cards=st.lists(SEATS, min_size=len(JAIL_FREE), max_size=len(JAIL_FREE)),
    )
    def deal(self, mode, cash, owners, others, cards):
        """Each colour group to one player (or left with the bank), the other deeds at random,
        the jail free cards too, all through the log so that replay starts from the setup."""
        self.setup = setup_of(starting_cash=cash, mode=mode)
        self.states = [new_game(US, self.setup)]
        for group, seat in zip(COLOUR_GROUPS, owners, strict=True):
            for deed in group.deeds if seat is not None else ():
                self.tap("buy", {"player": seat, "deed": deed})
        for deed, seat in zip(OTHER_DEEDS, others, strict=True):
            self.tap("buy", {"player": seat, "deed": deed})
        for card, seat in zip(JAIL_FREE, cards, strict=True):
            self.tap("card", {"player": seat, "card": card.id})

    # -- one tap -------------------------------------------------------------------------------

    def tap(self, kind: str, payload: dict) -> None:
        before = self.state
        kept = before.to_dict()
        try:
            outcome = apply(before, US, kind, payload)
        except RuleError as refusal:
            assert before.to_dict() == kept, "a refused action changed the state"
            assert refusal.rule and refusal.message
            self.refusals += 1
            return
        after = outcome.state
        change = [a.cash - b.cash for a, b in zip(after.players, before.players, strict=True)]
        moved = [0] * PLAYERS
        flow = 0
        for move in outcome.movements:
            assert move.amount > 0
            if move.payer is None:
                flow += move.amount
            else:
                moved[move.payer] -= move.amount
            if move.payee is None:
                flow -= move.amount
            else:
                moved[move.payee] += move.amount
        assert change == moved, "cash changed without a movement saying so"
        expected = self.rule_book(before, kind, payload)
        if expected is not None:
            assert change == expected, (kind, payload, change, expected)
        self.log.append((kind, payload))
        self.states.append(after)
        self.flows.append(flow)

    def rule_book(self, before, kind: str, payload: dict) -> list[int] | None:
        """Each player's change of cash, worked out from the deeds without the rules core."""
        change = [0] * PLAYERS
        if kind == "build":
            group = US.groups[payload["group"]]
            needed = self.needed
            olds = [before.deeds[i].houses for i in group.deeds]
            cost = sum(
                rule_book_cost(o, n, group.house_price, needed)
                for o, n in zip(olds, payload["levels"], strict=True)
            )
            change[payload["player"]] -= cost
        elif kind == "mortgage":
            group = US.group_of(payload["deed"])
            refund = -sum(
                rule_book_cost(before.deeds[i].houses, 0, group.house_price or 0, self.needed)
                for i in group.deeds
            )
            change[payload["player"]] += refund + US.spaces[payload["deed"]].mortgage  # M1
        elif kind == "lift":
            change[payload["player"]] -= lift_price(US.spaces[payload["deed"]].mortgage)
        elif kind == "trade":
            player, partner = payload["player"], payload["partner"]
            for giver, taker, side in ((player, partner, "give"), (partner, player, "take")):
                cash = payload[side].get("cash", 0)
                change[giver] -= cash
                change[taker] += cash
                for deed in payload[side].get("deeds", []):
                    if before.deeds[deed].mortgaged:  # M4
                        value = US.spaces[deed].mortgage
                        lifted = deed in payload.get("lift", [])
                        change[taker] -= lift_price(value) if lifted else math.ceil(value / 10)
        else:
            return None
        return change

    # -- what the banker taps ------------------------------------------------------------------

    @property
    def needed(self) -> int:
        return 3 if self.state.settings.mode == "short" else 4  # B3, SG2

    def whole_groups(self):
        found = []
        for group in COLOUR_GROUPS:
            owners = {self.state.deeds[i].owner for i in group.deeds}
            if len(owners) == 1 and None not in owners:
                found.append((group, owners.pop()))
        return found

    @rule(data=st.data(), heights=st.lists(st.integers(0, HOTEL), min_size=1, max_size=3))
    def build_whole_groups(self, data, heights):
        """Set groups someone holds whole to a height each, sometimes one street a step lower:
        enough building to run the bank short of houses (B5) and hotels into shortages (B6)."""
        whole = self.whole_groups()
        for height in heights if whole else ():
            group, seat = data.draw(st.sampled_from(whole))
            levels = [height] * len(group.deeds)
            if height and data.draw(st.booleans()):
                levels[data.draw(st.integers(0, len(levels) - 1))] = height - 1
            self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(data=st.data())
    def sell_one_step(self, data):
        """One street of a built group a step down: a house sold, or a hotel broken down."""
        built = [
            (g, s)
            for g, s in self.whole_groups()
            if any(self.state.deeds[i].houses for i in g.deeds)
        ]
        if built:
            group, seat = data.draw(st.sampled_from(built))
            levels = [self.state.deeds[i].houses for i in group.deeds]
            at = data.draw(st.sampled_from([k for k, n in enumerate(levels) if n]))
            levels[at] = levels[at] - 1 if levels[at] < HOTEL else self.needed
            self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule()
    def four_houses_wherever_there_is_no_hotel(self):
        """Every whole group without a hotel built up to four houses a street, as far as the
        bank's houses and the players' cash go: the way houses run short (B5)."""
        for group, seat in self.whole_groups():
            if not any(self.state.deeds[i].houses == HOTEL for i in group.deeds):
                levels = [4] * len(group.deeds)
                self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(data=st.data())
    def break_the_hotels_down(self, data):
        """Every hotel of a group back to the houses it needs: the bank must have them (B6)."""
        hotels = [
            (g, s)
            for g, s in self.whole_groups()
            if any(self.state.deeds[i].houses == HOTEL for i in g.deeds)
        ]
        if hotels:
            group, seat = data.draw(st.sampled_from(hotels))
            levels = [min(self.state.deeds[i].houses, self.needed) for i in group.deeds]
            self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(
        seat=SEATS,
        group=st.sampled_from(COLOUR_GROUPS),
        data=st.data(),
    )
    def build_anything(self, seat, group, data):
        """Any levels on any group by anyone: mostly refused (B1, B2, B4, B5, B6, K1)."""
        levels = data.draw(
            st.lists(st.integers(0, HOTEL), min_size=len(group.deeds), max_size=len(group.deeds))
        )
        self.tap("build", {"player": seat, "group": group.id, "levels": levels})

    @rule(data=st.data(), by_owner=st.booleans())
    def mortgage(self, data, by_owner):
        held = [i for i, d in self.state.deeds.items() if d.owner is not None]
        if held:
            deed = data.draw(st.sampled_from(sorted(held)))
            seat = self.state.deeds[deed].owner if by_owner else data.draw(SEATS)
            self.tap("mortgage", {"player": seat, "deed": deed})

    @rule(data=st.data(), by_owner=st.booleans())
    def lift(self, data, by_owner):
        mortgaged = [i for i, d in self.state.deeds.items() if d.mortgaged]
        if mortgaged:
            deed = data.draw(st.sampled_from(sorted(mortgaged)))
            seat = self.state.deeds[deed].owner if by_owner else data.draw(SEATS)
            self.tap("lift", {"player": seat, "deed": deed})

    @rule(
        data=st.data(),
        cash=st.integers(0, 700),
        partner_pays=st.booleans(),
        lift_some=st.booleans(),
    )
    def trade(self, data, cash, partner_pays, lift_some):
        player, partner = data.draw(st.permutations(range(PLAYERS)))[:2]

        def pick(seat):
            held = sorted(self.state.held_by(seat))
            return (
                data.draw(st.lists(st.sampled_from(held), max_size=3, unique=True)) if held else []
            )

        give, take = pick(player), pick(partner)
        cards = [len(self.state.players[s].jail_free) for s in (player, partner)]
        give_cards = data.draw(st.integers(0, cards[0]))
        take_cards = data.draw(st.integers(0, cards[1]))
        mortgaged = [d for d in give + take if self.state.deeds[d].mortgaged]
        lift = (
            data.draw(st.lists(st.sampled_from(mortgaged), unique=True))
            if mortgaged and lift_some
            else []
        )
        payload = {
            "player": player,
            "partner": partner,
            "give": {"deeds": give, "cash": 0 if partner_pays else cash, "jail_free": give_cards},
            "take": {"deeds": take, "cash": cash if partner_pays else 0, "jail_free": take_cards},
            "lift": lift,
        }
        self.tap("trade", payload)

    @rule()
    def undo(self):
        """Undo is an action of its own: the replayed log must give the state before."""
        if len(self.states) > 1:
            self.log.append(("undo", {}))
            self.states.pop()
            self.flows.pop()
            assert replay(US, self.setup, self.log) == self.state

    # -- after every step ----------------------------------------------------------------------

    @invariant()
    def s3_houses_and_hotels_on_the_board_and_in_the_bank_add_up(self):
        built = [d.houses for d in self.state.deeds.values()]
        assert self.state.houses >= 0 and self.state.hotels >= 0
        assert sum(h for h in built if h != HOTEL) + self.state.houses == US.houses == 32
        assert built.count(HOTEL) + self.state.hotels == US.hotels == 12

    @invariant()
    def b2_b4_every_group_is_even_and_built_only_whole_unmortgaged_and_full(self):
        needed = self.needed
        for group in COLOUR_GROUPS:
            deeds = [self.state.deeds[i] for i in group.deeds]
            heights = [needed + 1 if d.houses == HOTEL else d.houses for d in deeds]
            assert max(heights) - min(heights) <= 1, group.id
            assert all(0 <= d.houses <= HOTEL for d in deeds)
            if any(heights):
                assert len({d.owner for d in deeds}) == 1 and deeds[0].owner is not None
                assert not any(d.mortgaged for d in deeds)
            if any(d.houses == HOTEL for d in deeds):
                assert min(heights) >= needed

    @invariant()
    def x1_no_deed_or_card_has_two_holders(self):
        held = [i for p in self.state.players for i in self.state.held_by(p.seat)]
        assert len(held) == len(set(held))
        assert all(d.owner in (None, 0, 1, 2) for d in self.state.deeds.values())
        assert all(d.owner is not None for d in self.state.deeds.values() if d.mortgaged)
        cards = [deck for p in self.state.players for deck in p.jail_free]
        assert len(cards) == len(set(cards)) <= len(JAIL_FREE)

    @invariant()
    def k1_no_cash_below_zero(self):
        assert all(p.cash >= 0 for p in self.state.players)

    @invariant()
    def money_changes_only_by_the_bank_s_own_flows(self):
        start = PLAYERS * self.setup["starting_cash"]
        assert sum(p.cash for p in self.state.players) == start + sum(self.flows)

    @invariant()
    def replaying_the_log_gives_the_same_state(self):
        assert replay(US, self.setup, self.log) == self.state


PropertyTable.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_b2_b6_m1_m4_x1_s3_invariants_under_random_property_play = PropertyTable.TestCase
