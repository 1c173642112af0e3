"""Rules core for the property engine: buildings (B1-B7, SG2), mortgages (M1-M5), trades
(X1-X3) with the finite supply (S3), worked out from the edition's own figures, at a `Table`.

Every expected amount is computed from the deeds (`US.groups["green"].house_price`,
`US.spaces[37].mortgage`); a few printed figures are asserted as well, so a wrong edition
file shows up too. Each payment is checked by who paid whom (`paid`), a rent by a throw.
"""

from __future__ import annotations

import math

import pytest
from tablebank.rules import HOTEL, rent_due
from tablebank.rules.property import interest, lift_cost

from ..support import (
    BOARDWALK,
    BROWN,
    DARK_BLUE,
    ELECTRIC,
    GREEN,
    MEDITERRANEAN,
    PARK_PLACE,
    PENNSYLVANIA,
    RAILROADS,
    READING,
    US,
    Table,
    card_of,
    paid,
)

PENNSYLVANIA_RR = RAILROADS[1]
PRICE = US.groups["green"].house_price
HALF = PRICE // 2


# -- helpers -----------------------------------------------------------------------------------


def build(table: Table, levels: list[int], group: str = "green", seat: int = 0):
    return table.do("build", player=seat, group=group, levels=levels)


def refused_build(table: Table, levels: list[int], group: str = "green", seat: int = 0):
    return table.refused("build", player=seat, group=group, levels=levels)


def on_board(table: Table) -> tuple[int, int]:
    built = [d.houses for d in table.state.deeds.values()]
    return sum(h for h in built if h != HOTEL), built.count(HOTEL)


def supply(table: Table) -> tuple[int, int]:
    return table.state.houses, table.state.hotels


@pytest.fixture
def greens() -> Table:
    """Ana holds the three greens and 10,000 in cash."""
    return Table().own(0, *GREEN).put(0, cash=10_000)


@pytest.fixture
def short_greens() -> Table:
    """The same in a short game (SG2): a hotel needs three houses."""
    return Table(mode="short").own(0, *GREEN).put(0, cash=10_000)


# -- B1: whole groups, at the printed house price ------------------------------------------------


def test_b1_houses_need_every_street_of_the_group():
    table = Table().own(0, *GREEN[:2]).put(0, cash=10_000).own(1, GREEN[2])
    error = refused_build(table, [1, 1, 1])
    assert error.rule == "B1"
    missing = US.spaces[GREEN[2]].name
    assert error.message == f"Ana does not hold the whole Green group: {missing}"


def test_b1_only_the_owner_of_the_group_builds_on_it(greens):
    error = refused_build(greens, [1, 1, 1], seat=1)
    assert error.rule == "B1" and "Bea does not hold the whole Green group" in error.message


@pytest.mark.parametrize("group", ["brown", "light_blue", "pink", "orange", "red", "yellow"])
def test_b1_a_house_costs_the_house_price_printed_for_its_group(group):
    deeds = US.groups[group].deeds
    table = Table().own(2, *deeds).put(2, cash=5_000)
    outcome = build(table, [1] * len(deeds), group, seat=2)
    assert paid(outcome) == [(2, None, len(deeds) * US.groups[group].house_price)]
    assert table.state.houses == US.houses - len(deeds)


def test_b1_printed_house_prices_of_the_greens_and_dark_blues():
    assert US.groups["green"].house_price == US.groups["dark_blue"].house_price == 200
    table = Table().own(0, *DARK_BLUE)
    outcome = build(table, [1, 1], "dark_blue")
    assert paid(outcome) == [(0, None, 400)]
    assert outcome.text == (
        "Ana pays the bank $400 to build; 1 house on Park Place; 1 house on Boardwalk; "
        "the bank has 30 houses and 12 hotels left"
    )


def test_b1_railroads_and_utilities_take_no_buildings():
    table = Table().own(0, *RAILROADS)
    error = refused_build(table, [1] * 4, "railroad")
    assert error.rule == "input" and error.message == "Choose a colour group"


# -- B2: evenly, at most four houses -----------------------------------------------------------


def test_b2_a_target_that_breaks_evenness_is_refused_with_the_reason(greens):
    error = refused_build(greens, [2, 0, 1])
    assert error.rule == "B2"
    assert error.message == "Build evenly: no street may be more than one house above another"


def test_b2_one_house_of_difference_is_even(greens):
    outcome = build(greens, [2, 1, 2])
    assert [greens.state.deeds[i].houses for i in GREEN] == [2, 1, 2]
    assert paid(outcome) == [(0, None, 5 * PRICE)]


def test_b2_selling_back_is_even_too(greens):
    build(greens, [3, 3, 3])
    assert refused_build(greens, [3, 1, 3]).rule == "B2"
    outcome = build(greens, [3, 2, 3])
    assert greens.state.deeds[GREEN[1]].houses == 2
    assert paid(outcome) == [(None, 0, HALF)]


def test_b2_a_hotel_counts_as_five_houses(greens):
    build(greens, [4, 4, 4])
    one = greens.copy()
    build(one, [HOTEL, 4, 4])
    assert one.state.deeds[GREEN[0]].houses == HOTEL
    build(greens, [HOTEL] * 3)
    error = refused_build(greens, [HOTEL, 3, 3])
    assert error.rule == "B2"


def test_b2_no_more_than_four_houses_or_a_hotel(greens):
    error = refused_build(greens, [6, 6, 6])
    assert error.rule == "input" and "between 0 and 5" in error.message


def test_b2_every_street_gets_a_level(greens):
    error = refused_build(greens, [1, 1])
    assert error.rule == "input" and "each of the 3 streets" in error.message


# -- B3: hotels --------------------------------------------------------------------------------


def test_b3_a_hotel_costs_the_house_price_and_its_four_houses_go_back(greens):
    build(greens, [4, 4, 4])
    assert greens.state.houses == US.houses - 12
    outcome = build(greens, [4, 4, HOTEL])
    assert paid(outcome) == [(0, None, PRICE)]
    assert supply(greens) == (US.houses - 8, US.hotels - 1)
    assert "a hotel on Pennsylvania Avenue" in outcome.text


def test_b3_hotels_straight_from_bare_land_pay_for_the_houses_too(greens):
    outcome = build(greens, [HOTEL] * 3)
    assert paid(outcome) == [(0, None, 3 * (4 + 1) * PRICE)]
    assert supply(greens) == (US.houses, US.hotels - 3)


def test_b3_one_hotel_per_street_at_most(greens):
    build(greens, [HOTEL] * 3)
    error = refused_build(greens, [HOTEL] * 3)
    assert error.rule == "input" and error.message == "That is what is built already"


# -- B4: no building on a group with a mortgage --------------------------------------------------


def test_b4_no_building_while_any_street_of_the_group_is_mortgaged(greens):
    greens.do("mortgage", player=0, deed=GREEN[2])
    error = refused_build(greens, [1, 1, 1])
    assert error.rule == "B4"
    assert error.message == "No building on the Green group while a street is mortgaged"
    greens.do("lift", player=0, deed=GREEN[2])
    assert paid(build(greens, [1, 1, 1])) == [(0, None, 3 * PRICE)]
    assert greens.state.houses == US.houses - 3


# -- B5: the finite supply ---------------------------------------------------------------------


def test_b5_no_house_when_the_bank_has_too_few(greens):
    greens.state.houses = 2
    error = refused_build(greens, [1, 1, 1])
    assert error.rule == "B5"
    assert error.message == "The bank has 2 houses; building this evenly needs 3 of them"
    build(greens, [1, 0, 1])
    assert greens.state.houses == 0


def test_b5_the_houses_are_counted_on_the_way_up_to_hotels(greens):
    """[4, 4, hotel] passes through 12 houses on the board before the hotel takes 4 back."""
    greens.state.houses = 11
    error = refused_build(greens, [4, 4, HOTEL])
    assert (error.rule, error.params["needed"]) == ("B5", 12)
    greens.state.houses = 12
    build(greens, [4, 4, HOTEL])
    assert supply(greens) == (4, US.hotels - 1)


def test_b5_no_hotel_when_the_bank_has_none_left(greens):
    """The bank's count agrees with its noun: it said "The bank has 1 hotels"."""
    build(greens, [4, 4, 4])
    greens.state.hotels = 1
    error = refused_build(greens, [HOTEL] * 3)
    assert error.rule == "B5" and error.message == "The bank has 1 hotel; this needs 3"
    build(greens, [4, 4, HOTEL])
    assert greens.state.hotels == 0


def test_b5_the_supply_is_in_every_building_sentence(greens):
    outcome = build(greens, [2, 2, 2])
    assert outcome.text.endswith(f"the bank has {US.houses - 6} houses and {US.hotels} hotels left")


def test_b5_a_shortage_is_auctioned_from_the_lowest_house_price_involved(greens):
    table = greens.own(1, *BROWN).put(1, cash=3_000)
    table.state.houses = 1
    table.do("auction_open", building="house")
    assert table.state.auction.minimum == US.groups["brown"].house_price == 50
    table.do("bid", player=0, amount=75)
    table.do("bid", player=1, amount=90)
    outcome = table.do("auction_close", deed=MEDITERRANEAN)
    assert paid(outcome) == [(1, None, 90)]
    assert table.state.deeds[MEDITERRANEAN].houses == 1 and table.state.houses == 0
    assert table.cash() == [10_000, 3_000 - 90, 1500]


def test_b5_a_group_that_cannot_take_the_building_is_not_involved_in_its_auction(greens):
    """B5: the bidding starts at the lowest house price on the deeds involved: the streets
    a house could go on. Bea's browns, built up to hotels, take no house: the greens' price
    is the lowest involved, not the browns' 50."""
    table = greens.own(1, *BROWN, houses=HOTEL).put(1, cash=3_000)
    table.own(2, *DARK_BLUE)
    table.state.houses, table.state.hotels = 2, US.hotels - 2
    table.do("auction_open", building="house")
    lowest = min(US.groups["green"].house_price, US.groups["dark_blue"].house_price)
    assert table.state.auction.minimum == lowest == 200
    assert table.refused("bid", player=1, amount=lowest).rule == "B5"  # nowhere to put it
    assert table.refused("bid", player=0, amount=lowest - 1).rule == "P1"


# -- B6: selling back at half, hotels broken down only with houses in the bank ---------------------


def test_b6_selling_back_pays_half_the_price_paid(greens):
    build(greens, [3, 3, 3])
    outcome = build(greens, [1, 1, 1])
    assert paid(outcome) == [(None, 0, 6 * HALF)] and 6 * HALF == 600
    assert outcome.text.startswith("Ana sells to the bank for $600; 1 house on Pacific Avenue")
    assert greens.state.houses == US.houses - 3


def test_b6_hotels_sold_as_one_pay_half_the_hotel_and_half_its_houses(greens):
    build(greens, [HOTEL] * 3)
    greens.state.houses = 0  # sold as one, the hotels need no house from the bank
    outcome = build(greens, [0, 0, 0])
    assert paid(outcome) == [(None, 0, 3 * (PRICE // 2 + 4 * PRICE // 2))]
    assert supply(greens) == (0, US.hotels)


def test_b6_breaking_a_hotel_down_needs_four_houses_in_the_bank(greens):
    build(greens, [HOTEL] * 3)
    greens.state.houses = 3
    error = refused_build(greens, [HOTEL, HOTEL, 4])
    assert error.rule == "B6"
    assert error.message == (
        "Breaking the hotels down needs 4 houses and the bank has 3: "
        "sell the hotels as one (to no buildings) instead"
    )
    greens.state.houses = 4
    hotels = greens.state.hotels
    outcome = build(greens, [HOTEL, HOTEL, 4])
    assert paid(outcome) == [(None, 0, HALF)]
    assert supply(greens) == (0, hotels + 1)


def test_b6_a_hotel_broken_down_takes_all_four_houses_even_to_keep_three(greens):
    """Hotel to 3 houses: the bank hands over 4, then takes one back; it must have the 4."""
    build(greens, [4, 4, HOTEL])
    greens.state.houses = 3
    error = refused_build(greens, [4, 4, 3])
    assert error.rule == "B6" and error.params["needed"] == 4
    greens.state.houses = 4
    outcome = build(greens, [4, 4, 3])
    assert paid(outcome) == [(None, 0, HALF + HALF)]
    assert greens.state.houses == 4 - 3


def test_b6_three_hotels_to_houses_need_twelve_houses_first(greens):
    build(greens, [HOTEL] * 3)
    greens.state.houses = 8
    for target in ([4, 4, 4], [2, 2, 2], [1, 1, 1]):
        error = refused_build(greens, target)
        assert (error.rule, error.params["needed"], error.params["houses"]) == ("B6", 12, 8)
    # what can be done: two hotels broken down, or all of them sold as one
    two = greens.copy()
    build(two, [4, 4, HOTEL])
    assert two.state.houses == 0
    build(greens, [0, 0, 0])
    assert greens.state.houses == 8


def test_b6_sell_down_step_by_step_or_at_once_pays_the_same(greens):
    build(greens, [HOTEL] * 3)
    at_once = greens.copy()
    [(_, _, refund)] = paid(build(at_once, [0, 0, 0]))
    refunds = []
    for target in ([4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0]):
        [(payer, payee, amount)] = paid(build(greens, target))
        assert (payer, payee) == (None, 0)
        refunds.append(amount)
    assert sum(refunds) == refund and greens.cash(0) == at_once.cash(0)
    assert on_board(greens) == (0, 0) and supply(greens) == (US.houses, US.hotels)


# -- B7: buildings go back to the bank only ------------------------------------------------------


def test_b7_a_built_group_cannot_change_hands_until_sold_to_the_bank(greens):
    build(greens, [1, 1, 1])
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREEN[0]]}, "take": {"cash": 1}}
    error = greens.refused("trade", **trade)
    assert error.rule == "X1"
    assert error.message == "The Green group has buildings: sell them to the bank first"
    build(greens, [0, 0, 0])
    assert paid(greens.do("trade", **trade)) == [(1, 0, 1)]
    assert greens.state.deeds[GREEN[0]].owner == 1 and greens.state.deeds[GREEN[0]].houses == 0
    assert supply(greens) == (US.houses, US.hotels)


# -- SG2: the short game's hotels ---------------------------------------------------------------


def test_sg2_a_hotel_needs_three_houses_in_the_short_game(greens, short_greens):
    build(short_greens, [3, 3, 3])
    build(short_greens, [HOTEL, 3, 3])
    assert short_greens.state.hotels == US.hotels - 1
    build(greens, [3, 3, 3])
    error = refused_build(greens, [HOTEL, 3, 3])
    assert error.rule == "B2"  # a classic hotel stands five high: four houses first


def test_sg2_short_game_hotels_cost_four_house_prices_and_sell_for_half(short_greens):
    outcome = build(short_greens, [HOTEL] * 3)
    assert paid(outcome) == [(0, None, 3 * (3 + 1) * PRICE)] and 3 * (3 + 1) * PRICE == 2400
    outcome = build(short_greens, [0, 0, 0])
    assert paid(outcome) == [(None, 0, 2400 // 2)]
    assert 1500 - 3 * PRICE // 2 == 1200  # one house less a street than the classic game


def test_sg2_breaking_a_short_game_hotel_down_needs_three_houses(short_greens):
    build(short_greens, [HOTEL] * 3)
    short_greens.state.houses = 2
    error = refused_build(short_greens, [3, HOTEL, HOTEL])
    assert (error.rule, error.params["needed"]) == ("B6", 3)
    short_greens.state.houses = 3
    outcome = build(short_greens, [3, HOTEL, HOTEL])
    assert short_greens.state.houses == 0
    assert paid(outcome) == [(None, 0, HALF)]


def test_sg2_b3_a_fourth_house_is_sold_back_at_half_when_its_street_takes_a_hotel(short_greens):
    """SG2, B3, B6: a short-game hotel takes 3 houses. A street that stands at 4 (B2 allows
    it) keeps no fourth house under its hotel: that house goes back at half its price (B6),
    the 3 go back for the hotel, which costs its price: the same money as selling the fourth
    house first. Before, all 4 went back for the hotel and the fourth house was lost."""
    build(short_greens, [4, 4, 4])
    by_hand = short_greens.copy()
    outcome = build(short_greens, [HOTEL, 4, 4])
    assert paid(outcome) == [(0, None, PRICE - HALF)] and PRICE - HALF == 100
    assert supply(short_greens) == (US.houses - 3 * 4 + 4, US.hotels - 1)
    sold = build(by_hand, [3, 4, 4])
    bought = build(by_hand, [HOTEL, 4, 4])
    assert paid(sold) + paid(bought) == [(None, 0, HALF), (0, None, PRICE)]
    assert by_hand.state == short_greens.state
    outcome = build(short_greens, [0, 0, 0])  # half the hotel with its 3 houses, half of 8
    assert paid(outcome) == [(None, 0, ((3 + 1) * PRICE + 2 * 4 * PRICE) // 2)]


def test_sg2_hotel_rent_is_unchanged_in_the_short_game(greens, short_greens):
    build(short_greens, [HOTEL] * 3)
    build(greens, [HOTEL] * 3)
    for index in GREEN:
        hotel_rent = US.spaces[index].rent[HOTEL]
        assert rent_due(short_greens.state, US, index) == hotel_rent
        assert rent_due(greens.state, US, index) == hotel_rent
    short_greens.do("deal", hands=[[1, 3], [6, 8], [11, 13]])
    for table in (short_greens, greens):
        outcome = table.put(1, cash=5_000).throws_onto(1, PENNSYLVANIA)
        assert paid(outcome) == [(1, 0, 1400)]


# -- M1: mortgages -----------------------------------------------------------------------------


def test_m1_the_bank_pays_the_mortgage_value_printed_on_the_deed():
    table = Table().own(0, PARK_PLACE, READING, ELECTRIC)
    for deed in (PARK_PLACE, READING, ELECTRIC):
        outcome = table.do("mortgage", player=0, deed=deed)
        assert paid(outcome) == [(None, 0, US.spaces[deed].mortgage)]
        assert table.state.deeds[deed].mortgaged and table.state.deeds[deed].owner == 0
    assert (US.spaces[PARK_PLACE].mortgage, US.spaces[READING].mortgage) == (175, 100)
    assert table.cash(0) == 1500 + 175 + 100 + 75


def test_m1_a_mortgaged_deed_cannot_be_mortgaged_again():
    table = Table().own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    error = table.refused("mortgage", player=0, deed=PARK_PLACE)
    assert error.rule == "M1" and error.message == "Park Place is already mortgaged"


def test_m1_mortgaging_a_built_group_sells_its_buildings_first_and_says_so(greens):
    build(greens, [HOTEL, HOTEL, 4])
    outcome = greens.do("mortgage", player=0, deed=PENNSYLVANIA)
    refund = 2 * (5 * PRICE) // 2 + 4 * PRICE // 2
    value = US.spaces[PENNSYLVANIA].mortgage
    assert paid(outcome) == [(None, 0, refund), (None, 0, value)]
    assert outcome.text == (
        f"Ana sells the Green buildings for ${refund:,}; "
        f"Ana mortgages Pennsylvania Avenue for ${value}; "
        f"4 houses and 2 hotels go back to the bank; "
        f"the bank has {US.houses} houses and {US.hotels} hotels left"
    )
    assert refund == 1400 and value == 160
    assert on_board(greens) == (0, 0)


def test_m1_a_group_without_buildings_is_mortgaged_alone(greens):
    outcome = greens.do("mortgage", player=0, deed=GREEN[0])
    assert outcome.text == "Ana mortgages Pacific Avenue for $150"
    assert [greens.state.deeds[i].mortgaged for i in GREEN] == [True, False, False]


# -- M2: no rent on a mortgaged deed ------------------------------------------------------------


def test_m2_no_rent_on_a_mortgaged_street_the_rest_of_the_group_still_doubles():
    table = Table().own(0, *GREEN)
    table.do("mortgage", player=0, deed=GREEN[0])
    assert rent_due(table.state, US, GREEN[0]) == 0
    for index in GREEN[1:]:
        assert rent_due(table.state, US, index) == 2 * US.spaces[index].rent[0]
    outcome = table.throws_onto(1, GREEN[0])
    assert paid(outcome) == [] and "Pacific Avenue is mortgaged: no rent" in outcome.text
    outcome = table.throws_onto(2, PENNSYLVANIA)
    assert paid(outcome) == [(2, 0, 2 * US.spaces[PENNSYLVANIA].rent[0])] == [(2, 0, 56)]


def test_m2_p5_a_mortgaged_railroad_still_counts_for_the_others():
    table = Table().own(0, READING, PENNSYLVANIA_RR)
    table.do("mortgage", player=0, deed=READING)
    assert rent_due(table.state, US, READING) == 0
    outcome = table.throws_onto(1, PENNSYLVANIA_RR)
    assert paid(outcome) == [(1, 0, US.spaces[PENNSYLVANIA_RR].rent[1])] == [(1, 0, 50)]
    assert paid(table.throws_onto(2, READING, 5)) == []


# -- M3: lifting at value plus 10%, rounded up ----------------------------------------------------


def test_m3_lifting_costs_the_value_plus_ten_percent_rounded_up_for_every_deed():
    for deed in US.deeds:
        assert lift_cost(deed.mortgage) == deed.mortgage + math.ceil(deed.mortgage / 10)
    assert lift_cost(US.spaces[PARK_PLACE].mortgage) == 175 + 18 == 193
    assert lift_cost(US.spaces[ELECTRIC].mortgage) == 75 + 8 == 83  # 7.5 rounds up
    assert lift_cost(US.spaces[MEDITERRANEAN].mortgage) == 30 + 3 == 33


def test_m3_lift_is_shown_with_its_amount_and_charged():
    table = Table().own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    outcome = table.do("lift", player=0, deed=PARK_PLACE)
    assert outcome.text == "Ana lifts the mortgage on Park Place for $193"
    assert not table.state.deeds[PARK_PLACE].mortgaged
    assert paid(outcome) == [(0, None, 193)]


def test_m3_only_a_mortgaged_deed_is_lifted():
    table = Table().own(0, PARK_PLACE)
    error = table.refused("lift", player=0, deed=PARK_PLACE)
    assert error.rule == "M3" and error.message == "Park Place is not mortgaged"


def test_m3_a_lift_the_owner_cannot_pay_is_refused_with_the_shortfall():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE]).put(0, cash=0)
    error = table.refused("lift", player=0, deed=PARK_PLACE)
    assert error.rule == "K1" and error.params["shortfall"] == 193


# -- M4: a mortgaged deed received -------------------------------------------------------------


def test_m4_a_mortgaged_deed_received_costs_ten_percent_at_once():
    value = US.spaces[PARK_PLACE].mortgage
    table = Table().own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    outcome = table.do("trade", **trade, lift=[])  # the banker asked Bea: she keeps it
    assert interest(value) == 18
    assert paid(outcome) == [(1, 0, 100), (1, None, interest(value))]
    assert table.cash(1) == 1500 - 100 - 18
    deed = table.state.deeds[PARK_PLACE]
    assert deed.mortgaged and deed.owner == 1
    assert outcome.text.endswith("Bea pays $18 interest and keeps Park Place mortgaged")
    outcome = table.do("lift", player=1, deed=PARK_PLACE)
    assert paid(outcome) == [(1, None, lift_cost(value))] == [(1, None, 193)]  # 10% again


def test_m4_lifting_at_once_costs_the_value_and_ten_percent_only():
    value = US.spaces[PARK_PLACE].mortgage
    table = Table().own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [PARK_PLACE]},
        "take": {"cash": 100},
        "lift": [PARK_PLACE],
    }
    outcome = table.do("trade", **trade)
    assert paid(outcome) == [(1, 0, 100), (1, None, value + interest(value))]
    assert not table.state.deeds[PARK_PLACE].mortgaged
    assert outcome.text.endswith("Bea lifts Park Place now for $193")


def test_m4_each_mortgaged_deed_is_lifted_or_kept_on_its_own():
    table = Table().own(0, PARK_PLACE, READING)
    for deed in (PARK_PLACE, READING):
        table.do("mortgage", player=0, deed=deed)
    trade = {
        "player": 0,
        "partner": 2,
        "give": {"deeds": [PARK_PLACE, READING]},
        "take": {"cash": 10},
        "lift": [READING],
    }
    outcome = table.do("trade", **trade)
    kept = interest(US.spaces[PARK_PLACE].mortgage)
    lifted = lift_cost(US.spaces[READING].mortgage)
    assert (kept, lifted) == (18, 110)
    assert paid(outcome) == [(2, 0, 10), (2, None, kept), (2, None, lifted)]
    deeds = table.state.deeds
    assert deeds[PARK_PLACE].mortgaged and not deeds[READING].mortgaged


def test_m4_a_receiver_who_cannot_pay_the_interest_is_refused_with_the_whole_amount():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE]).put(1, cash=110)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    error = table.refused("trade", **trade, lift=[])  # asked: she keeps it
    assert error.rule == "K1"
    assert (error.params["name"], error.params["amount"], error.params["shortfall"]) == (
        "Bea",
        118,
        8,
    )


def test_m4_cash_received_in_the_trade_pays_the_interest():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE]).put(1, cash=0)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE], "cash": 20}}
    trade["take"] = {"jail_free": 0, "deeds": []}
    assert table.refused("trade", **trade).rule == "X1"  # Bea gives nothing
    table.put(1, jail_free=["chest"])
    trade["take"] = {"jail_free": 1}
    outcome = table.do("trade", **trade, lift=[])  # asked: Bea keeps it
    assert paid(outcome) == [(0, 1, 20), (1, None, 18)]
    assert table.cash(1) == 20 - 18 and table.state.players[0].jail_free == ["chest"]


# -- M5: the owner keeps the deed --------------------------------------------------------------


def test_m5_nobody_but_the_owner_mortgages_or_lifts():
    table = Table().own(0, PARK_PLACE)
    error = table.refused("mortgage", player=1, deed=PARK_PLACE)
    assert error.rule == "M5" and error.message == "Park Place is not Bea's deed"
    table.do("mortgage", player=0, deed=PARK_PLACE)
    assert table.refused("lift", player=2, deed=PARK_PLACE).rule == "M5"
    assert table.state.deeds[PARK_PLACE].owner == 0


# -- X1-X3: trades -----------------------------------------------------------------------------


def test_x1_c3_cash_deeds_and_jail_free_cards_change_hands_both_ways():
    table = Table().own(0, BOARDWALK).own(1, READING, ELECTRIC)
    table.draws(1, card_of(US, "jail_free", deck="chance"))  # Bea keeps the card
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 150},
        "take": {"deeds": [READING, ELECTRIC], "jail_free": 1},
    }
    outcome = table.do("trade", **trade)
    deeds = table.state.deeds
    assert deeds[BOARDWALK].owner == 1
    assert (deeds[READING].owner, deeds[ELECTRIC].owner) == (0, 0)
    players = table.state.players
    assert (players[0].jail_free, players[1].jail_free) == (["chance"], [])
    assert table.cash() == [1500 - 150, 1500 + 150, 1500]
    assert paid(outcome) == [(0, 1, 150)]
    assert outcome.text == (
        "Ana trades with Bea; Boardwalk from Ana to Bea; $150 from Ana to Bea; "
        "Reading Railroad from Bea to Ana; Electric Company from Bea to Ana; "
        "1 Get Out of Jail Free card from Bea to Ana"
    )


def test_x1_the_other_way_the_partner_pays_cash_for_a_card():
    table = Table().put(0, jail_free=["chest"])
    trade = {"player": 0, "partner": 2, "give": {"jail_free": 1}, "take": {"cash": 40}}
    outcome = table.do("trade", **trade)
    assert paid(outcome) == [(2, 0, 40)]
    assert table.cash() == [1540, 1500, 1460]
    assert table.state.players[2].jail_free == ["chest"]


def test_x1_a_deed_of_a_built_group_does_not_change_hands(greens):
    build(greens, [1, 1, 1])
    greens.own(1, BOARDWALK)
    trade = {
        "player": 1,
        "partner": 0,
        "give": {"deeds": [BOARDWALK]},
        "take": {"deeds": [GREEN[1]]},
    }
    error = greens.refused("trade", **trade)
    assert error.rule == "X1" and "The Green group has buildings" in error.message


def test_x1_a_side_that_lacks_the_cash_is_refused_with_the_reason():
    table = Table().own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1600}}
    error = table.refused("trade", **trade)
    assert error.rule == "K1"
    assert error.message.startswith("Bea cannot pay $1,600: $100 short. Cash $1,500")


def test_x1_a_player_only_gives_what_they_hold():
    table = Table().own(1, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1}}
    error = table.refused("trade", **trade)
    assert error.rule == "X1" and error.message == "Boardwalk is not Ana's deed"
    cards = {"player": 0, "partner": 1, "give": {"jail_free": 1}, "take": {"cash": 1}}
    assert table.refused("trade", **cards).rule == "C3"


def test_x1_each_side_gives_something():
    table = Table().own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {}}
    error = table.refused("trade", **trade)
    assert error.rule == "X1" and error.message == "Each side of a trade gives something"


def test_x2_no_loans_cash_only_one_way_and_never_more_than_held():
    table = Table().own(0, BOARDWALK)
    both = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 10},
        "take": {"cash": 20},
    }
    assert table.refused("trade", **both).rule == "input"
    table.put(1, cash=0)
    loan = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 400}}
    error = table.refused("trade", **loan)
    assert error.rule == "K1" and error.params["shortfall"] == 400


def test_x3_a_mortgaged_deed_may_be_traded_and_stays_mortgaged():
    table = Table().own(0, READING)
    table.do("mortgage", player=0, deed=READING)
    trade = {"player": 0, "partner": 2, "give": {"deeds": [READING]}, "take": {"cash": 80}}
    outcome = table.do("trade", **trade, lift=[])  # asked: Cal keeps it
    assert table.state.deeds[READING].owner == 2 and table.state.deeds[READING].mortgaged
    assert paid(outcome) == [(2, 0, 80), (2, None, interest(US.spaces[READING].mortgage))]
    assert table.refused("lift", player=0, deed=READING).rule == "M5"


# -- closing figures ---------------------------------------------------------------------------


def test_b3_b6_closing_figures_hotels_on_all_three_greens(greens):
    """Hand-checked: a hotel on each green is 4 houses and a hotel at 200 each:
    3 x 5 x 200 = 3,000 to build; sold back at half: 1,500. The same money whether built
    a house at a time or at once; the supply ends at 32 houses and 9 hotels."""
    at_once = greens.copy()
    outcome = build(at_once, [HOTEL] * 3)
    assert paid(outcome) == [(0, None, 3 * (4 + 1) * PRICE)] == [(0, None, 3000)]
    assert outcome.text.startswith("Ana pays the bank $3,000 to build; a hotel on Pacific Avenue")
    steps = []
    for target in ([1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [HOTEL] * 3):
        steps.extend(paid(build(greens, target)))
    assert steps == [(0, None, 600)] * 5 and greens.state == at_once.state
    assert supply(greens) == (32, 9)
    sold = build(greens, [0, 0, 0])
    assert paid(sold) == [(None, 0, 1500)]
    assert sold.text.startswith("Ana sells to the bank for $1,500")
    assert supply(greens) == (32, 12)
