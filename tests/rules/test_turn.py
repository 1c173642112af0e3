"""Rules core: whose turn it is, a turn by the dice and the landing it calls for (R1, R2)."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, apply, replay
from tablebank.rules.edition import JAIL
from tablebank.rules.landing import calls_for, likely_cards
from tablebank.rules.turn import whose_turn

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
BOARDWALK, PARK_PLACE, ELECTRIC, READING = 39, 37, 12, 5
INCOME_TAX, CHANCE, GO_TO_JAIL = 4, 7, 30


def at(state, seat, position, **player):
    state = state.copy()
    state.players[seat].position = position
    for key, value in player.items():
        setattr(state.players[seat], key, value)
    return state


def own(state, seat, *deeds, houses=0):
    for index in deeds:
        state.deeds[index].owner = seat
        state.deeds[index].houses = houses
    return state


def roll(state, seat, dice, doubles=False, **steps):
    return apply(state, US, "roll", {"player": seat, "dice": dice, "doubles": doubles, **steps})


def card(effect, **match):
    return next(
        c
        for c in US.cards.values()
        if c.effect == effect and all(getattr(c, k) == v for k, v in match.items())
    )


# -- whose turn ---------------------------------------------------------------------------


def test_r1_the_turn_passes_in_seat_order(fresh):
    assert whose_turn(fresh).name == "Ana"
    after = roll(fresh, 0, 6).state  # Oriental Avenue, no landing recorded
    assert whose_turn(after).name == "Bea"
    after = roll(after, 1, 5).state
    assert whose_turn(roll(after, 2, 8).state).name == "Ana"


def test_r1_a_bankrupt_player_has_no_turn(fresh):
    fresh.players[1].bankrupt = True
    assert whose_turn(roll(fresh, 0, 6).state).name == "Cal"


def test_r1_a_roll_out_of_turn_is_refused(fresh):
    with pytest.raises(RuleError) as refusal:
        roll(fresh, 1, 6)
    assert refusal.value.rule == "R1" and "Ana" in refusal.value.message


def test_r1_the_banker_says_whose_turn_and_where_a_token_stands(fresh):
    after = apply(fresh, US, "turn_to", {"player": 2}).state
    assert whose_turn(after).name == "Cal"
    placed = apply(after, US, "place", {"player": 2, "space": BOARDWALK}).state
    assert placed.players[2].position == BOARDWALK and placed.players[2].cash == 1500


# -- moving -----------------------------------------------------------------------------


def test_g1_a_roll_past_go_pays_the_salary(fresh):
    after = roll(at(fresh, 0, 35), 0, 7).state
    assert after.players[0].position == 2
    assert after.players[0].cash == 1500 + US.salary


def test_p4_a_roll_onto_boardwalk_with_a_hotel_pays_its_rent(fresh):
    state = own(at(fresh, 0, 32, cash=3000), 1, PARK_PLACE, BOARDWALK, houses=HOTEL)
    step = {"kind": "rent", "deed": BOARDWALK}
    outcome = roll(state, 0, 7, land=step)
    assert US.spaces[BOARDWALK].rent[HOTEL] == 2000
    assert outcome.state.players[0].cash == 3000 - 2000
    assert outcome.state.players[1].cash == 1500 + 2000
    assert "throws 7 and moves to Boardwalk" in outcome.text


def test_p6_utility_rent_uses_the_dice_of_the_roll(fresh):
    state = own(at(fresh, 0, 5), 1, ELECTRIC)
    [call] = calls_for(state, US, 0, US.spaces[ELECTRIC], dice=7)
    assert call.fields["dice"] == 7
    after = roll(state, 0, 7, land={"kind": call.kind, **call.fields}).state
    assert after.players[1].cash == 1500 + US.spaces[ELECTRIC].rent[0] * 7


def test_p1_a_landing_elsewhere_than_the_roll_is_refused(fresh):
    with pytest.raises(RuleError) as refusal:
        roll(fresh, 0, 6, land={"kind": "buy", "deed": BOARDWALK})
    assert refusal.value.rule == "input"


def test_p1_a_roll_and_a_buy_are_one_action_and_one_undo(fresh):
    land = {"kind": "buy", "deed": READING}
    outcome = roll(fresh, 0, 5, land=land)
    assert outcome.state.deeds[READING].owner == 0
    assert outcome.state.players[0].cash == 1500 - US.spaces[READING].price
    entries = [("roll", {"player": 0, "dice": 5, "land": land}), ("undo", {})]
    assert replay(US, setup_of(income_tax_percent=True), entries).to_dict() == fresh.to_dict()


# -- doubles and jail ---------------------------------------------------------------------


def test_r2_doubles_give_another_turn(fresh):
    after = roll(fresh, 0, 6, doubles=True).state
    assert whose_turn(after).name == "Ana" and after.doubles == 1
    assert whose_turn(roll(after, 0, 5).state).name == "Bea"


def test_r2_j1_a_third_doubles_goes_to_jail_without_moving(fresh):
    state = roll(roll(fresh, 0, 4, doubles=True).state, 0, 6, doubles=True).state
    outcome = roll(state, 0, 8, doubles=True)
    ana = outcome.state.players[0]
    assert ana.in_jail and ana.position == JAIL and ana.cash == 1500
    assert whose_turn(outcome.state).name == "Bea"


def test_r2_doubles_are_an_even_total(fresh):
    with pytest.raises(RuleError):
        roll(fresh, 0, 7, doubles=True)


def test_j1_g2_landing_on_go_to_jail_ends_the_turn_even_after_doubles(fresh):
    outcome = roll(at(fresh, 0, 26), 0, 4, doubles=True, land={"kind": "go_to_jail"})
    assert outcome.state.players[0].in_jail and outcome.state.players[0].cash == 1500
    assert whose_turn(outcome.state).name == "Bea"


def test_j1_a_player_in_jail_is_not_sent_again(fresh):
    jailed = at(fresh, 0, JAIL, in_jail=True)
    with pytest.raises(RuleError) as refusal:
        apply(jailed, US, "go_to_jail", {"player": 0})
    assert refusal.value.rule == "J1"


def test_j3_doubles_in_jail_free_the_player_who_moves_with_no_extra_roll(fresh):
    jailed = at(fresh, 0, JAIL, in_jail=True)
    after = roll(jailed, 0, 6, doubles=True).state
    assert not after.players[0].in_jail and after.players[0].position == JAIL + 6
    assert whose_turn(after).name == "Bea"


def test_j3_a_failed_roll_stays_in_jail_and_the_third_pays_the_fine_and_moves(fresh):
    state = at(fresh, 0, JAIL, in_jail=True)
    for _ in range(2):
        state = roll(state, 0, 7).state
        assert state.players[0].in_jail and state.players[0].position == JAIL
        state.turn = 0
    after = roll(state, 0, 7).state
    ana = after.players[0]
    assert not ana.in_jail and ana.position == JAIL + 7
    assert ana.cash == 1500 - US.jail_fine


# -- cards --------------------------------------------------------------------------------


def test_c2_a_card_that_moves_the_player_goes_straight_on_to_the_rent(fresh):
    state = own(at(fresh, 0, 2, cash=3000), 1, PARK_PLACE, BOARDWALK, houses=HOTEL)
    to_boardwalk = card("advance", to=BOARDWALK)
    outcome = roll(
        state,
        0,
        5,
        land={"kind": "card", "card": to_boardwalk.id, "space": CHANCE},
        then={"kind": "rent", "deed": BOARDWALK},
    )
    assert outcome.state.players[0].cash == 3000 - US.spaces[BOARDWALK].rent[HOTEL]


def test_c1_cards_drawn_lately_come_last(fresh):
    fresh_cards, lately = likely_cards(fresh, US, "chance")
    assert not lately
    first = fresh_cards[0]
    after = apply(at(fresh, 0, CHANCE), US, "card", {"player": 0, "card": first.id}).state
    fresh_cards, lately = likely_cards(after, US, "chance")
    assert lately == [first] and first not in fresh_cards


def test_c1_twin_cards_are_offered_once(fresh):
    calls = calls_for(fresh, US, 0, US.spaces[CHANCE])
    texts = [US.cards[c.fields["card"]].text for c in calls]
    assert len(texts) == len(set(texts))


# -- what a landing calls for ---------------------------------------------------------------


def test_p1_an_unowned_deed_calls_for_buy_or_decline(fresh):
    kinds = [c.kind for c in calls_for(fresh, US, 0, US.spaces[BOARDWALK])]
    assert kinds == ["buy", "decline"]


def test_t1_income_tax_offers_the_percentage_where_the_game_allows(fresh):
    calls = calls_for(fresh, US, 0, US.spaces[INCOME_TAX])
    assert [c.percent for c in calls] == [0, US.spaces[INCOME_TAX].percent]


def test_p6_an_owned_utility_waits_for_the_dice(fresh):
    state = own(fresh, 1, ELECTRIC)
    [call] = calls_for(state, US, 0, US.spaces[ELECTRIC])
    assert call.needs_dice


def test_j1_the_go_to_jail_space_calls_for_jail(fresh):
    assert [c.kind for c in calls_for(fresh, US, 0, US.spaces[GO_TO_JAIL])] == ["go_to_jail"]


def test_k1_a_refused_payment_names_its_creditor(fresh):
    state = own(at(fresh, 0, 32, cash=100), 1, PARK_PLACE, BOARDWALK, houses=HOTEL)
    with pytest.raises(RuleError) as refusal:
        roll(state, 0, 7, land={"kind": "rent", "deed": BOARDWALK})
    assert refusal.value.rule == "K1"
    assert refusal.value.params["creditor"] == 1 and refusal.value.params["amount"] == 2000
