"""Rules core: auctions (P1), bankruptcy (K1-K4), short and time-limited games (SG1-SG4, TL1)
and the house rules H1-H3, with figures from the deeds."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, apply, new_game, score

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
BOARDWALK, PARK_PLACE = 39, 37
BLUE_HOUSE = US.groups["dark_blue"].house_price


def run(state, *steps):
    for kind, payload in steps:
        state = apply(state, US, kind, payload).state
    return state


def refused(state, kind, payload) -> RuleError:
    with pytest.raises(RuleError) as error:
        apply(state, US, kind, payload)
    return error.value


# -- auctions -------------------------------------------------------------------------------


def test_p1_a_declined_deed_goes_to_auction_and_the_highest_bid_pays_the_bank(fresh):
    state = run(
        fresh,
        ("decline", {"player": 0, "deed": BOARDWALK}),
        ("bid", {"player": 0, "amount": 1}),  # the decliner may bid too, from 1
        ("bid", {"player": 2, "amount": 230}),
    )
    assert state.auction.bid == 230 and state.auction.bidder == 2
    after = run(state, ("auction_close", {}))
    assert after.deeds[BOARDWALK].owner == 2
    assert after.players[2].cash == 1500 - 230
    assert after.auction is None


def test_p1_a_bid_must_beat_the_last_and_not_exceed_cash(fresh):
    state = run(fresh, ("decline", {"player": 0, "deed": BOARDWALK}))
    state = run(state, ("bid", {"player": 1, "amount": 100}))
    assert refused(state, "bid", {"player": 2, "amount": 100}).params["minimum"] == 101
    assert refused(state, "bid", {"player": 2, "amount": 1501}).rule == "P1"


def test_p1_no_bid_leaves_the_deed_with_the_bank(fresh):
    state = run(fresh, ("decline", {"player": 0, "deed": BOARDWALK}), ("auction_close", {}))
    assert state.deeds[BOARDWALK].owner is None
    assert [p.cash for p in state.players] == [1500] * 3


def test_h3_without_auctions_a_declined_deed_simply_stays_with_the_bank(us):
    state = new_game(us, setup_of(no_auctions=True))
    after = run(state, ("decline", {"player": 0, "deed": BOARDWALK}))
    assert after.auction is None and after.deeds[BOARDWALK].owner is None
    assert refused(after, "auction_open", {"deed": BOARDWALK}).rule == "H3"


# -- bankruptcy -----------------------------------------------------------------------------


def blues_with_houses(state, seat, houses):
    """The dark blues built up for `seat`, the buildings taken from the bank's supply."""
    state = state.copy()
    for index in US.groups["dark_blue"].deeds:
        state.deeds[index].owner, state.deeds[index].houses = seat, houses
        if houses == HOTEL:
            state.hotels -= 1
        else:
            state.houses -= houses
    return state


def test_k1_bankruptcy_is_refused_while_selling_and_mortgaging_would_pay(fresh):
    state = blues_with_houses(fresh, 1, 2)
    could = 1500 + 175 + 200 + (4 * BLUE_HOUSE) // 2
    error = refused(state, "bankrupt", {"player": 1, "owed": could, "creditor": 0})
    assert error.rule == "K1" and error.params["raisable"] == could


def test_k2_owed_to_a_player_buildings_are_sold_and_everything_goes_to_the_creditor(fresh):
    state = blues_with_houses(fresh, 1, 2)
    state.deeds[5].owner, state.deeds[5].mortgaged = 1, True
    state.players[1].jail_free = ["chance"]
    state.players[1].cash = 100
    after = run(state, ("bankrupt", {"player": 1, "owed": 5000, "creditor": 0}))
    building_refund = (4 * BLUE_HOUSE) // 2
    interest = 10  # M4: 10% of Reading Railroad's 100, at once
    assert after.players[0].cash == 1500 + 100 + building_refund - interest
    assert {i for i, d in after.deeds.items() if d.owner == 0} == {5, PARK_PLACE, BOARDWALK}
    assert after.deeds[5].mortgaged
    assert after.houses == 32
    assert after.players[0].jail_free == ["chance"]
    assert after.players[1].bankrupt and after.players[1].cash == 0


def test_k2_the_creditor_may_lift_a_received_mortgage_at_once(fresh):
    state = fresh.copy()
    state.deeds[5].owner, state.deeds[5].mortgaged = 1, True
    state.players[1].cash = 0
    after = run(state, ("bankrupt", {"player": 1, "owed": 500, "creditor": 0, "lift": [5]}))
    assert after.players[0].cash == 1500 - 110
    assert not after.deeds[5].mortgaged


def test_k3_owed_to_the_bank_every_deed_is_auctioned_one_after_another(fresh):
    state = blues_with_houses(fresh, 1, 1)
    state.deeds[PARK_PLACE].mortgaged = False
    state.players[1].jail_free = ["chest"]
    after = run(state, ("bankrupt", {"player": 1, "owed": 5000}))
    assert after.players[1].bankrupt and after.players[1].jail_free == []
    assert after.houses == 32
    assert all(after.deeds[i].owner is None for i in (PARK_PLACE, BOARDWALK))
    assert after.auction.deed == PARK_PLACE and after.to_auction == [BOARDWALK]
    after = run(after, ("bid", {"player": 0, "amount": 90}), ("auction_close", {}))
    assert after.deeds[PARK_PLACE].owner == 0
    assert after.auction.deed == BOARDWALK and after.to_auction == []
    after = run(after, ("auction_close", {}))
    assert after.deeds[BOARDWALK].owner is None and after.auction is None


def test_k4_the_last_player_left_wins_a_classic_game(fresh):
    state = fresh.copy()
    state.players[1].cash = state.players[2].cash = 0
    state = run(state, ("bankrupt", {"player": 1, "owed": 10, "creditor": 0}))
    assert not state.ended
    state = run(state, ("bankrupt", {"player": 2, "owed": 10}))
    assert state.ended and [p.name for p in state.in_play()] == ["Ana"]
    assert refused(state, "pass_go", {"player": 0}).rule == "K4"


# -- short and time-limited games -----------------------------------------------------------


def test_sg1_dealt_deeds_are_paid_at_their_printed_price(us):
    state = new_game(us, setup_of(mode="short"))
    after = run(state, ("deal", {"hands": [[BOARDWALK, 1], [5, 12], [21, 23]]}))
    assert [p.cash for p in after.players] == [1500 - 460, 1500 - 350, 1500 - 440]
    assert refused(after, "deal", {"hands": [[BOARDWALK], [], []]}).rule == "SG1"


def test_sg2_the_short_game_hotel_needs_three_houses_on_every_street(us):
    state = blues_with_houses(new_game(us, setup_of(mode="short")), 0, 3)
    after = run(state, ("build", {"player": 0, "group": "dark_blue", "levels": [HOTEL, HOTEL]}))
    assert 1500 - after.players[0].cash == 2 * BLUE_HOUSE
    assert after.houses == 32 and after.hotels == 10


def test_sg3_the_second_bankruptcy_ends_a_short_game_with_everything_handed_over(us):
    state = blues_with_houses(new_game(us, setup_of(mode="short")), 2, 3)
    state.players[1].cash = 0
    state = run(state, ("bankrupt", {"player": 1, "owed": 10, "creditor": 0}))
    assert not state.ended
    state.players[2].cash = 20
    after = run(state, ("bankrupt", {"player": 2, "owed": 5000, "creditor": 0}))
    assert after.ended
    assert all(after.deeds[i].owner == 0 for i in (PARK_PLACE, BOARDWALK))
    assert all(after.deeds[i].houses == 3 for i in (PARK_PLACE, BOARDWALK))  # buildings too
    assert after.players[0].cash == 1500 + 20


def test_sg4_the_richest_player_by_score_wins_a_short_game(us):
    state = blues_with_houses(new_game(us, setup_of(mode="short")), 0, HOTEL)
    state.deeds[5].owner, state.deeds[5].mortgaged = 1, True
    hotel = BLUE_HOUSE * 4
    assert score(state, us, 0) == 1500 + 350 + 400 + 2 * hotel
    assert score(state, us, 1) == 1500 + US.spaces[5].price // 2


def test_tl1_a_time_limited_game_needs_its_end_time_and_ends_when_called(us):
    with pytest.raises(RuleError) as error:
        new_game(us, setup_of(mode="timed"))
    assert error.value.rule == "TL1"
    state = new_game(us, setup_of(mode="timed", ends_at="2026-11-22T23:00"))
    assert state.settings.ends_at == "2026-11-22T23:00:00+00:00"  # stored as UTC
    assert run(state, ("end_game", {})).ended


def test_h1_the_pot_is_paid_out_in_one_tap(us):
    state = new_game(us, setup_of(free_parking_jackpot=True))
    state = run(state, ("tax", {"player": 0, "space": 4}), ("parking_pot", {"player": 2}))
    assert state.players[2].cash == 1500 + US.spaces[4].amount and state.pot == 0
    assert refused(state, "parking_pot", {"player": 2}).rule == "H1"
