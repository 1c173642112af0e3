"""Rules core, rule by rule: setup, buying, rent, salary, taxes, jail and wealth, played at a
`Table`: a landing is a throw (or the banker's `land`) onto the space, and the core works out
what it costs.

Every expected figure comes from the edition's deeds; a few printed figures are asserted too.
Each payment is checked by who paid whom (`paid`), not only by the totals.
"""

from __future__ import annotations

import json
import math

import pytest
from tablebank.paths import EDITIONS
from tablebank.rules import HOTEL, RuleError, new_game, raisable, score_breakdown, total_worth
from tablebank.rules.edition import parse_edition

from ..support import (
    ALL_EDITIONS,
    BALTIC,
    BOARDWALK,
    ELECTRIC,
    GO,
    GREEN,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    ORIENTAL,
    PARK_PLACE,
    PARKING,
    RAILROADS,
    READING,
    US,
    US2008,
    WATER,
    Table,
    card_of,
    paid,
)

# -- setup ----------------------------------------------------------------------------------


def test_s1_every_player_starts_with_the_starting_cash():
    assert Table(starting_cash=2000).cash() == [2000, 2000, 2000]


@pytest.mark.parametrize("count", [1, 9])
def test_s1_a_game_has_two_to_eight_players(count):
    players = [{"name": f"P{i}", "colour": "#123456"} for i in range(count)]
    with pytest.raises(RuleError) as refused:
        new_game(US, {"edition": "us-classic", "players": players})
    assert refused.value.rule == "S1"


@pytest.mark.parametrize("colour", ["red", None, "#12345"])
def test_s1_a_player_without_a_colour_is_refused_naming_them_and_their_seat(colour):
    """S1: the refusal names the player (its words) and gives their seat and name (the API's
    refusal body), as every refusal about a player does."""
    players = [{"name": "Ana", "colour": "#e03131"}, {"name": " Bea ", "colour": colour}]
    with pytest.raises(RuleError) as refused:
        new_game(US, {"edition": "us-classic", "players": players})
    assert refused.value.to_dict() == {
        "error": "Bea needs a colour like #e03131",
        "rule": "input",
        "player": 1,
        "name": "Bea",
    }


def test_s3_the_bank_starts_with_32_houses_and_12_hotels():
    state = Table().state
    assert (state.houses, state.hotels) == (US.houses, US.hotels) == (32, 12)


def test_s4_every_edition_has_28_deeds_22_streets_4_railroads_2_utilities():
    for edition in ALL_EDITIONS.values():
        kinds = [d.kind for d in edition.deeds]
        assert (kinds.count("street"), kinds.count("railroad"), kinds.count("utility")) == (
            22,
            4,
            2,
        )
        assert len(edition.groups) == 10


# -- buying and rent ------------------------------------------------------------------------


def test_p1_buying_pays_the_printed_price_and_gives_the_deed():
    table = Table()
    table.throws_onto(0, BOARDWALK)
    landed = table.state
    outcome = table.do("buy", player=0, deed=BOARDWALK)
    price = US.spaces[BOARDWALK].price
    assert price == 400
    assert paid(outcome) == [(0, None, price)]
    assert table.cash(0) == 1500 - price and table.state.deeds[BOARDWALK].owner == 0
    assert landed.deeds[BOARDWALK].owner is None  # the state given is never changed


def test_p1_a_deed_cannot_be_bought_twice():
    """A deed someone holds is not for sale when landed on: the rent is paid instead, and a
    buy is refused; a deed just bought is not bought again."""
    table = Table().own(1, BOARDWALK)
    outcome = table.throws_onto(0, BOARDWALK)
    assert paid(outcome) == [(0, 1, US.spaces[BOARDWALK].rent[0])]
    refused = table.refused("buy", player=0, deed=BOARDWALK)
    assert refused.rule == "R1" and "Ana" in refused.message
    assert table.state.deeds[BOARDWALK].owner == 1
    table = Table()
    table.throws_onto(0, ORIENTAL, 6, {"kind": "buy"})
    assert table.state.deeds[ORIENTAL].owner == 0
    assert table.refused("buy", player=0, deed=ORIENTAL).rule == "R1"
    assert table.cash(0) == 1500 - US.spaces[ORIENTAL].price


def test_p1_only_the_deed_landed_on_is_bought():
    table = Table()
    table.throws_onto(0, ORIENTAL, 6)
    refused = table.refused("buy", player=0, deed=BOARDWALK)
    assert refused.rule == "P1" and "Oriental Avenue" in refused.message
    assert table.refused("buy", player=1, deed=ORIENTAL).rule == "R1"  # Bea did not land
    assert table.state.deeds[BOARDWALK].owner is None and table.cash() == [1500] * 3


def test_p2_rent_printed_on_the_deed_goes_to_the_owner():
    table = Table().own(0, BOARDWALK)
    outcome = table.throws_onto(1, BOARDWALK)
    rent = US.spaces[BOARDWALK].rent[0]
    assert rent == 50
    assert paid(outcome) == [(1, 0, rent)]
    assert table.cash() == [1500 + rent, 1500 - rent, 1500]


def test_p2_m2_no_rent_on_a_mortgaged_deed():
    table = Table().own(0, BOARDWALK, mortgaged=[BOARDWALK])
    outcome = table.throws_onto(1, BOARDWALK)
    assert paid(outcome) == [] and table.cash() == [1500, 1500, 1500]
    assert "Boardwalk is mortgaged: no rent" in outcome.text
    assert table.waiting() == [("roll", 2)]  # nothing owed, nothing to buy: Cal's turn


def test_p3_whole_group_doubles_unimproved_rent():
    table = Table().own(0, BOARDWALK, PARK_PLACE)
    outcome = table.throws_onto(1, PARK_PLACE)
    rent = 2 * US.spaces[PARK_PLACE].rent[0]
    assert rent == 70
    assert paid(outcome) == [(1, 0, rent)]


def test_p3_doubling_holds_when_another_street_of_the_group_is_mortgaged():
    table = Table().own(0, BOARDWALK, PARK_PLACE, mortgaged=[PARK_PLACE])
    outcome = table.throws_onto(1, BOARDWALK)
    assert paid(outcome) == [(1, 0, 2 * US.spaces[BOARDWALK].rent[0])]


@pytest.mark.parametrize("houses", [1, 2, 3, 4, HOTEL])
def test_p4_rent_with_houses_or_a_hotel_comes_from_the_deed(houses):
    table = Table().own(0, BOARDWALK, PARK_PLACE, houses=houses).put(1, cash=5000)
    outcome = table.throws_onto(1, BOARDWALK)
    assert paid(outcome) == [(1, 0, US.spaces[BOARDWALK].rent[houses])]
    assert table.cash(1) == 5000 - US.spaces[BOARDWALK].rent[houses]


def test_p4_boardwalk_with_a_hotel_charges_2000():
    table = Table().own(0, BOARDWALK, PARK_PLACE, houses=HOTEL).put(1, cash=2500)
    outcome = table.throws_onto(1, BOARDWALK)
    assert paid(outcome) == [(1, 0, 2000)]
    assert table.cash() == [1500 + 2000, 500, 1500]


@pytest.mark.parametrize("held", [1, 2, 3, 4])
def test_p5_railroad_rent_counts_the_railroads_held_mortgaged_ones_too(held):
    mortgaged = RAILROADS[1:held]  # only the first is unmortgaged: the others still count
    table = Table().own(0, *RAILROADS[:held], mortgaged=mortgaged)
    outcome = table.throws_onto(1, READING, 5)
    rent = US.spaces[READING].rent[held - 1]
    assert rent == [25, 50, 100, 200][held - 1]
    assert paid(outcome) == [(1, 0, rent)]


@pytest.mark.parametrize(("both", "multiplier"), [(False, 4), (True, 10)])
def test_p6_utility_rent_is_the_dice_times_4_or_10(both, multiplier):
    deeds = (ELECTRIC, WATER) if both else (ELECTRIC,)
    table = Table().own(0, *deeds)
    outcome = table.throws_onto(1, ELECTRIC, 9)
    assert US.spaces[ELECTRIC].rent[1 if both else 0] == multiplier
    assert paid(outcome) == [(1, 0, multiplier * 9)]


def test_p7_an_owner_in_jail_still_collects_rent():
    table = Table().own(0, BOARDWALK).put(0, JAIL, in_jail=True)
    outcome = table.throws_onto(1, BOARDWALK)
    assert paid(outcome) == [(1, 0, US.spaces[BOARDWALK].rent[0])]
    assert table.cash(0) == 1500 + US.spaces[BOARDWALK].rent[0]


def test_p2_no_rent_on_your_own_deed():
    table = Table().own(0, BOARDWALK)
    outcome = table.throws_onto(0, BOARDWALK)
    assert paid(outcome) == [] and table.cash(0) == 1500
    assert "Boardwalk is Ana's own" in outcome.text
    assert table.waiting() == [("roll", 1)]


# -- salary ---------------------------------------------------------------------------------


def test_g1_passing_go_pays_the_salary():
    outcome = Table().do("pass_go", player=2)
    assert US.salary == 200
    assert paid(outcome) == [(None, 2, US.salary)]


@pytest.mark.parametrize("how", ["roll", "land"])
def test_g1_passing_go_on_the_way_to_a_landing_pays_in_the_same_action(how):
    """A throw from Luxury Tax past GO onto Baltic Avenue, bought: the salary, then the
    price, in one action (and the same when the banker records the landing)."""
    table = Table().put(0, LUXURY_TAX)
    buy = {"kind": "buy"}
    if how == "roll":
        outcome = table.roll(0, 5, False, buy)
    else:
        outcome = table.do("land", player=0, space=BALTIC, passed_go=True, choices=[buy])
    price = US.spaces[BALTIC].price
    assert paid(outcome) == [(None, 0, US.salary), (0, None, price)]
    assert table.cash(0) == 1500 + US.salary - price
    assert table.state.deeds[BALTIC].owner == 0 and table.state.players[0].position == BALTIC


@pytest.mark.parametrize("how", ["roll", "land"])
def test_g1_landing_on_go_pays_the_salary(how):
    table = Table().put(0, 33)
    if how == "roll":
        outcome = table.roll(0, 7)
    else:
        outcome = table.do("land", player=0, space=GO, passed_go=True)  # paid once, not twice
    assert paid(outcome) == [(None, 0, US.salary)]
    assert table.state.players[0].position == GO


def test_g2_going_to_jail_pays_no_salary():
    table = Table().put(0, 30)
    outcome = table.do("go_to_jail", player=0)
    assert paid(outcome) == [] and table.cash(0) == 1500
    ana = table.state.players[0]
    assert (ana.position, ana.in_jail) == (JAIL, True)


def test_h2_landing_exactly_on_go_pays_400_under_the_house_rule():
    table = Table(double_go=True).put(0, 33)
    outcome = table.roll(0, 7)
    assert paid(outcome) == [(None, 0, 2 * US.salary)] and table.cash(0) == 1900
    outcome = table.put(1, 35).roll(1, 7)  # Bea passes GO to Community Chest: 200 only
    assert paid(outcome) == [(None, 1, US.salary)]
    assert paid(table.do("pass_go", player=2)) == [(None, 2, US.salary)]


def test_h2_an_advance_to_go_card_lands_exactly_on_go():
    """H2: a card that sends the player to GO lands exactly on it: 400 under the house rule
    (200 for passing GO on the throw before, as G1 says, then 400)."""
    to_go = card_of(US, "advance", deck="chest", to=GO)
    table = Table(double_go=True)
    outcome = table.draws(0, to_go, 2)  # a throw of 7 from Short Line, past GO
    assert paid(outcome) == [(None, 0, US.salary), (None, 0, 2 * US.salary)]


# -- taxes ----------------------------------------------------------------------------------


def test_t1_income_tax_is_200():
    table = Table()
    outcome = table.throws_onto(0, INCOME_TAX, 4, {"kind": "tax"})
    assert US.spaces[INCOME_TAX].amount == 200
    assert paid(outcome) == [(0, None, US.spaces[INCOME_TAX].amount)]
    assert table.cash(0) == 1300


def test_t1_ten_percent_of_total_worth_rounded_up():
    table = Table().own(0, BOARDWALK, PARK_PLACE, houses=2).put(0, cash=1005)
    worth = 1005 + 400 + 350 + 2 * 2 * US.groups["dark_blue"].house_price
    assert total_worth(table.state, US, 0) == worth == 2555
    outcome = table.throws_onto(0, INCOME_TAX, 4, {"kind": "tax", "percent": True})
    tax = math.ceil(worth * US.spaces[INCOME_TAX].percent / 100)
    assert tax == math.ceil(worth / 10) == 256
    assert paid(outcome) == [(0, None, tax)]


def test_t1_the_percent_option_only_where_the_edition_has_it():
    table = Table(US2008, income_tax_percent=True)
    assert not US2008.spaces[INCOME_TAX].percent
    percent = [{"kind": "tax", "percent": True}]
    refused = table.refused("roll", player=0, dice=4, choices=percent)
    assert refused.rule == "R1" and "tax" in refused.message
    outcome = table.roll(0, 4)  # the flat tax, paid at once: nothing to choose
    assert paid(outcome) == [(0, None, US2008.spaces[INCOME_TAX].amount)]
    assert table.waiting() == [("roll", 1)]


@pytest.mark.parametrize(("edition", "printed"), [(US, 75), (US2008, 100)])
def test_t2_luxury_tax_is_75_classic_and_100_since_2008(edition, printed):
    table = Table(edition)
    outcome = table.throws_onto(0, LUXURY_TAX, 5)
    assert edition.spaces[LUXURY_TAX].amount == printed
    assert paid(outcome) == [(0, None, printed)]


def test_h1_taxes_and_fines_feed_the_free_parking_pot():
    table = Table(free_parking_jackpot=True).put(1, JAIL, in_jail=True)
    luxury, fine = US.spaces[LUXURY_TAX].amount, US.jail_fine
    assert paid(table.throws_onto(0, LUXURY_TAX, 5)) == [(0, None, luxury)]
    assert paid(table.do("jail_fine", player=1)) == [(1, None, fine)]
    assert table.state.pot == luxury + fine
    outcome = table.throws_onto(2, PARKING)
    assert paid(outcome) == [(None, 2, luxury + fine)]
    assert table.cash(2) == 1500 + luxury + fine and table.state.pot == 0


# -- jail -----------------------------------------------------------------------------------


def test_j1_sent_to_jail_stands_on_the_jail_space():
    table = Table()
    table.do("go_to_jail", player=1)
    bea = table.state.players[1]
    assert bea.in_jail and bea.position == JAIL


def test_j2_landing_on_jail_by_a_move_is_just_visiting():
    table = Table()
    outcome = table.throws_onto(1, JAIL)
    bea = table.state.players[1]
    assert not bea.in_jail and bea.position == JAIL
    assert paid(outcome) == [] and table.cash(1) == 1500
    assert table.waiting() == [("roll", 2)]


def test_j3_the_fine_is_50_and_frees_the_player():
    table = Table()
    table.do("go_to_jail", player=0)
    outcome = table.do("jail_fine", player=0)
    assert US.jail_fine == 50
    assert paid(outcome) == [(0, None, US.jail_fine)] and table.cash(0) == 1450
    assert not table.state.players[0].in_jail


def test_j3_doubles_free_the_player_at_no_cost():
    table = Table().put(0, JAIL, in_jail=True)
    outcome = table.roll(0, 4, True)
    ana = table.state.players[0]
    assert not ana.in_jail and ana.position == 14
    assert paid(outcome) == [] and ana.cash == 1500


def test_j3_a_player_in_jail_records_the_way_out_before_moving():
    table = Table()
    table.do("go_to_jail", player=0)
    assert table.refused("land", player=0, space=11).rule == "J3"
    assert table.refused("place", player=0, space=11).rule == "J3"
    assert table.state.players[0].position == JAIL


def test_j3_a_free_player_pays_no_fine():
    assert Table().refused("jail_fine", player=0).rule == "J3"


def test_j4_a_player_in_jail_may_still_trade_and_collect():
    table = Table().own(0, BOARDWALK, READING)
    table.do("go_to_jail", player=0)
    assert paid(table.do("transfer", **{"from": 0, "to": 1, "amount": 100})) == [(0, 1, 100)]
    trade = {"player": 0, "partner": 2, "give": {"deeds": [READING]}, "take": {"cash": 150}}
    assert paid(table.do("trade", **trade)) == [(2, 0, 150)]
    assert table.state.deeds[READING].owner == 2
    assert paid(table.throws_onto(1, BOARDWALK)) == [(1, 0, US.spaces[BOARDWALK].rent[0])]
    assert table.cash(0) == 1500 - 100 + 150 + US.spaces[BOARDWALK].rent[0]


# -- wealth ---------------------------------------------------------------------------------


def test_k1_raisable_is_cash_mortgages_and_half_the_buildings():
    table = Table().own(0, BOARDWALK, PARK_PLACE, houses=3).own(0, READING, mortgaged=[READING])
    expected = (
        1500
        + US.spaces[BOARDWALK].mortgage
        + US.spaces[PARK_PLACE].mortgage
        + (2 * 3 * US.groups["dark_blue"].house_price) // 2
    )
    assert raisable(table.state, US, 0) == expected == 1500 + 200 + 175 + 600


def test_k1_b6_could_raise_counts_each_building_at_what_selling_it_pays():
    """K1, B6: a custom edition may print an odd house price (75): each building sells back
    for half, rounded down (37), so a hotel (with its 4 houses) and 8 houses raise 13 x 37 =
    481, not half of the 975 paid (487). What the banker is told could be raised is what
    selling pays."""
    data = json.loads((EDITIONS / "us-classic.json").read_text(encoding="utf-8"))
    next(g for g in data["groups"] if g["id"] == "green")["house_price"] = 75
    custom = parse_edition(data, "custom.json")
    table = Table(custom).own(0, *GREEN).put(0, cash=10_000)
    table.do("build", player=0, group="green", levels=[HOTEL, 4, 4])
    mortgages = sum(custom.spaces[i].mortgage for i in GREEN)
    cash = table.cash(0)
    assert raisable(table.state, custom, 0) == cash + mortgages + 13 * (75 // 2)
    outcome = table.do("build", player=0, group="green", levels=[0, 0, 0])
    assert paid(outcome) == [(None, 0, 13 * (75 // 2))]
    for deed in GREEN:
        table.do("mortgage", player=0, deed=deed)
    assert table.cash(0) == cash + mortgages + 13 * (75 // 2)


def test_k1_a_payment_asked_for_by_hand_over_cash_is_refused_with_shortfall_and_raisable():
    table = Table().own(1, BOARDWALK)
    error = table.refused("bank_collect", player=1, amount=1600)
    assert error.rule == "K1"
    assert error.params["shortfall"] == 100
    assert error.params["raisable"] == 1500 + US.spaces[BOARDWALK].mortgage
    assert "Bea cannot pay $1,600: $100 short" in error.message
    assert table.cash(1) == 1500 and table.state.pending == []  # no debt: just refused


def test_sg4_score_counts_mortgaged_deeds_at_half_and_hotels_with_their_houses():
    table = Table(mode="short").own(0, BOARDWALK, PARK_PLACE, houses=HOTEL)
    table.own(0, READING, mortgaged=[READING])
    parts = score_breakdown(table.state, US, 0)
    hotel = US.groups["dark_blue"].house_price * (1 + 3)  # SG4: the 3 houses given for it
    assert parts == {
        "cash": 1500,
        "deeds": 400 + 350,
        "mortgaged": US.spaces[READING].price // 2,
        "houses": 0,
        "hotels": 2 * hotel,
        "debts": 0,
        "total": 1500 + 750 + 100 + 2 * hotel,
    }


def test_s2_the_bank_never_goes_broke():
    table = Table()
    for _ in range(3):
        assert paid(table.do("bank_pay", player=0, amount=1_000_000)) == [(None, 0, 1_000_000)]
    assert table.cash(0) == 1500 + 3_000_000
