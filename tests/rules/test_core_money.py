"""Rules core, rule by rule: setup, buying, rent, salary, taxes, jail and wealth.

Every expected figure comes from the edition's deeds; a few printed figures are asserted too.
"""

from __future__ import annotations

import math

import pytest
from tablebank.rules import (
    HOTEL,
    RuleError,
    apply,
    new_game,
    raisable,
    score_breakdown,
    total_worth,
)

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
US2008 = ALL_EDITIONS["us-2008"]
BOARDWALK, PARK_PLACE = 39, 37
RAILROADS = [5, 15, 25, 35]
ELECTRIC, WATER = 12, 28


def owned(state, seat, *deeds, houses=0, mortgaged=()):
    state = state.copy()
    for index in deeds:
        state.deeds[index].owner = seat
        if US.spaces[index].kind == "street":
            state.deeds[index].houses = houses
        state.deeds[index].mortgaged = index in mortgaged
    return state


def cash(state):
    return [p.cash for p in state.players]


# -- setup ----------------------------------------------------------------------------------


def test_s1_every_player_starts_with_the_starting_cash(us):
    state = new_game(us, setup_of(starting_cash=2000))
    assert cash(state) == [2000, 2000, 2000]


@pytest.mark.parametrize("count", [1, 9])
def test_s1_a_game_has_two_to_eight_players(us, count):
    players = [{"name": f"P{i}", "colour": "#123456"} for i in range(count)]
    with pytest.raises(RuleError) as refused:
        new_game(us, {"edition": "us-classic", "players": players})
    assert refused.value.rule == "S1"


def test_s3_the_bank_starts_with_32_houses_and_12_hotels(fresh):
    assert (fresh.houses, fresh.hotels) == (32, 12)


def test_s4_every_edition_has_28_deeds_22_streets_4_railroads_2_utilities(editions):
    for edition in editions.values():
        kinds = [d.kind for d in edition.deeds]
        assert (kinds.count("street"), kinds.count("railroad"), kinds.count("utility")) == (
            22,
            4,
            2,
        )
        assert len(edition.groups) == 10


# -- buying and rent ------------------------------------------------------------------------


def test_p1_buying_pays_the_printed_price_and_gives_the_deed(fresh, us):
    outcome = apply(fresh, us, "buy", {"player": 0, "deed": BOARDWALK})
    assert outcome.state.players[0].cash == 1500 - us.spaces[BOARDWALK].price == 1100
    assert outcome.state.deeds[BOARDWALK].owner == 0
    assert fresh.deeds[BOARDWALK].owner is None  # the state given is never changed


def test_p1_a_deed_cannot_be_bought_twice(fresh, us):
    state = owned(fresh, 1, BOARDWALK)
    with pytest.raises(RuleError) as refused:
        apply(state, us, "buy", {"player": 0, "deed": BOARDWALK})
    assert refused.value.rule == "P1"


def test_p2_rent_printed_on_the_deed_goes_to_the_owner(fresh, us):
    state = owned(fresh, 0, BOARDWALK)
    after = apply(state, us, "rent", {"player": 1, "deed": BOARDWALK}).state
    rent = us.spaces[BOARDWALK].rent[0]
    assert rent == 50
    assert cash(after) == [1500 + rent, 1500 - rent, 1500]


def test_p2_m2_no_rent_on_a_mortgaged_deed(fresh, us):
    state = owned(fresh, 0, BOARDWALK, mortgaged=[BOARDWALK])
    with pytest.raises(RuleError) as refused:
        apply(state, us, "rent", {"player": 1, "deed": BOARDWALK})
    assert refused.value.rule == "M2"


def test_p3_whole_group_doubles_unimproved_rent(fresh, us):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE)
    after = apply(state, us, "rent", {"player": 1, "deed": PARK_PLACE}).state
    assert 1500 - after.players[1].cash == 2 * us.spaces[PARK_PLACE].rent[0] == 70


def test_p3_doubling_holds_when_another_street_of_the_group_is_mortgaged(fresh, us):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE, mortgaged=[PARK_PLACE])
    after = apply(state, us, "rent", {"player": 1, "deed": BOARDWALK}).state
    assert 1500 - after.players[1].cash == 2 * us.spaces[BOARDWALK].rent[0]


@pytest.mark.parametrize("houses", [1, 2, 3, 4, HOTEL])
def test_p4_rent_with_houses_or_a_hotel_comes_from_the_deed(fresh, us, houses):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE, houses=houses)
    state.players[1].cash = 5000
    after = apply(state, us, "rent", {"player": 1, "deed": BOARDWALK}).state
    assert 5000 - after.players[1].cash == us.spaces[BOARDWALK].rent[houses]


def test_p4_boardwalk_with_a_hotel_charges_2000(fresh, us):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE, houses=HOTEL)
    state.players[1].cash = 2500
    after = apply(state, us, "rent", {"player": 1, "deed": BOARDWALK}).state
    assert 2500 - after.players[1].cash == 2000


@pytest.mark.parametrize("held", [1, 2, 3, 4])
def test_p5_railroad_rent_counts_the_railroads_held_mortgaged_ones_too(fresh, us, held):
    mortgaged = RAILROADS[1:held]  # only the first is unmortgaged: the others still count
    state = owned(fresh, 0, *RAILROADS[:held], mortgaged=mortgaged)
    after = apply(state, us, "rent", {"player": 1, "deed": RAILROADS[0]}).state
    assert (
        1500 - after.players[1].cash == us.spaces[5].rent[held - 1] == [25, 50, 100, 200][held - 1]
    )


@pytest.mark.parametrize(("both", "multiplier"), [(False, 4), (True, 10)])
def test_p6_utility_rent_is_the_dice_times_4_or_10(fresh, us, both, multiplier):
    deeds = (ELECTRIC, WATER) if both else (ELECTRIC,)
    state = owned(fresh, 0, *deeds)
    after = apply(state, us, "rent", {"player": 1, "deed": ELECTRIC, "dice": 9}).state
    assert 1500 - after.players[1].cash == multiplier * 9
    assert us.spaces[ELECTRIC].rent[1 if both else 0] == multiplier


def test_p7_an_owner_in_jail_still_collects_rent(fresh, us):
    state = owned(fresh, 0, BOARDWALK)
    state.players[0].in_jail = True
    after = apply(state, us, "rent", {"player": 1, "deed": BOARDWALK}).state
    assert after.players[0].cash == 1500 + us.spaces[BOARDWALK].rent[0]


def test_p2_no_rent_on_your_own_deed(fresh, us):
    state = owned(fresh, 0, BOARDWALK)
    with pytest.raises(RuleError) as refused:
        apply(state, us, "rent", {"player": 0, "deed": BOARDWALK})
    assert refused.value.rule == "P2"


# -- salary ---------------------------------------------------------------------------------


def test_g1_passing_go_pays_the_salary(fresh, us):
    after = apply(fresh, us, "pass_go", {"player": 2}).state
    assert after.players[2].cash == 1500 + us.salary == 1700


def test_g1_passing_go_on_the_way_to_a_landing_pays_in_the_same_action(fresh, us):
    state = fresh.copy()
    state.players[0].position = 38
    after = apply(state, us, "buy", {"player": 0, "deed": 3, "passed_go": True}).state
    assert after.players[0].cash == 1500 + us.salary - us.spaces[3].price


def test_g1_landing_on_go_pays_the_salary(fresh, us):
    after = apply(fresh, us, "visit", {"player": 0, "space": 0}).state
    assert after.players[0].cash == 1500 + us.salary


def test_g2_going_to_jail_pays_no_salary(fresh, us):
    state = fresh.copy()
    state.players[0].position = 30
    after = apply(state, us, "go_to_jail", {"player": 0}).state
    assert after.players[0].cash == 1500
    assert (after.players[0].position, after.players[0].in_jail) == (10, True)


def test_h2_landing_exactly_on_go_pays_400_under_the_house_rule(us):
    state = new_game(us, setup_of(double_go=True))
    after = apply(state, us, "visit", {"player": 0, "space": 0}).state
    assert after.players[0].cash == 1500 + 2 * us.salary == 1900
    passing = apply(state, us, "pass_go", {"player": 1}).state
    assert passing.players[1].cash == 1500 + us.salary


# -- taxes ----------------------------------------------------------------------------------


def test_t1_income_tax_is_200(fresh, us):
    after = apply(fresh, us, "tax", {"player": 0, "space": 4}).state
    assert after.players[0].cash == 1500 - us.spaces[4].amount == 1300


def test_t1_ten_percent_of_total_worth_rounded_up(fresh, us):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE, houses=2)
    state.players[0].cash = 1005
    worth = 1005 + 400 + 350 + 2 * 2 * us.groups["dark_blue"].house_price
    assert total_worth(state, us, 0) == worth == 2555
    after = apply(state, us, "tax", {"player": 0, "space": 4, "percent": True}).state
    assert 1005 - after.players[0].cash == math.ceil(worth / 10) == 256


def test_t1_the_percent_option_only_where_the_edition_has_it(us):
    state = new_game(US2008, {**setup_of(income_tax_percent=True), "edition": "us-2008"})
    with pytest.raises(RuleError) as refused:
        apply(state, US2008, "tax", {"player": 0, "space": 4, "percent": True})
    assert refused.value.rule == "T1"


def test_t2_luxury_tax_is_75_classic_and_100_since_2008(fresh, us):
    after = apply(fresh, us, "tax", {"player": 0, "space": 38}).state
    assert 1500 - after.players[0].cash == us.spaces[38].amount == 75
    modern = new_game(US2008, {**setup_of(), "edition": "us-2008"})
    after = apply(modern, US2008, "tax", {"player": 0, "space": 38}).state
    assert 1500 - after.players[0].cash == US2008.spaces[38].amount == 100


def test_h1_taxes_and_fines_feed_the_free_parking_pot(us):
    state = new_game(us, setup_of(free_parking_jackpot=True))
    state = apply(state, us, "tax", {"player": 0, "space": 38}).state
    state.players[1].in_jail = True
    state = apply(state, us, "jail_fine", {"player": 1}).state
    assert state.pot == us.spaces[38].amount + us.jail_fine
    after = apply(state, us, "visit", {"player": 2, "space": 20}).state
    assert after.players[2].cash == 1500 + state.pot
    assert after.pot == 0


# -- jail -----------------------------------------------------------------------------------


def test_j1_sent_to_jail_stands_on_the_jail_space(fresh, us):
    after = apply(fresh, us, "go_to_jail", {"player": 1}).state
    assert after.players[1].in_jail and after.players[1].position == 10


def test_j2_landing_on_jail_by_a_move_is_just_visiting(fresh, us):
    after = apply(fresh, us, "visit", {"player": 1, "space": 10}).state
    assert not after.players[1].in_jail
    assert after.players[1].cash == 1500


def test_j3_the_fine_is_50_and_frees_the_player(fresh, us):
    state = apply(fresh, us, "go_to_jail", {"player": 0}).state
    after = apply(state, us, "jail_fine", {"player": 0}).state
    assert after.players[0].cash == 1500 - us.jail_fine == 1450
    assert not after.players[0].in_jail


def test_j3_doubles_free_the_player_at_no_cost(fresh, us):
    state = apply(fresh, us, "go_to_jail", {"player": 0}).state
    after = apply(state, us, "jail_doubles", {"player": 0}).state
    assert not after.players[0].in_jail and after.players[0].cash == 1500


def test_j3_a_player_in_jail_records_the_way_out_before_moving(fresh, us):
    state = apply(fresh, us, "go_to_jail", {"player": 0}).state
    with pytest.raises(RuleError) as refused:
        apply(state, us, "buy", {"player": 0, "deed": 11})
    assert refused.value.rule == "J3"


def test_j3_a_free_player_pays_no_fine(fresh, us):
    with pytest.raises(RuleError) as refused:
        apply(fresh, us, "jail_fine", {"player": 0})
    assert refused.value.rule == "J3"


def test_j4_a_player_in_jail_may_still_trade_and_collect(fresh, us):
    state = owned(fresh, 0, BOARDWALK)
    state = apply(state, us, "go_to_jail", {"player": 0}).state
    after = apply(state, us, "transfer", {"from": 0, "to": 1, "amount": 100}).state
    assert after.players[0].cash == 1400


# -- wealth ---------------------------------------------------------------------------------


def test_k1_raisable_is_cash_mortgages_and_half_the_buildings(fresh, us):
    state = owned(fresh, 0, BOARDWALK, PARK_PLACE, houses=3)
    state = owned(state, 0, 5, mortgaged=[5])
    expected = (
        1500
        + us.spaces[BOARDWALK].mortgage
        + us.spaces[PARK_PLACE].mortgage
        + (2 * 3 * us.groups["dark_blue"].house_price) // 2
    )
    assert raisable(state, us, 0) == expected == 1500 + 200 + 175 + 600


def test_k1_a_payment_over_cash_is_refused_with_shortfall_and_raisable(fresh, us):
    state = owned(fresh, 1, BOARDWALK)
    with pytest.raises(RuleError) as refused:
        apply(state, us, "bank_collect", {"player": 1, "amount": 1600})
    error = refused.value
    assert error.rule == "K1"
    assert error.params["shortfall"] == 100
    assert error.params["raisable"] == 1500 + us.spaces[BOARDWALK].mortgage
    assert "Bea cannot pay $1,600: $100 short" in error.message
    assert state.players[1].cash == 1500


def test_sg4_score_counts_mortgaged_deeds_at_half_and_hotels_with_their_houses(us):
    state = new_game(us, setup_of(mode="short"))
    state = owned(state, 0, BOARDWALK, PARK_PLACE, houses=HOTEL)
    state = owned(state, 0, 5, mortgaged=[5])
    parts = score_breakdown(state, us, 0)
    hotel = us.groups["dark_blue"].house_price * (1 + 3)  # SG4: the 3 houses given for it
    assert parts == {
        "cash": 1500,
        "deeds": 400 + 350,
        "mortgaged": us.spaces[5].price // 2,
        "houses": 0,
        "hotels": 2 * hotel,
        "total": 1500 + 750 + 100 + 2 * hotel,
    }


def test_s2_the_bank_never_goes_broke(fresh, us):
    state = fresh
    for _ in range(3):
        state = apply(state, us, "bank_pay", {"player": 0, "amount": 1_000_000}).state
    assert state.players[0].cash == 1500 + 3_000_000
