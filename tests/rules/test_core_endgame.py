"""Rules core: auctions (P1), debts and bankruptcy (K1-K4), short and time-limited games
(SG1-SG4, TL1) and the house rules H1-H3, played at a `Table`: a debt comes from a throw
the debtor cannot pay, and each payment is checked by who paid whom, with figures from the
deeds."""

from __future__ import annotations

import pytest
from tablebank.rules import HOTEL, RuleError, score
from tablebank.rules.property import interest, lift_cost

from ..support import (
    BALTIC,
    BOARDWALK,
    BROWN,
    DARK_BLUE,
    GREEN,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    MEDITERRANEAN,
    ORIENTAL,
    PARK_PLACE,
    PENNSYLVANIA,
    RAILROADS,
    READING,
    US,
    VERMONT,
    Table,
    card_of,
    paid,
)

BLUE_HOUSE = US.groups["dark_blue"].house_price
HOTEL_ON_PENNSYLVANIA = US.spaces[PENNSYLVANIA].rent[HOTEL]


def built(table: Table, seat: int, group: str, levels: list[int]) -> Table:
    """`seat` builds on a group it holds, paid from a full purse, then keeps its old cash:
    the buildings come from the bank's supply as in play."""
    cash = table.cash(seat)
    table.put(seat, cash=10_000).do("build", player=seat, group=group, levels=levels)
    return table.put(seat, cash=cash)


# -- auctions -------------------------------------------------------------------------------


def test_p1_a_declined_deed_goes_to_auction_and_the_highest_bid_pays_the_bank():
    table = Table()
    table.throws_onto(0, BOARDWALK, 7, {"kind": "decline"})
    assert table.state.auction.deed == BOARDWALK
    table.do("bid", player=0, amount=1)  # the decliner may bid too, from 1
    table.do("bid", player=2, amount=230)
    assert table.state.auction.bid == 230 and table.state.auction.bidder == 2
    outcome = table.do("auction_close")
    assert paid(outcome) == [(2, None, 230)]
    assert table.state.deeds[BOARDWALK].owner == 2
    assert table.cash() == [1500, 1500, 1500 - 230]
    assert table.state.auction is None and table.waiting() == [("roll", 1)]


def test_p1_a_bid_must_beat_the_last_and_not_exceed_cash():
    table = Table()
    table.throws_onto(0, BOARDWALK, 7, {"kind": "decline"})
    table.do("bid", player=1, amount=100)
    assert table.refused("bid", player=2, amount=100).params["minimum"] == 101
    assert table.refused("bid", player=2, amount=1501).rule == "P1"


def test_p1_no_bid_leaves_the_deed_with_the_bank():
    table = Table()
    table.throws_onto(0, BOARDWALK, 7, {"kind": "decline"})
    outcome = table.do("auction_close")
    assert paid(outcome) == [] and table.state.deeds[BOARDWALK].owner is None
    assert table.cash() == [1500] * 3


def test_h3_without_auctions_a_declined_deed_simply_stays_with_the_bank():
    table = Table(no_auctions=True)
    outcome = table.throws_onto(0, BOARDWALK, 7, {"kind": "decline"})
    assert paid(outcome) == [] and "stays with the bank (H3)" in outcome.text
    assert table.state.auction is None and table.state.deeds[BOARDWALK].owner is None
    assert table.waiting() == [("roll", 1)]
    assert table.refused("auction_open").rule == "P1"  # no deed waits for an auction


def test_h3_k3_without_auctions_a_bankrupt_s_deeds_stay_with_the_bank():
    """H3, K3: with no auctions, the deeds a bankruptcy leaves to the bank are not sold
    either: they stay with the bank, unmortgaged, for the next player landing there."""
    table = Table(no_auctions=True).own(1, READING, mortgaged=[READING]).put(1, cash=0)
    table.throws_onto(1, LUXURY_TAX, 5)
    outcome = table.do("bankrupt", player=1)
    assert "auction" not in outcome.text and table.state.auction is None
    assert table.state.deeds[READING].owner is None and not table.state.deeds[READING].mortgaged
    assert table.waiting() == [("roll", 2)]


# -- debts and bankruptcy -------------------------------------------------------------------


def test_k1_bankruptcy_is_refused_while_selling_and_mortgaging_would_pay():
    """Bea owes Ana a hotel's rent on Pennsylvania Avenue and could raise exactly that by
    selling her houses and mortgaging the dark blues: no bankruptcy; she raises and pays."""
    table = built(Table().own(0, *GREEN, houses=HOTEL).own(1, *DARK_BLUE), 1, "dark_blue", [2, 2])
    could = US.spaces[PARK_PLACE].mortgage + US.spaces[BOARDWALK].mortgage + 4 * BLUE_HOUSE // 2
    table.put(1, cash=HOTEL_ON_PENNSYLVANIA - could)
    outcome = table.throws_onto(1, PENNSYLVANIA)
    assert paid(outcome) == [] and table.waiting() == [("debt", 1)]
    error = table.refused("bankrupt", player=1)
    assert error.rule == "K1" and error.params["raisable"] == HOTEL_ON_PENNSYLVANIA
    table.do("mortgage", player=1, deed=BOARDWALK)  # the houses are sold first (M1)
    table.do("mortgage", player=1, deed=PARK_PLACE)
    outcome = table.do("pay_debt", player=1)
    assert paid(outcome) == [(1, 0, HOTEL_ON_PENNSYLVANIA)]
    assert table.cash(1) == 0 and table.waiting() == [("roll", 2)]


def test_k2_owed_to_a_player_buildings_are_sold_and_everything_goes_to_the_creditor():
    table = built(Table().own(0, *GREEN, houses=HOTEL).own(1, *DARK_BLUE), 1, "dark_blue", [2, 2])
    table.own(1, READING, mortgaged=[READING]).put(1, cash=100, jail_free=["chance"])
    table.throws_onto(1, PENNSYLVANIA)
    assert table.state.debts_of(1)[0].creditor == 0
    outcome = table.do("bankrupt", player=1, lift=[])  # M4: Ana, asked, lifts nothing now
    refund = (4 * BLUE_HOUSE) // 2
    charge = interest(US.spaces[READING].mortgage)  # M4: 10% of Reading Railroad's 100
    assert charge == 10
    assert paid(outcome) == [(None, 1, refund), (1, 0, 100 + refund), (0, None, charge)]
    assert table.cash(0) == 1500 + 100 + refund - charge
    assert {i for i, d in table.state.deeds.items() if d.owner == 0} == {
        READING,
        *DARK_BLUE,
        *GREEN,
    }
    assert table.state.deeds[READING].mortgaged
    assert table.state.houses == 32
    assert table.state.players[0].jail_free == ["chance"]
    assert table.state.players[1].bankrupt and table.cash(1) == 0
    assert table.waiting() == [("roll", 2)]


@pytest.mark.parametrize(
    ("group", "deeds", "onto", "said"),
    [
        ("dark_blue", DARK_BLUE, PENNSYLVANIA, "Bea sells the Dark blue buildings for $400"),
        ("brown", BROWN, INCOME_TAX, "Bea sells the Brown buildings for $100"),
    ],
    ids=["to Ana", "to the bank"],
)
def test_k2_k3_a_bankruptcy_says_which_buildings_go_back_to_the_bank(group, deeds, onto, said):
    """K2, K3: the debtor's houses are sold to the bank at half price; the banker reads it in
    the bankruptcy's sentence, to take them off the board, as a mortgage that sells a group's
    buildings says. It said only "Ana takes the cash and 2 deeds", and the houses stayed."""
    table = built(Table().own(0, *GREEN, houses=HOTEL).own(1, *deeds), 1, group, [2, 2])
    choices = [{"kind": "tax"}] if onto == INCOME_TAX else []
    table.put(1, cash=0).throws_onto(1, onto, 4, *choices)
    text = table.do("bankrupt", player=1).text
    assert f"{said}; 4 houses go back to the bank" in text
    assert table.state.houses == 32


def test_k2_k3_a_bankrupt_player_s_trade_offers_are_withdrawn():
    """K2, K3, X1: a player who leaves the game leaves no trade offer open, made or received:
    it could only be refused, as the bankrupt holds nothing now."""
    table = Table().own(0, *DARK_BLUE, houses=1).own(1, READING).own(2, ORIENTAL)
    table.do("trade_offer", player=1, partner=2, give={"deeds": [READING]}, take={"cash": 150})
    table.do("trade_offer", player=2, partner=1, give={"deeds": [ORIENTAL]}, take={"cash": 90})
    table.do("trade_offer", player=0, partner=2, give={"cash": 50}, take={"deeds": [ORIENTAL]})
    table.put(1, cash=10).throws_onto(1, BOARDWALK)
    table.do("bankrupt", player=1)
    assert [(o.trade["player"], o.trade["partner"]) for o in table.state.offers] == [(0, 2)]
    assert table.state.deeds[READING].owner == 0  # K2: Reading went to Ana, not to Cal


def test_k5_owed_to_the_bank_and_one_player_the_player_is_the_creditor():
    """K5, K2, J3: Ana's third failed throw in jail owes the bank the fine and moves her onto
    Bea's Virginia Avenue with 3 houses: she cannot raise the rent. Bea, the one player owed,
    takes what Ana holds (K2); the fine beside it goes unpaid."""
    virginia, pink = 14, (11, 13, 14)
    rent = US.spaces[virginia].rent[3]
    table = Table().own(1, *pink, houses=3).own(0, MEDITERRANEAN)
    table.turn_of(0).put(0, JAIL, in_jail=True, jail_tries=2, cash=40)
    table.roll(0, virginia - JAIL)
    assert table.state.owed_by(0) == US.jail_fine + rent
    bea = table.cash(1)
    outcome = table.do("bankrupt", player=0)
    assert paid(outcome) == [(0, 1, 40)]
    assert table.cash(1) == bea + 40
    assert table.state.deeds[MEDITERRANEAN].owner == 1  # K2: the deed, not an auction
    assert f"Ana is bankrupt, owing ${rent} to Bea" in outcome.text


def test_k2_m4_the_creditor_may_lift_a_received_mortgage_at_once():
    table = Table().own(0, BOARDWALK).own(1, READING, mortgaged=[READING]).put(1, cash=0)
    table.throws_onto(1, BOARDWALK)
    outcome = table.do("bankrupt", player=1, lift=[READING])
    cost = lift_cost(US.spaces[READING].mortgage)
    assert cost == 110
    assert paid(outcome) == [(0, None, cost)]
    assert table.cash(0) == 1500 - cost
    assert table.state.deeds[READING].owner == 0 and not table.state.deeds[READING].mortgaged


def test_k3_owed_to_the_bank_every_deed_is_auctioned_one_after_another():
    """Bea owes the bank her income tax and could raise less: her house money and cash go
    to the bank, her cards to their decks, and each deed, unmortgaged, to auction in turn."""
    table = built(Table().own(1, *BROWN), 1, "brown", [1, 1])
    table.own(1, READING, mortgaged=[READING]).put(1, cash=0, jail_free=["chest"])
    table.throws_onto(1, INCOME_TAX, 4, {"kind": "tax"})
    assert table.state.owed_by(1) == US.spaces[INCOME_TAX].amount
    outcome = table.do("bankrupt", player=1)
    refund = 2 * US.groups["brown"].house_price // 2
    assert paid(outcome) == [(None, 1, refund), (1, None, refund)]
    assert table.state.players[1].bankrupt and table.state.players[1].jail_free == []
    assert table.state.houses == 32
    assert all(table.state.deeds[i].owner is None for i in (*BROWN, READING))
    assert not table.state.deeds[READING].mortgaged
    assert table.state.auction.deed == MEDITERRANEAN and table.state.to_auction == [BALTIC, READING]
    table.do("bid", player=0, amount=90)
    assert paid(table.do("auction_close")) == [(0, None, 90)]
    assert table.state.deeds[MEDITERRANEAN].owner == 0
    assert table.state.auction.deed == BALTIC and table.state.to_auction == [READING]
    table.do("auction_close")
    assert table.state.auction.deed == READING
    table.do("auction_close")
    assert table.state.deeds[BALTIC].owner is None and table.state.auction is None
    assert table.waiting() == [("roll", 2)]


def test_k4_the_last_player_left_wins_a_classic_game():
    table = Table().own(0, BOARDWALK).put(1, cash=10).put(2, cash=20)
    table.throws_onto(1, BOARDWALK)
    assert paid(table.do("bankrupt", player=1)) == [(1, 0, 10)]
    assert not table.state.ended
    table.throws_onto(2, LUXURY_TAX, 5)
    assert paid(table.do("bankrupt", player=2)) == [(2, None, 20)]
    assert table.state.ended and [p.name for p in table.state.in_play()] == ["Ana"]
    assert table.refused("pass_go", player=0).rule == "K4"
    assert table.waits() == []


@pytest.mark.parametrize("mode", ["classic", "short"])
def test_k3_k4_sg3_a_bankruptcy_that_ends_the_game_says_no_auction(mode):
    """K3 with K4 (the last player left) or SG3 (a short game's second bankruptcy): the game
    ends at once, so no deed goes to auction. The history said "the bank auctions
    Mediterranean Avenue; the game ends", of an auction that never opened."""
    table = Table(mode=mode)
    if mode == "short":
        table.do("deal", hands=[[BOARDWALK, PARK_PLACE], list(BROWN), [ORIENTAL, VERMONT]])
    else:
        table.own(1, *BROWN)
    table.put(1, cash=0).put(2, cash=0)
    for seat in (2, 1):  # Cal's bankruptcy, the first; then Bea's, which ends the game
        table.throws_onto(seat, INCOME_TAX, 4, {"kind": "tax"})
        outcome = table.do("bankrupt", player=seat)
        while table.state.auction and not table.state.ended:
            table.do("auction_close")  # no bid: Cal's deeds stay with the bank
    assert table.state.ended and table.state.auction is None
    said = [template for template, _ in outcome.lines]
    assert "the bank auctions {lot}" not in said and said[-1] == "the game ends"


# -- short and time-limited games -----------------------------------------------------------


def test_sg1_dealt_deeds_are_paid_at_their_printed_price():
    table = Table(mode="short")
    hands = [[BOARDWALK, MEDITERRANEAN], [READING, 12], [21, 23]]
    outcome = table.do("deal", hands=hands)
    assert paid(outcome) == [
        (seat, None, US.spaces[deed].price) for seat, hand in enumerate(hands) for deed in hand
    ]
    assert table.cash() == [1500 - 460, 1500 - 350, 1500 - 440]
    assert table.refused("deal", hands=[[BOARDWALK], [], []]).rule == "SG1"


def test_sg2_the_short_game_hotel_needs_three_houses_on_every_street():
    table = built(Table(mode="short").own(0, *DARK_BLUE), 0, "dark_blue", [3, 3])
    outcome = table.do("build", player=0, group="dark_blue", levels=[HOTEL, HOTEL])
    assert paid(outcome) == [(0, None, 2 * BLUE_HOUSE)]
    assert table.state.houses == 32 and table.state.hotels == 10


def test_sg3_the_second_bankruptcy_ends_a_short_game_with_everything_handed_over():
    table = Table(mode="short")
    table.do("deal", hands=[list(BROWN), [ORIENTAL, VERMONT], list(DARK_BLUE)])
    table.own(0, *GREEN, houses=HOTEL).own(1, ORIENTAL, VERMONT, mortgaged=[ORIENTAL, VERMONT])
    table = built(table, 2, "dark_blue", [3, 3]).put(1, cash=0).put(2, cash=20)
    ana = table.cash(0)
    table.throws_onto(1, BALTIC, 3)  # the brown rent, doubled, and nothing to raise it with
    outcome = table.do("bankrupt", player=1, lift=[])  # the first: to Ana, by K2, M4 (kept)
    charge = interest(US.spaces[ORIENTAL].mortgage)
    assert paid(outcome) == [(0, None, charge), (0, None, charge)]
    assert not table.state.ended
    table.throws_onto(2, PENNSYLVANIA)
    outcome = table.do("bankrupt", player=2)
    assert paid(outcome) == [(2, 0, 20)]
    assert table.state.ended
    assert all(table.state.deeds[i].owner == 0 for i in DARK_BLUE)
    assert all(table.state.deeds[i].houses == 3 for i in DARK_BLUE)  # buildings too
    assert table.cash(0) == ana - 2 * charge + 20
    refused = table.refused("pass_go", player=0)  # the rule that ended it, not K4
    assert (refused.rule, refused.message) == (
        "SG3",
        "The second bankruptcy has ended this short game. See the results.",
    )


def test_sg3_a_second_bankruptcy_to_the_bank_ends_the_game_with_nothing_auctioned():
    """SG3: the second bankrupt of a short game hands the bank everything and the game stops
    at once: the deeds stay with the bank, the buildings go back to its supply, and no
    auction is announced (one was, for a lot the end then dropped)."""
    table = Table(mode="short")
    table.do("deal", hands=[list(DARK_BLUE), [ORIENTAL, VERMONT], list(BROWN)])
    table.own(1, ORIENTAL, VERMONT, mortgaged=[ORIENTAL, VERMONT])
    table = built(table, 2, "brown", [1, 1]).put(1, cash=0).put(2, cash=0)
    table.throws_onto(1, LUXURY_TAX, 5)
    table.do("bankrupt", player=1)  # the first, to the bank: its deeds go to auction (K3)
    while table.state.auction:
        table.do("auction_close")
    table.throws_onto(2, INCOME_TAX, 4, {"kind": "tax"})
    outcome = table.do("bankrupt", player=2)
    assert table.state.ended and "auction" not in outcome.text
    assert "the bank takes everything, 2 deeds included; the game ends" in outcome.text
    assert all(table.state.deeds[i].owner is None for i in BROWN)
    assert table.state.houses == US.houses and table.state.auction is None


def test_sg4_the_richest_player_by_score_wins_a_short_game():
    table = Table(mode="short").own(0, *DARK_BLUE, houses=HOTEL)
    table.own(1, READING, mortgaged=[READING])
    hotel = BLUE_HOUSE * 4
    assert score(table.state, US, 0) == 1500 + 350 + 400 + 2 * hotel
    assert score(table.state, US, 1) == 1500 + US.spaces[READING].price // 2


def test_tl1_a_time_limited_game_needs_its_end_time_and_ends_when_called():
    with pytest.raises(RuleError) as error:
        Table(mode="timed")
    assert error.value.rule == "TL1"
    table = Table(mode="timed", ends_at="2026-11-22T23:00")
    assert table.state.settings.ends_at == "2026-11-22T23:00:00+00:00"  # stored as UTC
    assert table.waiting() == [("deal", None)]  # dealt as in SG1
    table.do("end_game")
    assert table.state.ended
    refused = table.refused("pass_go", player=0)  # the time-limited game's end, not K4
    assert (refused.rule, refused.message) == (
        "TL1",
        "This time-limited game has ended. See the results.",
    )


def test_tl1_a_time_limited_game_goes_on_after_its_second_bankruptcy_until_one_is_left():
    """TL1, K2, K4: the time ends a time-limited game, not its second bankruptcy (SG3 is the
    short game's): a bankrupt's buildings are sold at half for the creditor as in the classic
    game, and the game ends only when one player is left."""
    table = Table(mode="timed", ends_at="2099-01-01T00:00", names=("Ana", "Bea", "Cal", "Dev"))
    table.do(
        "deal", hands=[list(BROWN), [ORIENTAL, VERMONT], list(DARK_BLUE), [READING, RAILROADS[1]]]
    )
    table.own(0, *GREEN, houses=HOTEL)
    table.put(1, cash=0).throws_onto(1, PENNSYLVANIA)
    table.do("bankrupt", player=1)
    table = built(table, 2, "dark_blue", [3, 3]).put(2, cash=20)
    ana = table.cash(0)
    table.throws_onto(2, PENNSYLVANIA)
    outcome = table.do("bankrupt", player=2)  # the second: K2, not SG3
    houses_at_half = 6 * BLUE_HOUSE // 2
    assert paid(outcome) == [(None, 2, houses_at_half), (2, 0, houses_at_half + 20)]
    assert not table.state.ended
    assert all(
        table.state.deeds[i].owner == 0 and not table.state.deeds[i].houses for i in DARK_BLUE
    )
    assert table.cash(0) == ana + houses_at_half + 20
    table.put(3, cash=0).throws_onto(3, PENNSYLVANIA)
    table.do("bankrupt", player=3)
    assert table.state.ended  # K4: Ana is the last player left
    refused = table.refused("pass_go", player=0)
    assert (refused.rule, refused.message) == (
        "K4",
        "Ana is the last player left: the game has ended.",
    )


def test_sg4_a_classic_game_the_banker_ended_refuses_an_action_by_its_score_not_k4():
    """SG4: the banker ends a classic game of three players still in: the richest won, and
    an action after it is refused saying so, not that one player is left (K4)."""
    table = Table()
    table.do("end_game")
    refused = table.refused("pass_go", player=0)
    assert (refused.rule, refused.message) == (
        "SG4",
        "The banker ended this game: the richest won. See the results.",
    )


def test_tl1_sg4_a_time_limited_game_scores_a_hotel_with_the_four_houses_it_took():
    """TL1, SG4: the time-limited game is scored by SG4, but its hotels take 4 houses (not
    SG2's 3): a hotel counts at its price and the 4 houses given for it."""
    table = Table(mode="timed", ends_at="2099-01-01T00:00").own(0, *DARK_BLUE, houses=HOTEL)
    hotel = BLUE_HOUSE * (1 + 4)
    assert score(table.state, US, 0) == 1500 + 350 + 400 + 2 * hotel


def test_h1_the_pot_is_paid_out_in_one_tap():
    table = Table(free_parking_jackpot=True)
    tax = US.spaces[INCOME_TAX].amount
    assert paid(table.throws_onto(0, INCOME_TAX, 4, {"kind": "tax"})) == [(0, None, tax)]
    assert paid(table.do("parking_pot", player=2)) == [(None, 2, tax)]
    assert table.cash(2) == 1500 + tax and table.state.pot == 0
    assert table.refused("parking_pot", player=2).rule == "H1"


def test_h1_card_payments_to_the_bank_feed_the_pot_a_trade_s_interest_does_not():
    """H1: a card's payment to the bank (a fee, repairs) goes into the pot like a tax or a
    fine; the 10% interest on a mortgaged deed received in a trade (M4) does not."""
    table = Table(free_parking_jackpot=True).own(1, READING, mortgaged=[READING])
    fee = card_of(US, "pay", deck="chest", amount=50)
    assert paid(table.draws(0, fee)) == [(0, None, fee.amount)]
    assert table.state.pot == fee.amount
    trade = {"player": 1, "partner": 2, "give": {"deeds": [READING]}, "take": {"cash": 10}}
    kept = table.do("trade", **trade, lift=[])  # the banker asked: Cal keeps it
    assert paid(kept)[-1] == (2, None, interest(US.spaces[READING].mortgage))
    assert table.state.pot == fee.amount
