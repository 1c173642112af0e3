"""Rules core for the property engine: buildings (B1-B7, SG2), mortgages (M1-M5), trades
(X1-X3) with the finite supply (S3), worked out from the edition's own figures.

Every expected amount is computed from the deeds (`us.groups["green"].house_price`,
`us.spaces[37].mortgage`); a few printed figures are asserted as well, so a wrong edition
file shows up too.
"""

from __future__ import annotations

import math

import pytest
from tablebank.rules import HOTEL, RuleError, apply, new_game, rent_due
from tablebank.rules.property import interest, lift_cost

from ..support import setup_of

PARK_PLACE, BOARDWALK = 37, 39
READING, PENNSYLVANIA_RR = 5, 15
ELECTRIC = 12
MEDITERRANEAN = 1


# -- helpers -----------------------------------------------------------------------------------


def holding(state, seat, *deeds, cash=None):
    """A copy of `state` where `seat` holds `deeds` (and, if given, that much cash)."""
    state = state.copy()
    for index in deeds:
        state.deeds[index].owner = seat
    if cash is not None:
        state.players[seat].cash = cash
    return state


def streets(us, group):
    return list(us.groups[group].deeds)


def build(us, state, levels, group="green", seat=0):
    return apply(state, us, "build", {"player": seat, "group": group, "levels": levels})


def refused(us, state, kind, payload) -> RuleError:
    before = state.copy()
    with pytest.raises(RuleError) as error:
        apply(state, us, kind, payload)
    assert state == before, "a refused action changed the state"
    return error.value


def refused_build(us, state, levels, group="green", seat=0) -> RuleError:
    return refused(us, state, "build", {"player": seat, "group": group, "levels": levels})


def cash_of(state):
    return [p.cash for p in state.players]


def on_board(state):
    built = [d.houses for d in state.deeds.values()]
    return sum(h for h in built if h != HOTEL), built.count(HOTEL)


@pytest.fixture
def greens(us, fresh):
    """Ana holds the three greens and 10,000 in cash."""
    return holding(fresh, 0, *streets(us, "green"), cash=10_000)


@pytest.fixture
def short_greens(us):
    """The same in a short game (SG2): a hotel needs three houses."""
    return holding(new_game(us, setup_of(mode="short")), 0, *streets(us, "green"), cash=10_000)


# -- B1: whole groups, at the printed house price ------------------------------------------------


def test_b1_houses_need_every_street_of_the_group(us, fresh):
    greens = streets(us, "green")
    state = holding(fresh, 0, *greens[:2], cash=10_000)
    state = holding(state, 1, greens[2])
    error = refused_build(us, state, [1, 1, 1])
    assert error.rule == "B1"
    assert error.message == (
        "Ana does not hold the whole Green group: " + us.spaces[greens[2]].name
    )


def test_b1_only_the_owner_of_the_group_builds_on_it(us, greens):
    error = refused(us, greens, "build", {"player": 1, "group": "green", "levels": [1, 1, 1]})
    assert error.rule == "B1" and "Bea does not hold the whole Green group" in error.message


@pytest.mark.parametrize("group", ["brown", "light_blue", "pink", "orange", "red", "yellow"])
def test_b1_a_house_costs_the_house_price_printed_for_its_group(us, fresh, group):
    deeds = streets(us, group)
    state = holding(fresh, 2, *deeds, cash=5_000)
    after = build(us, state, [1] * len(deeds), group, seat=2).state
    assert 5_000 - after.players[2].cash == len(deeds) * us.groups[group].house_price
    assert after.houses == us.houses - len(deeds)


def test_b1_printed_house_prices_of_the_greens_and_dark_blues(us, fresh):
    assert us.groups["green"].house_price == us.groups["dark_blue"].house_price == 200
    state = holding(fresh, 0, PARK_PLACE, BOARDWALK)
    outcome = build(us, state, [1, 1], "dark_blue")
    assert outcome.text == (
        "Ana pays the bank $400 to build; 1 house on Park Place; 1 house on Boardwalk; "
        "the bank has 30 houses and 12 hotels left"
    )


def test_b1_railroads_and_utilities_take_no_buildings(us, fresh):
    state = holding(fresh, 0, 5, 15, 25, 35)
    error = refused(us, state, "build", {"player": 0, "group": "railroad", "levels": [1] * 4})
    assert error.rule == "input" and error.message == "Choose a colour group"


# -- B2: evenly, at most four houses -----------------------------------------------------------


def test_b2_a_target_that_breaks_evenness_is_refused_with_the_reason(us, greens):
    error = refused_build(us, greens, [2, 0, 1])
    assert error.rule == "B2"
    assert error.message == "Build evenly: no street may be more than one house above another"


def test_b2_one_house_of_difference_is_even(us, greens):
    after = build(us, greens, [2, 1, 2]).state
    assert [after.deeds[i].houses for i in streets(us, "green")] == [2, 1, 2]
    assert greens.players[0].cash - after.players[0].cash == 5 * us.groups["green"].house_price


def test_b2_selling_back_is_even_too(us, greens):
    state = build(us, greens, [3, 3, 3]).state
    assert refused_build(us, state, [3, 1, 3]).rule == ("B2")
    assert build(us, state, [3, 2, 3]).state.deeds[streets(us, "green")[1]].houses == 2


def test_b2_a_hotel_counts_as_five_houses(us, greens):
    state = build(us, greens, [4, 4, 4]).state
    assert build(us, state, [HOTEL, 4, 4]).state.deeds[streets(us, "green")[0]].houses == HOTEL
    hotels = build(us, state, [HOTEL] * 3).state
    error = refused_build(us, hotels, [HOTEL, 3, 3])
    assert error.rule == "B2"


def test_b2_no_more_than_four_houses_or_a_hotel(us, greens):
    error = refused_build(us, greens, [6, 6, 6])
    assert error.rule == "input" and "between 0 and 5" in error.message


def test_b2_every_street_gets_a_level(us, greens):
    error = refused_build(us, greens, [1, 1])
    assert error.rule == "input" and "each of the 3 streets" in error.message


# -- B3: hotels --------------------------------------------------------------------------------


def test_b3_a_hotel_costs_the_house_price_and_its_four_houses_go_back(us, greens):
    price = us.groups["green"].house_price
    four = build(us, greens, [4, 4, 4]).state
    assert four.houses == us.houses - 12
    one = build(us, four, [4, 4, HOTEL])
    assert four.players[0].cash - one.state.players[0].cash == price
    assert (one.state.houses, one.state.hotels) == (us.houses - 8, us.hotels - 1)
    assert "a hotel on Pennsylvania Avenue" in one.text


def test_b3_hotels_straight_from_bare_land_pay_for_the_houses_too(us, greens):
    price = us.groups["green"].house_price
    after = build(us, greens, [HOTEL] * 3).state
    assert greens.players[0].cash - after.players[0].cash == 3 * (4 + 1) * price
    assert (after.houses, after.hotels) == (us.houses, us.hotels - 3)


def test_b3_one_hotel_per_street_at_most(us, greens):
    state = build(us, greens, [HOTEL] * 3).state
    error = refused_build(us, state, [HOTEL] * 3)
    assert error.rule == "input" and error.message == "That is what is built already"


# -- B4: no building on a group with a mortgage --------------------------------------------------


def test_b4_no_building_while_any_street_of_the_group_is_mortgaged(us, greens):
    state = apply(greens, us, "mortgage", {"player": 0, "deed": streets(us, "green")[2]}).state
    error = refused_build(us, state, [1, 1, 1])
    assert error.rule == "B4"
    assert error.message == "No building on the Green group while a street is mortgaged"
    lifted = apply(state, us, "lift", {"player": 0, "deed": streets(us, "green")[2]}).state
    assert build(us, lifted, [1, 1, 1]).state.houses == us.houses - 3


# -- B5: the finite supply ---------------------------------------------------------------------


def test_b5_no_house_when_the_bank_has_too_few(us, greens):
    state = greens.copy()
    state.houses = 2
    error = refused_build(us, state, [1, 1, 1])
    assert error.rule == "B5"
    assert error.message == "The bank has 2 houses; building this evenly needs 3 of them"
    assert build(us, state, [1, 0, 1]).state.houses == 0


def test_b5_the_houses_are_counted_on_the_way_up_to_hotels(us, greens):
    """[4, 4, hotel] passes through 12 houses on the board before the hotel takes 4 back."""
    state = greens.copy()
    state.houses = 11
    error = refused_build(us, state, [4, 4, HOTEL])
    assert (error.rule, error.params["needed"]) == ("B5", 12)
    state.houses = 12
    after = build(us, state, [4, 4, HOTEL]).state
    assert (after.houses, after.hotels) == (4, us.hotels - 1)


def test_b5_no_hotel_when_the_bank_has_none_left(us, greens):
    state = build(us, greens, [4, 4, 4]).state
    state.hotels = 1
    error = refused_build(us, state, [HOTEL] * 3)
    assert error.rule == "B5" and error.message == "The bank has 1 hotels; this needs 3"
    assert build(us, state, [4, 4, HOTEL]).state.hotels == 0


def test_b5_the_supply_is_in_every_building_sentence(us, greens):
    outcome = build(us, greens, [2, 2, 2])
    assert outcome.text.endswith(f"the bank has {us.houses - 6} houses and {us.hotels} hotels left")


def test_b5_a_shortage_is_auctioned_from_the_lowest_house_price_involved(us, greens):
    browns = streets(us, "brown")
    state = holding(greens, 1, *browns, cash=3_000)
    state.houses = 1
    state = apply(state, us, "auction_open", {"building": "house"}).state
    assert state.auction.minimum == us.groups["brown"].house_price == 50
    state = apply(state, us, "bid", {"player": 0, "amount": 75}).state
    state = apply(state, us, "bid", {"player": 1, "amount": 90}).state
    after = apply(state, us, "auction_close", {"deed": browns[0]}).state
    assert after.deeds[browns[0]].houses == 1 and after.houses == 0
    assert after.players[1].cash == 3_000 - 90
    assert after.players[0].cash == greens.players[0].cash


# -- B6: selling back at half, hotels broken down only with houses in the bank ---------------------


def test_b6_selling_back_pays_half_the_price_paid(us, greens):
    half = us.groups["green"].house_price // 2
    state = build(us, greens, [3, 3, 3]).state
    outcome = build(us, state, [1, 1, 1])
    assert outcome.state.players[0].cash - state.players[0].cash == 6 * half == 600
    assert outcome.text.startswith("Ana sells to the bank for $600; 1 house on Pacific Avenue")
    assert outcome.state.houses == us.houses - 3


def test_b6_hotels_sold_as_one_pay_half_the_hotel_and_half_its_houses(us, greens):
    price = us.groups["green"].house_price
    state = build(us, greens, [HOTEL] * 3).state
    state.houses = 0  # sold as one, the hotels need no house from the bank
    after = build(us, state, [0, 0, 0]).state
    assert after.players[0].cash - state.players[0].cash == 3 * (price // 2 + 4 * price // 2)
    assert (after.houses, after.hotels) == (0, us.hotels)


def test_b6_breaking_a_hotel_down_needs_four_houses_in_the_bank(us, greens):
    half = us.groups["green"].house_price // 2
    state = build(us, greens, [HOTEL] * 3).state
    state.houses = 3
    error = refused_build(us, state, [HOTEL, HOTEL, 4])
    assert error.rule == "B6"
    assert error.message == (
        "Breaking the hotels down needs 4 houses and the bank has 3: "
        "sell the hotels as one (to no buildings) instead"
    )
    state.houses = 4
    after = build(us, state, [HOTEL, HOTEL, 4]).state
    assert after.players[0].cash - state.players[0].cash == half
    assert (after.houses, after.hotels) == (0, state.hotels + 1)


def test_b6_a_hotel_broken_down_takes_all_four_houses_even_to_keep_three(us, fresh):
    """Hotel to 3 houses: the bank hands over 4, then takes one back; it must have the 4."""
    price = us.groups["green"].house_price
    state = holding(fresh, 0, *streets(us, "green"), cash=10_000)
    state = build(us, state, [4, 4, HOTEL]).state
    state.houses = 3
    error = refused_build(us, state, [4, 4, 3])
    assert error.rule == "B6" and error.params["needed"] == 4
    state.houses = 4
    after = build(us, state, [4, 4, 3]).state
    assert after.players[0].cash - state.players[0].cash == price // 2 + price // 2
    assert after.houses == 4 - 3


def test_b6_three_hotels_to_houses_need_twelve_houses_first(us, greens):
    state = build(us, greens, [HOTEL] * 3).state
    state.houses = 8
    for target in ([4, 4, 4], [2, 2, 2], [1, 1, 1]):
        error = refused_build(us, state, target)
        assert (error.rule, error.params["needed"], error.params["houses"]) == ("B6", 12, 8)
    # what can be done: two hotels broken down, or all of them sold as one
    assert build(us, state, [4, 4, HOTEL]).state.houses == 0
    assert build(us, state, [0, 0, 0]).state.houses == 8


def test_b6_sell_down_step_by_step_or_at_once_pays_the_same(us, greens):
    state = build(us, greens, [HOTEL] * 3).state
    at_once = build(us, state, [0, 0, 0]).state.players[0].cash
    step = state
    for target in ([4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0]):
        step = build(us, step, target).state
    assert step.players[0].cash == at_once
    assert on_board(step) == (0, 0) and (step.houses, step.hotels) == (us.houses, us.hotels)


# -- B7: buildings go back to the bank only ------------------------------------------------------


def test_b7_a_built_group_cannot_change_hands_until_sold_to_the_bank(us, greens):
    greens_list = streets(us, "green")
    state = build(us, greens, [1, 1, 1]).state
    trade = {"player": 0, "partner": 1, "give": {"deeds": [greens_list[0]]}, "take": {"cash": 1}}
    error = refused(us, state, "trade", trade)
    assert error.rule == "X1"
    assert error.message == "The Green group has buildings: sell them to the bank first"
    bare = build(us, state, [0, 0, 0]).state
    after = apply(bare, us, "trade", trade).state
    assert after.deeds[greens_list[0]].owner == 1 and after.deeds[greens_list[0]].houses == 0
    assert (after.houses, after.hotels) == (us.houses, us.hotels)


# -- SG2: the short game's hotels ---------------------------------------------------------------


def test_sg2_a_hotel_needs_three_houses_in_the_short_game(us, greens, short_greens):
    state = build(us, short_greens, [3, 3, 3]).state
    assert build(us, state, [HOTEL, 3, 3]).state.hotels == us.hotels - 1
    classic = build(us, greens, [3, 3, 3]).state
    error = refused_build(us, classic, [HOTEL, 3, 3])
    assert error.rule == "B2"  # a classic hotel stands five high: four houses first


def test_sg2_short_game_hotels_cost_four_house_prices_and_sell_for_half(us, short_greens):
    price = us.groups["green"].house_price
    built = build(us, short_greens, [HOTEL] * 3)
    paid = short_greens.players[0].cash - built.state.players[0].cash
    assert paid == 3 * (3 + 1) * price == 2400
    sold = build(us, built.state, [0, 0, 0]).state
    assert sold.players[0].cash - built.state.players[0].cash == paid // 2 == 1200
    assert 1500 - 3 * price // 2 == 1200  # one house less a street than the classic game


def test_sg2_breaking_a_short_game_hotel_down_needs_three_houses(us, short_greens):
    state = build(us, short_greens, [HOTEL] * 3).state
    state.houses = 2
    error = refused_build(us, state, [3, HOTEL, HOTEL])
    assert (error.rule, error.params["needed"]) == ("B6", 3)
    state.houses = 3
    after = build(us, state, [3, HOTEL, HOTEL]).state
    assert after.houses == 0
    assert after.players[0].cash - state.players[0].cash == us.groups["green"].house_price // 2


def test_sg2_hotel_rent_is_unchanged_in_the_short_game(us, greens, short_greens):
    short = build(us, short_greens, [HOTEL] * 3).state
    classic = build(us, greens, [HOTEL] * 3).state
    for index in streets(us, "green"):
        hotel_rent = us.spaces[index].rent[HOTEL]
        assert rent_due(short, us, index) == rent_due(classic, us, index) == hotel_rent
    assert rent_due(short, us, streets(us, "green")[2]) == 1400


# -- M1: mortgages -----------------------------------------------------------------------------


def test_m1_the_bank_pays_the_mortgage_value_printed_on_the_deed(us, fresh):
    state = holding(fresh, 0, PARK_PLACE, READING, ELECTRIC)
    for deed in (PARK_PLACE, READING, ELECTRIC):
        before = state.players[0].cash
        outcome = apply(state, us, "mortgage", {"player": 0, "deed": deed})
        state = outcome.state
        assert state.players[0].cash - before == us.spaces[deed].mortgage
        assert state.deeds[deed].mortgaged and state.deeds[deed].owner == 0
    assert (us.spaces[PARK_PLACE].mortgage, us.spaces[READING].mortgage) == (175, 100)
    assert state.players[0].cash == 1500 + 175 + 100 + 75


def test_m1_a_mortgaged_deed_cannot_be_mortgaged_again(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state = apply(state, us, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    error = refused(us, state, "mortgage", {"player": 0, "deed": PARK_PLACE})
    assert error.rule == "M1" and error.message == "Park Place is already mortgaged"


def test_m1_mortgaging_a_built_group_sells_its_buildings_first_and_says_so(us, greens):
    price = us.groups["green"].house_price
    pennsylvania = streets(us, "green")[2]
    state = build(us, greens, [HOTEL, HOTEL, 4]).state
    outcome = apply(state, us, "mortgage", {"player": 0, "deed": pennsylvania})
    refund = 2 * (5 * price) // 2 + 4 * price // 2
    value = us.spaces[pennsylvania].mortgage
    assert outcome.state.players[0].cash - state.players[0].cash == refund + value
    assert outcome.text == (
        f"Ana sells the Green buildings for ${refund:,}; "
        f"Ana mortgages Pennsylvania Avenue for ${value}; "
        f"4 houses and 2 hotels go back to the bank; "
        f"the bank has {us.houses} houses and {us.hotels} hotels left"
    )
    assert refund == 1400 and value == 160
    assert on_board(outcome.state) == (0, 0)


def test_m1_a_group_without_buildings_is_mortgaged_alone(us, greens):
    outcome = apply(greens, us, "mortgage", {"player": 0, "deed": streets(us, "green")[0]})
    assert outcome.text == "Ana mortgages Pacific Avenue for $150"
    assert [outcome.state.deeds[i].mortgaged for i in streets(us, "green")] == [True, False, False]


# -- M2: no rent on a mortgaged deed ------------------------------------------------------------


def test_m2_no_rent_on_a_mortgaged_street_the_rest_of_the_group_still_doubles(us, fresh):
    greens = streets(us, "green")
    state = holding(fresh, 0, *greens)
    state = apply(state, us, "mortgage", {"player": 0, "deed": greens[0]}).state
    assert rent_due(state, us, greens[0]) == 0
    for index in greens[1:]:
        assert rent_due(state, us, index) == 2 * us.spaces[index].rent[0]
    assert rent_due(state, us, greens[2]) == 2 * 28 == 56
    error = refused(us, state, "rent", {"player": 1, "deed": greens[0]})
    assert error.rule == "M2" and error.message == "Pacific Avenue is mortgaged: no rent"


def test_m2_a_mortgaged_railroad_still_counts_for_the_others(us, fresh):
    state = holding(fresh, 0, READING, PENNSYLVANIA_RR)
    state = apply(state, us, "mortgage", {"player": 0, "deed": READING}).state
    assert rent_due(state, us, READING) == 0
    assert rent_due(state, us, PENNSYLVANIA_RR) == us.spaces[PENNSYLVANIA_RR].rent[1] == 50


# -- M3: lifting at value plus 10%, rounded up ----------------------------------------------------


def test_m3_lifting_costs_the_value_plus_ten_percent_rounded_up_for_every_deed(us):
    for deed in us.deeds:
        assert lift_cost(deed.mortgage) == deed.mortgage + math.ceil(deed.mortgage / 10)
    assert lift_cost(us.spaces[PARK_PLACE].mortgage) == 175 + 18 == 193
    assert lift_cost(us.spaces[ELECTRIC].mortgage) == 75 + 8 == 83  # 7.5 rounds up
    assert lift_cost(us.spaces[MEDITERRANEAN].mortgage) == 30 + 3 == 33


def test_m3_lift_is_shown_with_its_amount_and_charged(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state = apply(state, us, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    outcome = apply(state, us, "lift", {"player": 0, "deed": PARK_PLACE})
    assert outcome.text == "Ana lifts the mortgage on Park Place for $193"
    assert state.players[0].cash - outcome.state.players[0].cash == 193
    assert not outcome.state.deeds[PARK_PLACE].mortgaged
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(0, None, 193)]


def test_m3_only_a_mortgaged_deed_is_lifted(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    error = refused(us, state, "lift", {"player": 0, "deed": PARK_PLACE})
    assert error.rule == "M3" and error.message == "Park Place is not mortgaged"


def test_m3_a_lift_the_owner_cannot_pay_is_refused_with_the_shortfall(us, fresh):
    state = holding(fresh, 0, PARK_PLACE, cash=0)
    state.deeds[PARK_PLACE].mortgaged = True
    error = refused(us, state, "lift", {"player": 0, "deed": PARK_PLACE})
    assert error.rule == "K1" and error.params["shortfall"] == 193


# -- M4: a mortgaged deed received -------------------------------------------------------------


def test_m4_a_mortgaged_deed_received_costs_ten_percent_at_once(us, fresh):
    value = us.spaces[PARK_PLACE].mortgage
    state = holding(fresh, 0, PARK_PLACE)
    state = apply(state, us, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    outcome = apply(state, us, "trade", trade)
    after = outcome.state
    assert after.players[1].cash == 1500 - 100 - interest(value) == 1500 - 100 - 18
    assert after.deeds[PARK_PLACE].mortgaged and after.deeds[PARK_PLACE].owner == 1
    assert outcome.text.endswith("Bea pays $18 interest and keeps Park Place mortgaged")
    later = apply(after, us, "lift", {"player": 1, "deed": PARK_PLACE}).state
    assert after.players[1].cash - later.players[1].cash == lift_cost(value) == 193  # 10% again


def test_m4_lifting_at_once_costs_the_value_and_ten_percent_only(us, fresh):
    value = us.spaces[PARK_PLACE].mortgage
    state = holding(fresh, 0, PARK_PLACE)
    state = apply(state, us, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [PARK_PLACE]},
        "take": {"cash": 100},
        "lift": [PARK_PLACE],
    }
    outcome = apply(state, us, "trade", trade)
    assert outcome.state.players[1].cash == 1500 - 100 - (value + interest(value))
    assert not outcome.state.deeds[PARK_PLACE].mortgaged
    assert outcome.text.endswith("Bea lifts Park Place now for $193")


def test_m4_each_mortgaged_deed_is_lifted_or_kept_on_its_own(us, fresh):
    state = holding(fresh, 0, PARK_PLACE, READING)
    for deed in (PARK_PLACE, READING):
        state = apply(state, us, "mortgage", {"player": 0, "deed": deed}).state
    trade = {
        "player": 0,
        "partner": 2,
        "give": {"deeds": [PARK_PLACE, READING]},
        "take": {"cash": 10},
        "lift": [READING],
    }
    after = apply(state, us, "trade", trade).state
    charges = interest(us.spaces[PARK_PLACE].mortgage) + lift_cost(us.spaces[READING].mortgage)
    assert after.players[2].cash == 1500 - 10 - charges == 1500 - 10 - 18 - 110
    assert after.deeds[PARK_PLACE].mortgaged and not after.deeds[READING].mortgaged


def test_m4_a_receiver_who_cannot_pay_the_interest_is_refused_with_the_whole_amount(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state.deeds[PARK_PLACE].mortgaged = True
    state.players[1].cash = 110
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    error = refused(us, state, "trade", trade)
    assert error.rule == "K1"
    assert (error.params["name"], error.params["amount"], error.params["shortfall"]) == (
        "Bea",
        118,
        8,
    )


def test_m4_cash_received_in_the_trade_pays_the_interest(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    state.deeds[PARK_PLACE].mortgaged = True
    state.players[1].cash = 0
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE], "cash": 20}}
    trade["take"] = {"jail_free": 0, "deeds": []}
    assert refused(us, state, "trade", trade).rule == "X1"  # Bea gives nothing
    state.players[1].jail_free = ["chest"]
    trade["take"] = {"jail_free": 1}
    after = apply(state, us, "trade", trade).state
    assert after.players[1].cash == 20 - 18 and after.players[0].jail_free == ["chest"]


# -- M5: the owner keeps the deed --------------------------------------------------------------


def test_m5_nobody_but_the_owner_mortgages_or_lifts(us, fresh):
    state = holding(fresh, 0, PARK_PLACE)
    error = refused(us, state, "mortgage", {"player": 1, "deed": PARK_PLACE})
    assert error.rule == "M5" and error.message == "Park Place is not Bea's deed"
    state = apply(state, us, "mortgage", {"player": 0, "deed": PARK_PLACE}).state
    assert refused(us, state, "lift", {"player": 2, "deed": PARK_PLACE}).rule == "M5"
    assert state.deeds[PARK_PLACE].owner == 0


# -- X1-X3: trades -----------------------------------------------------------------------------


def test_x1_cash_deeds_and_jail_free_cards_change_hands_both_ways(us, fresh):
    state = holding(fresh, 0, BOARDWALK)
    state = holding(state, 1, READING, ELECTRIC)
    state = apply(state, us, "card", {"player": 1, "card": "chance-8"}).state
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 150},
        "take": {"deeds": [READING, ELECTRIC], "jail_free": 1},
    }
    outcome = apply(state, us, "trade", trade)
    after = outcome.state
    assert after.deeds[BOARDWALK].owner == 1
    assert (after.deeds[READING].owner, after.deeds[ELECTRIC].owner) == (0, 0)
    assert (after.players[0].jail_free, after.players[1].jail_free) == (["chance"], [])
    assert cash_of(after) == [1500 - 150, 1500 + 150, 1500]
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(0, 1, 150)]
    assert outcome.text == (
        "Ana trades with Bea; Boardwalk from Ana to Bea; $150 from Ana to Bea; "
        "Reading Railroad from Bea to Ana; Electric Company from Bea to Ana; "
        "1 Get Out of Jail Free card from Bea to Ana"
    )


def test_x1_the_other_way_the_partner_pays_cash_for_a_card(us, fresh):
    state = fresh.copy()
    state.players[0].jail_free = ["chest"]
    trade = {"player": 0, "partner": 2, "give": {"jail_free": 1}, "take": {"cash": 40}}
    after = apply(state, us, "trade", trade).state
    assert cash_of(after) == [1540, 1500, 1460]
    assert after.players[2].jail_free == ["chest"]


def test_x1_a_deed_of_a_built_group_does_not_change_hands(us, greens):
    state = holding(build(us, greens, [1, 1, 1]).state, 1, BOARDWALK)
    trade = {
        "player": 1,
        "partner": 0,
        "give": {"deeds": [BOARDWALK]},
        "take": {"deeds": [streets(us, "green")[1]]},
    }
    error = refused(us, state, "trade", trade)
    assert error.rule == "X1" and "The Green group has buildings" in error.message


def test_x1_a_side_that_lacks_the_cash_is_refused_with_the_reason(us, fresh):
    state = holding(fresh, 0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1600}}
    error = refused(us, state, "trade", trade)
    assert error.rule == "K1"
    assert error.message.startswith("Bea cannot pay $1,600: $100 short. Cash $1,500")


def test_x1_a_player_only_gives_what_they_hold(us, fresh):
    state = holding(fresh, 1, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1}}
    error = refused(us, state, "trade", trade)
    assert error.rule == "X1" and error.message == "Boardwalk is not Ana's deed"
    cards = {"player": 0, "partner": 1, "give": {"jail_free": 1}, "take": {"cash": 1}}
    assert refused(us, fresh, "trade", cards).rule == "C3"


def test_x1_each_side_gives_something(us, fresh):
    state = holding(fresh, 0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {}}
    error = refused(us, state, "trade", trade)
    assert error.rule == "X1" and error.message == "Each side of a trade gives something"


def test_x2_no_loans_cash_only_one_way_and_never_more_than_held(us, fresh):
    state = holding(fresh, 0, BOARDWALK)
    both = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 10},
        "take": {"cash": 20},
    }
    assert refused(us, state, "trade", both).rule == "input"
    state.players[1].cash = 0
    loan = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 400}}
    error = refused(us, state, "trade", loan)
    assert error.rule == "K1" and error.params["shortfall"] == 400


def test_x3_a_mortgaged_deed_may_be_traded_and_stays_mortgaged(us, fresh):
    state = holding(fresh, 0, READING)
    state = apply(state, us, "mortgage", {"player": 0, "deed": READING}).state
    trade = {"player": 0, "partner": 2, "give": {"deeds": [READING]}, "take": {"cash": 80}}
    after = apply(state, us, "trade", trade).state
    assert after.deeds[READING].owner == 2 and after.deeds[READING].mortgaged
    assert after.players[2].cash == 1500 - 80 - interest(us.spaces[READING].mortgage)
    assert refused(us, after, "lift", {"player": 0, "deed": READING}).rule == "M5"


# -- closing figures ---------------------------------------------------------------------------


def test_b3_b6_closing_figures_hotels_on_all_three_greens(us, greens):
    """Hand-checked: a hotel on each green is 4 houses and a hotel at 200 each:
    3 x 5 x 200 = 3,000 to build; sold back at half: 1,500. The same money whether built
    a house at a time or at once; the supply ends at 32 houses and 9 hotels."""
    price = us.groups["green"].house_price
    at_once = build(us, greens, [HOTEL] * 3)
    cost = greens.players[0].cash - at_once.state.players[0].cash
    assert cost == 3 * (4 + 1) * price == 3000
    assert at_once.text.startswith("Ana pays the bank $3,000 to build; a hotel on Pacific Avenue")
    step, paid = greens, []
    for target in ([1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [HOTEL] * 3):
        outcome = build(us, step, target)
        paid.append(step.players[0].cash - outcome.state.players[0].cash)
        step = outcome.state
    assert paid == [600, 600, 600, 600, 600] and step == at_once.state
    assert (step.houses, step.hotels) == (32, 9)
    sold = build(us, step, [0, 0, 0])
    assert sold.state.players[0].cash - step.players[0].cash == cost // 2 == 1500
    assert sold.text.startswith("Ana sells to the bank for $1,500")
    assert (sold.state.houses, sold.state.hotels) == (32, 12)
