"""Rules core: buildings (B1-B7, SG2), mortgages (M1-M5) and trades (X1-X3), from the deeds."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, apply, new_game, rent_due
from tablebank.rules.property import lift_cost

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
GREENS = list(US.groups["green"].deeds)  # Pacific, North Carolina, Pennsylvania
GREEN_HOUSE = US.groups["green"].house_price
BLUES = list(US.groups["dark_blue"].deeds)
BOARDWALK, PARK_PLACE = 39, 37


def holding(state, seat, *deeds, cash=None):
    state = state.copy()
    for index in deeds:
        state.deeds[index].owner = seat
    if cash is not None:
        state.players[seat].cash = cash
    return state


def build(state, seat, group, levels, edition=US):
    return apply(state, edition, "build", {"player": seat, "group": group, "levels": levels})


def refused(state, kind, payload, edition=US) -> RuleError:
    with pytest.raises(RuleError) as error:
        apply(state, edition, kind, payload)
    return error.value


@pytest.fixture
def greens(fresh):
    """Ana holds the three greens and plenty of cash."""
    return holding(fresh, 0, *GREENS, cash=10_000)


# -- buildings ------------------------------------------------------------------------------


def test_b1_houses_only_on_a_whole_group(fresh):
    state = holding(fresh, 0, *GREENS[:2], cash=10_000)
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [1, 1, 0]})
    assert error.rule == "B1" and "Pennsylvania Avenue" in error.message


def test_b1_a_house_costs_the_price_on_the_deed(greens):
    after = build(greens, 0, "green", [1, 1, 1]).state
    assert 10_000 - after.players[0].cash == 3 * GREEN_HOUSE == 600
    assert after.houses == 32 - 3


def test_b2_building_must_be_even(greens):
    assert refused(greens, "build", {"player": 0, "group": "green", "levels": [2, 0, 0]}).rule == (
        "B2"
    )
    assert build(greens, 0, "green", [2, 1, 1]).state.deeds[GREENS[0]].houses == 2


def test_b3_a_hotel_needs_four_houses_on_every_street(greens):
    state = build(greens, 0, "green", [4, 4, 3]).state
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [HOTEL, 4, 3]})
    assert error.rule == "B2"
    after = build(state, 0, "green", [4, 4, 4]).state
    after = build(after, 0, "green", [HOTEL, 4, 4]).state
    assert after.hotels == 11 and after.houses == 32 - 8  # the 4 houses went back


def test_b3_hotels_on_all_three_greens_cost_3000_and_refund_1500(greens):
    """Hand-checked: 3 x (4 houses + hotel) x 200 = 3000; sold back at half = 1500."""
    built = build(greens, 0, "green", [HOTEL] * 3).state
    assert 10_000 - built.players[0].cash == 3 * 5 * GREEN_HOUSE == 3000
    assert (built.houses, built.hotels) == (32, 9)
    sold = build(built, 0, "green", [0, 0, 0]).state
    assert sold.players[0].cash - built.players[0].cash == 1500
    assert (sold.houses, sold.hotels) == (32, 12)


def test_sg2_a_short_game_hotel_needs_three_houses_and_sells_for_one_house_less(us):
    state = holding(new_game(us, setup_of(mode="short")), 0, *GREENS, cash=10_000)
    built = build(state, 0, "green", [HOTEL] * 3).state
    assert 10_000 - built.players[0].cash == 3 * 4 * GREEN_HOUSE == 2400
    sold = build(built, 0, "green", [0, 0, 0]).state
    assert sold.players[0].cash - built.players[0].cash == 1200
    assert rent_due(built, us, GREENS[2], 7) == us.spaces[GREENS[2]].rent[HOTEL]  # unchanged


def test_b4_no_building_while_a_street_of_the_group_is_mortgaged(greens):
    state = greens.copy()
    state.deeds[GREENS[1]].mortgaged = True
    assert refused(state, "build", {"player": 0, "group": "green", "levels": [1, 1, 1]}).rule == (
        "B4"
    )


def test_b5_no_house_when_the_bank_has_none(greens):
    state = greens.copy()
    state.houses = 2
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [1, 1, 1]})
    assert error.rule == "B5" and error.params["needed"] == 3


def test_b5_the_supply_counts_on_the_way_to_a_hotel(greens):
    """Eight houses in the bank cannot make 4, 4 and a hotel: it needs 12 at once."""
    state = greens.copy()
    state.houses = 8
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [4, 4, HOTEL]})
    assert error.rule == "B5" and error.params["needed"] == 12


def test_b5_a_building_shortage_goes_to_auction_from_the_lowest_house_price(greens):
    state = holding(greens, 1, *US.groups["brown"].deeds, cash=5000)
    state.houses = 1
    state = apply(state, US, "auction_open", {"building": "house"}).state
    assert state.auction.minimum == min(GREEN_HOUSE, US.groups["brown"].house_price)
    state = apply(state, US, "bid", {"player": 1, "amount": 60}).state
    after = apply(state, US, "auction_close", {"deed": 1}).state
    assert after.deeds[1].houses == 1 and after.houses == 0
    assert after.players[1].cash == 5000 - 60


def test_b6_selling_back_pays_half_the_price_evenly(greens):
    state = build(greens, 0, "green", [3, 3, 3]).state
    after = build(state, 0, "green", [2, 2, 2]).state
    assert after.players[0].cash - state.players[0].cash == 3 * GREEN_HOUSE // 2
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [3, 3, 1]})
    assert error.rule == "B2"


def test_b6_breaking_a_hotel_down_needs_the_houses_in_the_bank(greens):
    state = build(greens, 0, "green", [HOTEL] * 3).state
    state.houses = 4
    error = refused(state, "build", {"player": 0, "group": "green", "levels": [4, 4, 4]})
    assert error.rule == "B6" and "sell the hotels as one" in error.message
    one = build(state, 0, "green", [4, HOTEL, HOTEL]).state  # one hotel: 4 houses, there
    assert one.players[0].cash - state.players[0].cash == GREEN_HOUSE // 2
    whole = build(state, 0, "green", [0, 0, 0]).state  # sold as one: no houses needed
    assert whole.players[0].cash - state.players[0].cash == 3 * 5 * GREEN_HOUSE // 2


def test_b7_buildings_are_never_sold_to_players(greens):
    state = build(greens, 0, "green", [1, 1, 1]).state
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREENS[0]]}, "take": {"cash": 500}}
    assert refused(state, "trade", trade).rule == "X1"


# -- mortgages ------------------------------------------------------------------------------


def test_m1_mortgage_pays_the_value_on_the_deed(fresh):
    state = holding(fresh, 0, PARK_PLACE)
    after = apply(state, US, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    assert after.players[0].cash == 1500 + US.spaces[PARK_PLACE].mortgage == 1675
    assert after.deeds[PARK_PLACE].mortgaged


def test_m1_mortgaging_a_built_group_first_sells_its_buildings(greens):
    state = build(greens, 0, "green", [2, 2, 1]).state
    outcome = apply(state, US, "mortgage", {"player": 0, "deed": GREENS[2]})
    refund = 5 * GREEN_HOUSE // 2
    assert outcome.state.players[0].cash == state.players[0].cash + refund + 160
    assert all(outcome.state.deeds[i].houses == 0 for i in GREENS)
    assert outcome.state.houses == 32
    assert "sells the Green buildings for $500" in outcome.text


def test_m2_no_rent_on_the_mortgaged_street_the_rest_of_the_group_still_doubles(fresh):
    state = holding(fresh, 0, *BLUES)
    state.deeds[PARK_PLACE].mortgaged = True
    assert rent_due(state, US, PARK_PLACE) == 0
    assert rent_due(state, US, BOARDWALK) == 2 * US.spaces[BOARDWALK].rent[0]


def test_m3_lifting_costs_the_value_plus_ten_percent_rounded_up(fresh):
    assert lift_cost(US.spaces[PARK_PLACE].mortgage) == 175 + 18 == 193
    state = holding(fresh, 0, PARK_PLACE)
    state.deeds[PARK_PLACE].mortgaged = True
    after = apply(state, US, "lift", {"player": 0, "deed": PARK_PLACE}).state
    assert after.players[0].cash == 1500 - 193
    assert not after.deeds[PARK_PLACE].mortgaged


def test_m4_a_mortgaged_deed_received_costs_ten_percent_at_once(fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state.deeds[PARK_PLACE].mortgaged = True
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    kept = apply(state, US, "trade", trade).state
    assert kept.players[1].cash == 1500 - 100 - 18
    assert kept.deeds[PARK_PLACE].mortgaged and kept.deeds[PARK_PLACE].owner == 1
    lifted = apply(state, US, "trade", {**trade, "lift": [PARK_PLACE]}).state
    assert lifted.players[1].cash == 1500 - 100 - 193
    assert not lifted.deeds[PARK_PLACE].mortgaged


def test_m5_only_the_owner_lifts_a_mortgage(fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state.deeds[PARK_PLACE].mortgaged = True
    assert refused(state, "lift", {"player": 1, "deed": PARK_PLACE}).rule == "M5"


# -- trades ---------------------------------------------------------------------------------


def test_x1_deeds_cash_and_cards_change_hands_both_ways(fresh):
    state = holding(fresh, 0, BOARDWALK)
    state = holding(state, 1, 5, 15)
    state.players[1].jail_free = ["chest"]
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 50},
        "take": {"deeds": [5, 15], "jail_free": 1},
    }
    after = apply(state, US, "trade", trade).state
    assert after.deeds[BOARDWALK].owner == 1
    assert (after.deeds[5].owner, after.deeds[15].owner) == (0, 0)
    assert after.players[0].jail_free == ["chest"] and after.players[1].jail_free == []
    assert (after.players[0].cash, after.players[1].cash) == (1450, 1550)


def test_x1_no_deed_of_a_built_group_changes_hands(greens):
    state = build(greens, 0, "green", [1, 1, 1]).state
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREENS[2]]}, "take": {"cash": 1}}
    error = refused(state, "trade", trade)
    assert error.rule == "X1" and "sell them to the bank first" in error.message


def test_x1_a_side_that_lacks_the_cash_is_refused(fresh):
    state = holding(fresh, 0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 2000}}
    error = refused(state, "trade", trade)
    assert error.rule == "K1" and error.params["name"] == "Bea"


def test_x2_a_player_only_gives_what_they_hold(fresh):
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1}}
    assert refused(fresh, "trade", trade).rule == "X1"


def test_x3_a_mortgaged_deed_may_be_traded(fresh):
    state = holding(fresh, 0, 5)
    state.deeds[5].mortgaged = True
    trade = {"player": 0, "partner": 2, "give": {"deeds": [5]}, "take": {"cash": 80}}
    after = apply(state, US, "trade", trade).state
    assert after.deeds[5].owner == 2 and after.deeds[5].mortgaged


def test_b5_a_house_won_at_auction_costs_the_bid_not_the_printed_price(greens):
    state = holding(greens, 1, *US.groups["brown"].deeds)  # bidding may start at 50
    state.houses, state.players[0].cash = 1, 100  # less than the 200 printed on the greens
    state = apply(state, US, "auction_open", {"building": "house"}).state
    state = apply(state, US, "bid", {"player": 0, "amount": 60}).state
    after = apply(state, US, "auction_close", {"deed": GREENS[1]}).state
    assert after.players[0].cash == 40
    assert after.deeds[GREENS[1]].houses == 1 and after.houses == 0
