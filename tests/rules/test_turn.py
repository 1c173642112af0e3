"""Rules core: the game owns the turn. Whose turn it is, a throw and what its landing calls for,
what waits (a choice, a debt, an auction, the deal), and when the turn moves on (R1, R2, G1,
J1-J3, P1-P7, C1-C2, T1, K1, SG1)."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, replay, score_breakdown
from tablebank.rules.moves import choice_steps, moves_for
from tablebank.rules.turn import whose_turn

from ..support import (
    BOARDWALK,
    CHANCE,
    CHEST,
    CONNECTICUT,
    ELECTRIC,
    GO_TO_JAIL,
    INCOME_TAX,
    JAIL,
    LIGHT_BLUE,
    LUXURY_TAX,
    ORIENTAL,
    PARK_PLACE,
    RAILROADS,
    READING,
    US,
    VERMONT,
    Table,
    card_of,
    paid,
    setup_of,
)

PRICE = US.spaces[BOARDWALK].price
HOTEL_ON_VERMONT = US.spaces[VERMONT].rent[HOTEL]


def refusal(table: Table, kind: str, **payload) -> RuleError:
    before = table.state.to_dict()
    with pytest.raises(RuleError) as refused:
        table.do(kind, **payload)
    assert table.state.to_dict() == before  # a refusal changes nothing
    return refused.value


# -- whose turn --------------------------------------------------------------------------


def test_r1_the_turn_passes_in_seat_order_once_the_landing_is_done():
    table = Table()
    table.roll(0, 6)  # Oriental Avenue: buy or decline waits
    assert whose_turn(table.state).name == "Ana" and table.waiting() == [("buy", 0)]
    table.do("buy", player=0, deed=ORIENTAL)
    assert whose_turn(table.state).name == "Bea" and table.waiting() == [("roll", 1)]


def test_r1_a_bankrupt_player_has_no_turn():
    table = Table().put(1, bankrupt=True)
    table.roll(0, 10)  # just visiting jail
    assert whose_turn(table.state).name == "Cal"


def test_r1_a_roll_out_of_turn_is_refused_in_words():
    refused = refusal(Table(), "roll", player=1, dice=6)
    assert refused.rule == "R1" and "Ana" in refused.message


def test_r1_nobody_rolls_while_a_choice_waits():
    table = Table()
    table.roll(0, 6)  # Oriental Avenue, not yet bought or declined
    refused = refusal(table, "roll", player=0, dice=5)
    assert refused.rule == "R1" and "Ana" in refused.message
    refused = refusal(table, "turn_to", player=1)
    assert refused.rule == "R1"


def test_r1_the_banker_says_whose_turn_and_where_a_token_stands():
    table = Table()
    table.do("turn_to", player=2)
    assert whose_turn(table.state).name == "Cal"
    table.do("place", player=2, space=BOARDWALK)
    assert table.state.players[2].position == BOARDWALK and table.cash(2) == 1500


# -- a throw: the core works the landing out -----------------------------------------------


def test_g1_a_throw_past_go_pays_the_salary_to_the_mover():
    table = Table().put(0, 35)
    outcome = table.roll(0, 7)
    assert table.state.players[0].position == 2
    assert outcome.movements[0].payer is None and outcome.movements[0].payee == 0
    assert table.cash() == [1500 + US.salary, 1500, 1500]


def test_p4_a_throw_onto_boardwalk_with_a_hotel_pays_its_owner_2000():
    table = Table().own(1, PARK_PLACE, BOARDWALK, houses=HOTEL).put(0, cash=3000)
    outcome = table.throws_onto(0, BOARDWALK)
    assert US.spaces[BOARDWALK].rent[HOTEL] == 2000
    assert table.cash() == [3000 - 2000, 1500 + 2000, 1500]
    assert "throws 7 and moves to Boardwalk" in outcome.text
    assert whose_turn(table.state).name == "Bea"


def test_p6_a_utility_charges_four_times_the_throw_that_landed_there():
    table = Table().own(1, ELECTRIC)
    outcome = table.throws_onto(0, ELECTRIC, 9)
    assert paid(outcome) == [(0, 1, US.spaces[ELECTRIC].rent[0] * 9)] and 4 * 9 == 36


def test_j1_a_throw_onto_go_to_jail_sends_the_player_to_jail_with_no_step_sent():
    table = Table()
    table.throws_onto(0, GO_TO_JAIL, 8)
    ana = table.state.players[0]
    assert ana.in_jail and ana.position == JAIL and ana.cash == 1500
    assert whose_turn(table.state).name == "Bea"


def test_t2_luxury_tax_is_paid_to_the_bank_at_once():
    table = Table()
    outcome = table.throws_onto(0, LUXURY_TAX, 8)
    assert table.cash(0) == 1500 - US.spaces[LUXURY_TAX].amount
    assert [(m.payer, m.payee) for m in outcome.movements] == [(0, None)]


def test_p1_a_choice_the_landing_does_not_call_for_is_refused():
    table = Table().put(0, 0)
    refused = refusal(table, "roll", player=0, dice=6, choices=[{"kind": "card", "card": "x"}])
    assert refused.rule == "R1" and "card" in refused.message
    table.own(1, ORIENTAL)  # rent is owed, nothing to choose
    refused = refusal(table, "roll", player=0, dice=6, choices=[{"kind": "buy"}])
    assert refused.rule == "R1"


def test_c1_one_landing_takes_one_card_not_two():
    table = Table().put(0, 0)
    collect = card_of(US, "collect", deck="chance")
    two = [{"kind": "card", "card": collect.id}, {"kind": "card", "card": collect.id}]
    assert refusal(table, "roll", player=0, dice=CHANCE, choices=two).rule == "R1"
    table.roll(0, CHANCE, False, two[0])
    assert table.cash(0) == 1500 + collect.amount


def test_t1_income_tax_is_paid_once_for_one_landing():
    table = Table(income_tax_percent=True).put(0, 0)
    twice = [{"kind": "tax"}, {"kind": "tax"}]
    assert refusal(table, "roll", player=0, dice=INCOME_TAX, choices=twice).rule == "R1"


def test_p1_a_roll_and_a_buy_are_one_action_and_one_undo():
    table = Table()
    start = table.state.to_dict()
    table.roll(0, 5, False, {"kind": "buy"})
    assert table.state.deeds[READING].owner == 0
    assert table.cash(0) == 1500 - US.spaces[READING].price
    payload = {"player": 0, "dice": 5, "choices": [{"kind": "buy"}]}
    entries = [("roll", payload), ("undo", {})]
    assert replay(US, setup_of(), entries).to_dict() == start


# -- doubles and jail ---------------------------------------------------------------------


def test_r2_doubles_give_another_throw_after_the_landing():
    table = Table()
    table.roll(0, 6, True)  # Oriental Avenue: the buy waits, then Ana throws again
    table.do("decline", player=0, deed=ORIENTAL)
    table.do("auction_close")
    assert whose_turn(table.state).name == "Ana" and table.state.doubles == 1
    table.roll(0, 5)  # St. Charles Place
    assert whose_turn(table.state).name == "Ana"  # the buy of St. Charles Place waits
    table.do("decline", player=0, deed=11)
    table.do("auction_close")
    assert whose_turn(table.state).name == "Bea"


@pytest.mark.parametrize("total", [2, 12])
def test_r2_a_total_of_2_or_12_is_doubles_without_the_toggle(total):
    table = Table().put(0, 20)  # 22 is Chance, 32 North Carolina Avenue
    table.roll(0, total)
    if total == 2:
        table.do("card", player=0, card=card_of(US, "collect", deck="chance").id)
    else:
        table.do("decline", player=0, deed=32)
        table.do("auction_close")
    assert whose_turn(table.state).name == "Ana" and table.state.doubles == 1


def test_r2_j1_a_third_doubles_goes_to_jail_without_moving():
    table = Table().put(0, 20)
    table.state.doubles = 2
    table.roll(0, 8, True)
    ana = table.state.players[0]
    assert ana.in_jail and ana.position == JAIL and ana.cash == 1500
    assert whose_turn(table.state).name == "Bea"


def test_r2_doubles_are_an_even_total():
    assert refusal(Table(), "roll", player=0, dice=7, doubles=True).rule == "R2"


def test_j1_g2_landing_on_go_to_jail_ends_the_turn_even_after_doubles():
    table = Table().put(0, 26)
    table.roll(0, 4, True)
    assert table.state.players[0].in_jail and table.cash(0) == 1500
    assert whose_turn(table.state).name == "Bea"


def test_j3_doubles_in_jail_free_the_player_who_moves_with_no_extra_roll():
    table = Table().put(0, JAIL, in_jail=True)
    table.roll(0, 6, True)  # Virginia Avenue? 16 is St. James Place: buy waits
    assert not table.state.players[0].in_jail and table.state.players[0].position == 16
    table.do("decline", player=0, deed=16)
    table.do("auction_close")
    assert whose_turn(table.state).name == "Bea"


def test_j3_two_failed_throws_stay_in_jail_and_the_third_pays_the_fine_and_moves():
    table = Table().put(0, JAIL, in_jail=True)
    for tries in (1, 2):
        table.turn_of(0).roll(0, 7)
        assert table.state.players[0].in_jail and table.state.players[0].jail_tries == tries
        assert whose_turn(table.state).name == "Bea"
    outcome = table.turn_of(0).roll(0, 7)  # 17: Community Chest
    assert paid(outcome) == [(0, None, US.jail_fine)]  # to the bank
    ana = table.state.players[0]
    assert not ana.in_jail and ana.position == CHEST
    assert table.cash() == [1500 - US.jail_fine, 1500, 1500]


def test_j3_the_fine_paid_before_the_throw_goes_to_the_bank_then_the_throw_moves():
    table = Table().turn_of(0).put(0, JAIL, in_jail=True)
    assert paid(table.do("jail_fine", player=0)) == [(0, None, US.jail_fine)]
    assert not table.state.players[0].in_jail and table.cash() == [1450, 1500, 1500]
    assert whose_turn(table.state).name == "Ana"  # the fine comes before her throw
    table.roll(0, 5)
    assert table.state.players[0].position == JAIL + 5 and table.waiting() == [("buy", 0)]
    assert refusal(table, "jail_fine", player=1).rule == "J3"  # Bea is not in jail


def test_j3_no_fine_before_the_third_throw_the_throw_comes_first():
    """J3: the fine before the throw is for the first or second turn in jail; on the third the
    player throws, and pays the fine only if the throw has no doubles (a card still frees)."""
    table = Table().turn_of(0).put(0, JAIL, in_jail=True, jail_tries=2)
    assert refusal(table, "jail_fine", player=0).rule == "J3"
    assert table.cash(0) == 1500 and table.state.players[0].in_jail
    table.roll(0, 8, True)  # doubles: out, no fine, no extra roll
    ana = table.state.players[0]
    assert not ana.in_jail and ana.position == JAIL + 8 and ana.cash == 1500
    table.put(1, JAIL, in_jail=True, jail_tries=2, jail_free=["chance"])
    table.do("jail_card", player=1)
    assert not table.state.players[1].in_jail


# -- cards -------------------------------------------------------------------------------


def test_c2_a_card_that_moves_the_player_goes_straight_on_to_the_rent():
    table = Table().own(1, PARK_PLACE, BOARDWALK, houses=HOTEL).put(0, 2, cash=3000)
    to_boardwalk = card_of(US, "advance", to=BOARDWALK)
    table.roll(0, 5, False, {"kind": "card", "card": to_boardwalk.id})
    assert table.cash() == [3000 - 2000, 1500 + 2000, 1500]


def test_c2_p5_the_nearest_railroad_pays_twice_the_rent_without_the_client_saying_so():
    table = Table().own(1, READING)
    nearest = card_of(US, "nearest", kind="railroad")
    table.put(0, 0).roll(0, CHANCE, False, {"kind": "card", "card": nearest.id})
    assert table.state.players[0].position == RAILROADS[1]
    assert table.cash(1) == 1500  # Pennsylvania Railroad is the bank's: buy or decline
    assert table.waiting() == [("buy", 0)]
    table = Table().own(1, RAILROADS[1])
    outcome = table.put(0, 0).roll(0, CHANCE, False, {"kind": "card", "card": nearest.id})
    assert paid(outcome) == [(0, 1, 2 * US.spaces[RAILROADS[1]].rent[0])]


def test_c2_p6_the_nearest_utility_waits_for_a_fresh_throw_and_pays_ten_times_it():
    table = Table().own(1, ELECTRIC)
    nearest = card_of(US, "nearest", kind="utility")
    table.put(0, 0).roll(0, CHANCE, False, {"kind": "card", "card": nearest.id})
    assert table.waiting() == [("throw", 0)]
    table.do("throw", player=0, dice=3)
    assert table.cash() == [1500 - 30, 1500 + 30, 1500]
    assert whose_turn(table.state).name == "Bea"


def test_p1_a_card_that_moves_onto_a_bank_deed_keeps_the_turn_until_bought_or_declined():
    table = Table()
    to_boardwalk = card_of(US, "advance", to=BOARDWALK)
    table.put(0, 0).roll(0, CHANCE, False, {"kind": "card", "card": to_boardwalk.id})
    assert table.waiting() == [("buy", 0)]
    assert refusal(table, "roll", player=1, dice=4).rule == "R1"
    table.do("buy", player=0, deed=BOARDWALK)
    assert table.state.deeds[BOARDWALK].owner == 0 and table.cash(0) == 1500 - PRICE
    assert whose_turn(table.state).name == "Bea"


def test_c2_collect_from_each_player_leaves_a_debt_for_a_player_who_cannot_pay():
    table = Table().put(1, cash=5)
    birthday = card_of(US, "collect_each")
    table.put(0, JAIL).roll(0, 7, False, {"kind": "card", "card": birthday.id})  # Chest
    assert table.cash() == [1500 + birthday.amount, 5, 1500 - birthday.amount]
    assert table.waiting() == [("debt", 1)]
    table.do("bank_pay", player=1, amount=100)
    outcome = table.do("pay_debt", player=1)
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(1, 0, birthday.amount)]
    assert table.cash() == [1500 + 2 * birthday.amount, 105 - birthday.amount, 1450]


# -- what the core offers ---------------------------------------------------------------------


def test_c1_the_cards_offered_are_the_decks_likely_ones_first_twins_once():
    table = Table().put(0, 0)
    table.roll(0, CHANCE)
    steps = choice_steps(table.state, US, 0)
    texts = [US.cards[s["card"]].text for s in steps]
    assert len(texts) == len(set(texts)) and all(s["kind"] == "card" for s in steps)
    table.do("card", player=0, card=steps[0]["card"])
    table.put(1, 0).roll(1, CHANCE)
    assert choice_steps(table.state, US, 1)[-1]["card"] == steps[0]["card"]  # drawn lately


def test_t1_income_tax_offers_the_flat_amount_and_the_percentage_chosen_before_counting():
    table = Table(income_tax_percent=True).put(0, 0)
    table.roll(0, INCOME_TAX)
    assert choice_steps(table.state, US, 0) == [{"kind": "tax"}, {"kind": "tax", "percent": True}]
    table.do("tax", player=0, percent=True)
    assert table.cash(0) == 1500 - 150  # 10% of 1,500
    assert whose_turn(table.state).name == "Bea"


def test_t1_without_the_option_income_tax_is_paid_at_once():
    table = Table(income_tax_percent=False).put(0, 0)
    outcome = table.roll(0, INCOME_TAX)
    assert paid(outcome) == [(0, None, US.spaces[INCOME_TAX].amount)]
    assert table.waiting() == [("roll", 1)]


def test_r1_a_seat_is_offered_only_its_own_moves():
    table = Table().own(1, BOARDWALK)
    table.roll(0, 6)
    ana = {(m.kind, m.fields.get("deed")) for m in moves_for(table.state, US, 0)}
    bea = {(m.kind, m.fields.get("deed")) for m in moves_for(table.state, US, 1)}
    assert ("buy", ORIENTAL) in ana and ("decline", ORIENTAL) in ana
    assert ("buy", ORIENTAL) not in bea and ("mortgage", BOARDWALK) in bea
    assert not any(kind == "roll" for kind, _ in ana | bea)


# -- debts (K1) ---------------------------------------------------------------------------


def test_k1_f1_a_throw_that_cannot_be_paid_still_moves_and_pays_the_salary():
    """Dev has $15 on Luxury Tax, throws 10, passes GO and owes Ana a hotel on Vermont: the
    move and the salary happen, the $550 waits as a debt, and the bankruptcy gives Ana all
    Dev then holds, the salary included; the bank keeps nothing."""
    table = Table(names=("Ana", "Bea", "Cal", "Dev")).own(0, *LIGHT_BLUE, houses=HOTEL)
    table.turn_of(3).put(3, LUXURY_TAX, cash=15)
    outcome = table.roll(3, 10)
    dev = table.state.players[3]
    assert dev.position == VERMONT and dev.cash == 15 + US.salary
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(None, 3, US.salary)]
    [wait] = table.waits()
    assert wait.what == "debt" and wait.seat == 3
    assert wait.figures == {
        "owed": HOTEL_ON_VERMONT,
        "cash": 215,
        "raisable": 215,
        "short": HOTEL_ON_VERMONT - 215,
        "creditor": 0,
        "creditors": [0],
    }
    assert refusal(table, "roll", player=0, dice=4).rule == "K1"
    outcome = table.do("bankrupt", player=3)
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(3, 0, 215)]
    assert table.cash() == [1500 + 215, 1500, 1500, 0]
    assert whose_turn(table.state).name == "Ana"


def test_k1_a_debtor_who_could_pay_is_not_let_go_bankrupt():
    """$15 cash, two deeds that mortgage for $375, and the $200 salary of the throw: the
    $550 owed can be raised, so the bankruptcy is refused; mortgaging and paying settles it."""
    table = Table(names=("Ana", "Bea", "Cal", "Dev")).own(0, *LIGHT_BLUE, houses=HOTEL)
    table.own(3, PARK_PLACE, BOARDWALK)
    assert US.spaces[PARK_PLACE].mortgage + US.spaces[BOARDWALK].mortgage == 375
    table.turn_of(3).put(3, LUXURY_TAX, cash=15)
    table.roll(3, 10)
    refused = refusal(table, "bankrupt", player=3)
    assert refused.rule == "K1" and refused.params["raisable"] == 590
    assert refusal(table, "pay_debt", player=3).rule == "K1"
    table.do("mortgage", player=3, deed=BOARDWALK)
    table.do("mortgage", player=3, deed=PARK_PLACE)
    outcome = table.do("pay_debt", player=3)
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(3, 0, 550)]
    assert table.cash() == [1500 + 550, 1500, 1500, 590 - 550]
    assert table.waiting() == [("roll", 0)]


def test_k1_a_debtor_buys_builds_lifts_and_bids_nothing_while_the_debt_is_open():
    table = Table().own(0, *LIGHT_BLUE, houses=HOTEL).own(1, BOARDWALK, PARK_PLACE)
    table.own(1, READING, mortgaged=[READING]).put(1, cash=10)
    table.throws_onto(1, VERMONT)
    assert ("debt", 1) in table.waiting()
    assert refusal(table, "build", player=1, group="dark_blue", levels=[1, 1]).rule == "K1"
    assert refusal(table, "lift", player=1, deed=READING).rule == "K1"
    assert refusal(table, "transfer", **{"from": 1, "to": 2, "amount": 5}).rule == "K1"


def test_k5_a_debt_to_several_players_goes_to_the_bank_in_bankruptcy():
    table = Table().put(0, 0, cash=30)
    chairman = card_of(US, "pay_each")
    table.roll(0, CHANCE, False, {"kind": "card", "card": chairman.id})
    assert table.state.owed_by(0) == 2 * chairman.amount and table.cash(0) == 30
    outcome = table.do("bankrupt", player=0)
    assert [(m.payer, m.payee, m.amount) for m in outcome.movements] == [(0, None, 30)]
    assert table.cash() == [0, 1500, 1500]


def test_j3_a_third_failed_throw_that_cannot_pay_the_fine_still_moves_and_owes_it():
    table = Table().put(0, JAIL, in_jail=True, jail_tries=2, cash=20)
    table.roll(0, 4)  # 14: Virginia Avenue, the bank's
    ana = table.state.players[0]
    assert not ana.in_jail and ana.position == 14 and ana.cash == 20
    assert table.state.owed_by(0) == US.jail_fine


# -- auctions and the turn ----------------------------------------------------------------


def test_p1_nobody_rolls_while_an_auction_is_open():
    table = Table()
    table.roll(0, 6, False, {"kind": "decline"})
    assert table.state.auction.deed == ORIENTAL
    assert refusal(table, "roll", player=1, dice=4).rule == "P1"
    table.do("bid", player=1, amount=40)
    assert refusal(table, "bid", player=1, amount=60).rule == "P1"  # not over her own bid
    table.do("auction_close")
    assert table.state.deeds[ORIENTAL].owner == 1 and table.cash(1) == 1460
    assert table.waiting() == [("roll", 1)]


# -- the short game's deal (SG1) -----------------------------------------------------------


def test_sg1_the_deal_comes_once_before_the_first_roll_two_deeds_each():
    table = Table(mode="short")
    assert table.waiting() == [("deal", None)]
    assert refusal(table, "roll", player=0, dice=6).rule == "SG1"
    three = [[1, 3, 5], [6, 8], [9, 11]]
    assert refusal(table, "deal", hands=three).rule == "SG1"
    assert refusal(table, "deal", hands=[[1, 3], [6, 8], []]).rule == "SG1"
    table.do("deal", hands=[[1, 3], [CONNECTICUT, 11], [BOARDWALK, PARK_PLACE]])
    price = US.spaces[BOARDWALK].price + US.spaces[PARK_PLACE].price
    assert table.cash(2) == 1500 - price and table.state.deeds[BOARDWALK].owner == 2
    assert table.waiting() == [("roll", 0)]
    assert refusal(table, "deal", hands=[[12, 13], [14, 15], [16, 18]]).rule == "SG1"


def test_sg1_a_classic_game_has_no_deal():
    assert refusal(Table(), "deal", hands=[[1, 3], [6, 8], [9, 11]]).rule == "SG1"


def test_sg4_k1_a_game_ended_with_a_debt_open_scores_the_debt_against_the_debtor():
    """The banker ends the game (or the clock does, TL1) while Bea owes Ana a hotel's rent:
    nothing waits any more, but the debt stays owed: it counts in both scores."""
    table = Table(names=("Ana", "Bea")).own(0, *LIGHT_BLUE, houses=HOTEL).put(1, cash=150)
    table.throws_onto(1, VERMONT)
    table.do("end_game")
    assert table.state.ended and table.waits() == []
    bea, ana = score_breakdown(table.state, US, 1), score_breakdown(table.state, US, 0)
    assert bea["debts"] == -HOTEL_ON_VERMONT and bea["total"] == 150 - HOTEL_ON_VERMONT
    hotels = 3 * US.groups["light_blue"].house_price * 5
    assert ana["debts"] == HOTEL_ON_VERMONT
    assert ana["total"] == 1500 + sum(US.spaces[i].price for i in LIGHT_BLUE) + hotels + 550


def test_j1_g2_go_to_jail_waits_until_the_landing_s_card_is_drawn():
    """J1, G2: the banker's "Go to jail" is refused while the card of the landing still
    waits: the card drawn next would move the jailed token (Advance to GO: to GO, with the
    200 salary, still in jail). The card first, then jail."""
    table = Table().turn_of(0).put(0, CHANCE - 7)
    table.roll(0, 7)
    assert table.waiting()[0] == ("card", 0)
    assert refusal(table, "go_to_jail", player=0).rule == "R1"
    table.do("card", player=0, card=card_of(US, "advance", to=0).id)
    assert table.cash(0) == 1500 + US.salary
    table.do("go_to_jail", player=0)
    ana = table.state.players[0]
    assert ana.in_jail and ana.position == JAIL and table.cash(0) == 1500 + US.salary
