"""Rules core: buildings (B1-B7, SG2), mortgages (M1-M5) and trades (X1-X3), at a `Table`,
with figures from the deeds and each payment checked by who paid whom."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, rent_due
from tablebank.rules.auctions import shortage
from tablebank.rules.property import check_trade_parties, interest, lift_cost

from ..support import (
    BOARDWALK,
    BROWN,
    DARK_BLUE,
    GREEN,
    MEDITERRANEAN,
    PARK_PLACE,
    RAILROADS,
    READING,
    US,
    Table,
    paid,
)

GREEN_HOUSE = US.groups["green"].house_price  # Pacific, North Carolina, Pennsylvania


@pytest.fixture
def greens() -> Table:
    """Ana holds the three greens and plenty of cash."""
    return Table().own(0, *GREEN).put(0, cash=10_000)


def build(table: Table, levels: list[int], group: str = "green", seat: int = 0):
    return table.do("build", player=seat, group=group, levels=levels)


def refused_build(table: Table, levels: list[int], group: str = "green", seat: int = 0):
    return table.refused("build", player=seat, group=group, levels=levels)


# -- buildings ------------------------------------------------------------------------------


def test_b1_houses_only_on_a_whole_group():
    table = Table().own(0, *GREEN[:2]).put(0, cash=10_000)
    error = refused_build(table, [1, 1, 0])
    assert error.rule == "B1" and "Pennsylvania Avenue" in error.message


def test_b1_a_house_costs_the_price_on_the_deed(greens):
    outcome = build(greens, [1, 1, 1])
    assert paid(outcome) == [(0, None, 3 * GREEN_HOUSE)] and 3 * GREEN_HOUSE == 600
    assert greens.state.houses == 32 - 3


def test_b2_building_must_be_even(greens):
    assert refused_build(greens, [2, 0, 0]).rule == "B2"
    outcome = build(greens, [2, 1, 1])
    assert greens.state.deeds[GREEN[0]].houses == 2
    assert paid(outcome) == [(0, None, 4 * GREEN_HOUSE)]


def test_b3_a_hotel_needs_four_houses_on_every_street(greens):
    build(greens, [4, 4, 3])
    assert refused_build(greens, [HOTEL, 4, 3]).rule == "B2"
    build(greens, [4, 4, 4])
    outcome = build(greens, [HOTEL, 4, 4])
    assert paid(outcome) == [(0, None, GREEN_HOUSE)]
    assert greens.state.hotels == 11 and greens.state.houses == 32 - 8  # the 4 went back


def test_b3_hotels_on_all_three_greens_cost_3000_and_refund_1500(greens):
    """Hand-checked: 3 x (4 houses + hotel) x 200 = 3000; sold back at half = 1500."""
    outcome = build(greens, [HOTEL] * 3)
    assert paid(outcome) == [(0, None, 3 * 5 * GREEN_HOUSE)] and 3 * 5 * GREEN_HOUSE == 3000
    assert (greens.state.houses, greens.state.hotels) == (32, 9)
    outcome = build(greens, [0, 0, 0])
    assert paid(outcome) == [(None, 0, 1500)]
    assert (greens.state.houses, greens.state.hotels) == (32, 12)


def test_sg2_a_short_game_hotel_needs_three_houses_and_sells_for_one_house_less():
    table = Table(mode="short").own(0, *GREEN).put(0, cash=10_000)
    outcome = build(table, [HOTEL] * 3)
    assert paid(outcome) == [(0, None, 3 * 4 * GREEN_HOUSE)] and 3 * 4 * GREEN_HOUSE == 2400
    hotel_rent = US.spaces[GREEN[2]].rent[HOTEL]
    assert rent_due(table.state, US, GREEN[2], 7) == hotel_rent  # unchanged
    outcome = build(table, [0, 0, 0])
    assert paid(outcome) == [(None, 0, 1200)]


def test_b4_no_building_while_a_street_of_the_group_is_mortgaged():
    table = Table().own(0, *GREEN, mortgaged=[GREEN[1]]).put(0, cash=10_000)
    assert refused_build(table, [1, 1, 1]).rule == "B4"


def test_b5_no_house_when_the_bank_has_none(greens):
    greens.state.houses = 2
    error = refused_build(greens, [1, 1, 1])
    assert error.rule == "B5" and error.params["needed"] == 3


def test_b5_the_supply_counts_on_the_way_to_a_hotel(greens):
    """Eight houses in the bank cannot make 4, 4 and a hotel: it needs 12 at once."""
    greens.state.houses = 8
    error = refused_build(greens, [4, 4, HOTEL])
    assert error.rule == "B5" and error.params["needed"] == 12


def test_b5_a_building_shortage_goes_to_auction_from_the_lowest_house_price(greens):
    table = greens.own(1, *BROWN).put(1, cash=5000)
    table.state.houses = 1
    table.do("auction_open", building="house")
    assert table.state.auction.minimum == min(GREEN_HOUSE, US.groups["brown"].house_price)
    table.do("bid", player=1, amount=60)
    outcome = table.do("auction_close", deed=MEDITERRANEAN)
    assert paid(outcome) == [(1, None, 60)]
    assert table.state.deeds[MEDITERRANEAN].houses == 1 and table.state.houses == 0
    assert table.cash(1) == 5000 - 60


def test_b5_sg2_a_short_game_s_streets_still_take_a_fourth_house_in_a_shortage():
    """B5, B2, SG2: in the short game a hotel needs 3 houses, but a street still takes 4
    (B2). Ana's greens and Bea's browns stand at 3 houses each: room for 5 more houses, and
    the bank's 3 are a shortage to auction."""
    table = Table(mode="short")
    table.do("deal", hands=[[GREEN[0], GREEN[1]], list(BROWN), [READING, RAILROADS[1]]])
    table.own(0, GREEN[2]).put(0, cash=10_000).put(1, cash=10_000)
    build(table, [3, 3, 3])
    build(table, [3, 3], group="brown", seat=1)
    table.state.houses = 3
    assert shortage(table.state, US, "house")
    table.state.houses = 5
    assert not shortage(table.state, US, "house")  # as many as the streets could take


def test_b6_selling_back_pays_half_the_price_evenly(greens):
    build(greens, [3, 3, 3])
    assert refused_build(greens, [3, 3, 1]).rule == "B2"
    outcome = build(greens, [2, 2, 2])
    assert paid(outcome) == [(None, 0, 3 * GREEN_HOUSE // 2)]


def test_b6_breaking_a_hotel_down_needs_the_houses_in_the_bank(greens):
    build(greens, [HOTEL] * 3)
    greens.state.houses = 4
    error = refused_build(greens, [4, 4, 4])
    assert error.rule == "B6" and "sell the hotels as one" in error.message
    one = greens.copy()
    outcome = build(one, [4, HOTEL, HOTEL])  # one hotel: 4 houses, there
    assert paid(outcome) == [(None, 0, GREEN_HOUSE // 2)]
    outcome = build(greens, [0, 0, 0])  # sold as one: no houses needed
    assert paid(outcome) == [(None, 0, 3 * 5 * GREEN_HOUSE // 2)]


def test_b7_buildings_are_never_sold_to_players(greens):
    build(greens, [1, 1, 1])
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREEN[0]]}, "take": {"cash": 500}}
    assert greens.refused("trade", **trade).rule == "X1"


# -- mortgages ------------------------------------------------------------------------------


def test_m1_mortgage_pays_the_value_on_the_deed():
    table = Table().own(0, PARK_PLACE)
    outcome = table.do("mortgage", player=0, deed=PARK_PLACE)
    assert paid(outcome) == [(None, 0, US.spaces[PARK_PLACE].mortgage)]
    assert table.cash(0) == 1500 + US.spaces[PARK_PLACE].mortgage == 1675
    assert table.state.deeds[PARK_PLACE].mortgaged


def test_m1_mortgaging_a_built_group_first_sells_its_buildings(greens):
    build(greens, [2, 2, 1])
    outcome = greens.do("mortgage", player=0, deed=GREEN[2])
    refund = 5 * GREEN_HOUSE // 2
    assert paid(outcome) == [(None, 0, refund), (None, 0, US.spaces[GREEN[2]].mortgage)]
    assert all(greens.state.deeds[i].houses == 0 for i in GREEN)
    assert greens.state.houses == 32
    assert "sells the Green buildings for $500" in outcome.text


def test_m2_no_rent_on_the_mortgaged_street_the_rest_of_the_group_still_doubles():
    table = Table().own(0, *DARK_BLUE, mortgaged=[PARK_PLACE])
    outcome = table.throws_onto(1, PARK_PLACE)
    assert paid(outcome) == [] and "Park Place is mortgaged: no rent" in outcome.text
    outcome = table.throws_onto(2, BOARDWALK)
    assert paid(outcome) == [(2, 0, 2 * US.spaces[BOARDWALK].rent[0])]


def test_m3_lifting_costs_the_value_plus_ten_percent_rounded_up():
    assert lift_cost(US.spaces[PARK_PLACE].mortgage) == 175 + 18 == 193
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    outcome = table.do("lift", player=0, deed=PARK_PLACE)
    assert paid(outcome) == [(0, None, 193)]
    assert not table.state.deeds[PARK_PLACE].mortgaged


def test_m4_a_mortgaged_deed_received_costs_ten_percent_at_once():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    trade = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    lifted = table.copy()
    outcome = table.do("trade", **trade, lift=[])  # the banker asked Bea: she keeps it
    charge = interest(US.spaces[PARK_PLACE].mortgage)
    assert charge == 18
    assert paid(outcome) == [(1, 0, 100), (1, None, charge)]
    deed = table.state.deeds[PARK_PLACE]
    assert deed.mortgaged and deed.owner == 1
    outcome = lifted.do("trade", **trade, lift=[PARK_PLACE])
    assert paid(outcome) == [(1, 0, 100), (1, None, lift_cost(US.spaces[PARK_PLACE].mortgage))]
    assert lifted.cash(1) == 1500 - 100 - 193
    assert not lifted.state.deeds[PARK_PLACE].mortgaged


def test_m5_only_the_owner_lifts_a_mortgage():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    assert table.refused("lift", player=1, deed=PARK_PLACE).rule == "M5"


# -- trades ---------------------------------------------------------------------------------


def test_x1_deeds_cash_and_cards_change_hands_both_ways():
    table = Table().own(0, BOARDWALK).own(1, *RAILROADS[:2]).put(1, jail_free=["chest"])
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK], "cash": 50},
        "take": {"deeds": list(RAILROADS[:2]), "jail_free": 1},
    }
    outcome = table.do("trade", **trade)
    assert paid(outcome) == [(0, 1, 50)]
    deeds = table.state.deeds
    assert deeds[BOARDWALK].owner == 1
    assert (deeds[RAILROADS[0]].owner, deeds[RAILROADS[1]].owner) == (0, 0)
    assert table.state.players[0].jail_free == ["chest"] and table.state.players[1].jail_free == []
    assert table.cash() == [1450, 1550, 1500]


def test_x1_no_deed_of_a_built_group_changes_hands(greens):
    build(greens, [1, 1, 1])
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREEN[2]]}, "take": {"cash": 1}}
    error = greens.refused("trade", **trade)
    assert error.rule == "X1" and "sell them to the bank first" in error.message


def test_x1_a_side_that_lacks_the_cash_is_refused():
    table = Table().own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 2000}}
    error = table.refused("trade", **trade)
    assert error.rule == "K1" and error.params["name"] == "Bea"


def test_x2_a_player_only_gives_what_they_hold():
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 1}}
    assert Table().refused("trade", **trade).rule == "X1"


@pytest.mark.parametrize("bankrupt", [0, 1])
def test_k2_x1_a_bankrupt_player_trades_nothing_either_side(bankrupt):
    """K2: a player out of the game cannot trade, as proposer or partner; a page asks the
    same question before any side is chosen (check_trade_parties), with the same answer."""
    table = Table().own(1 - bankrupt, BOARDWALK).put(bankrupt, bankrupt=True)
    give = {"deeds": [BOARDWALK]} if bankrupt else {"cash": 10}
    take = {"cash": 10} if bankrupt else {"deeds": [BOARDWALK]}
    trade = {"player": 0, "partner": 1, "give": give, "take": take}
    error = table.refused("trade", **trade)
    assert error.rule == "K2" and error.params["player"] == bankrupt
    assert error.message == f"{table.state.players[bankrupt].name} is bankrupt and out of the game"
    with pytest.raises(RuleError) as asked:
        check_trade_parties(table.state, table.edition, {"player": 0, "partner": 1})
    assert asked.value.to_dict() == error.to_dict()
    check_trade_parties(table.state, table.edition, {"player": 1 - bankrupt, "partner": 2})


def test_x3_a_mortgaged_deed_may_be_traded():
    table = Table().own(0, READING, mortgaged=[READING])
    trade = {"player": 0, "partner": 2, "give": {"deeds": [READING]}, "take": {"cash": 80}}
    outcome = table.do("trade", **trade, lift=[])  # asked: Cal keeps it
    assert paid(outcome) == [(2, 0, 80), (2, None, interest(US.spaces[READING].mortgage))]
    assert table.state.deeds[READING].owner == 2 and table.state.deeds[READING].mortgaged


def test_x1_an_open_offer_knows_who_made_it_and_who_answers_it_as_the_seats_were_sent():
    """X1: a phone's form sends seats as text; the offer still names its proposer (who may
    withdraw it) and its partner (who accepts or declines it), and no one else."""
    table = Table().own(0, BOARDWALK)
    trade = {"give": {"deeds": [BOARDWALK]}, "take": {"cash": 100}}
    table.do("trade_offer", player="0", partner="1", **trade)
    [offer] = table.state.offers
    assert [offer.offered_by(seat) for seat in (0, 1, 2)] == [True, False, False]
    assert [offer.offered_to(seat) for seat in (0, 1, 2)] == [False, True, False]
    assert [offer.concerns(seat) for seat in (0, 1, 2)] == [True, True, False]


def test_b5_a_house_won_at_auction_costs_the_bid_not_the_printed_price(greens):
    table = greens.own(1, *BROWN).put(0, cash=100)  # bidding may start at 50, under 200
    table.state.houses = 1
    table.do("auction_open", building="house")
    table.do("bid", player=0, amount=60)
    outcome = table.do("auction_close", deed=GREEN[1])
    assert paid(outcome) == [(0, None, 60)] and table.cash(0) == 40
    assert table.state.deeds[GREEN[1]].houses == 1 and table.state.houses == 0
