"""What random play found (test_game_machine.py, bench/random_play.py), each kept as a named
example of the rule it broke, on the smallest table that shows it."""

from __future__ import annotations

import contextlib

import pytest
from tablebank.rules import RuleError, apply, new_game
from tablebank.rules.state import DEBT, Pending

from ..support import (
    BALTIC,
    BOARDWALK,
    BROWN,
    ELECTRIC,
    JAIL,
    LIGHT_BLUE,
    LUXURY_TAX,
    MEDITERRANEAN,
    ORIENTAL,
    READING,
    US,
    WATER,
    Table,
    card_of,
    paid,
    setup_of,
)

ANA, BEA, CAL = 0, 1, 2
BANK = None


def test_k3_a_bankrupt_s_deeds_are_sold_only_at_their_auctions_one_after_another():
    """K3: the bank auctions every deed of a player bankrupt to it. While a deed waits for its
    auction nobody throws, records a landing or deals (it could be bought at its price), and
    each close opens the next lot."""
    table = Table().own(ANA, *BROWN).put(ANA, cash=10)
    table.throws_onto(ANA, LUXURY_TAX)  # owes the bank 75; could raise 10 + 30 + 30
    table.do("bankrupt", player=ANA)
    assert table.state.auction.deed == MEDITERRANEAN and table.state.to_auction == [BALTIC]

    for kind, payload in (
        ("roll", {"player": BEA, "dice": 2}),
        ("land", {"player": BEA, "space": BALTIC}),
        ("deal", {"hands": [[], [BALTIC], []]}),
    ):
        assert table.refused(kind, **payload).rule in ("P1", "SG1")
    table.do("auction_close")  # no bid for Mediterranean: Baltic's auction opens
    assert table.state.auction.deed == BALTIC
    table.do("bid", player=BEA, amount=10)
    assert paid(table.do("auction_close")) == [(BEA, BANK, 10)]
    assert table.state.deeds[BALTIC].owner == BEA and table.waiting() == [("roll", BEA)]


@pytest.mark.parametrize("creditor", [BANK, CAL], ids=["to the bank", "to Cal"])
def test_k2_k3_a_bankrupt_player_s_bid_is_withdrawn(creditor):
    """K2, K3: the debtor leaves the game, and its auction: a bankrupt player's top bid is
    withdrawn and the bidding starts again (else closing asked a player out of the game to
    pay, and was refused for good)."""
    table = Table()
    table.throws_onto(CAL, BOARDWALK)
    table.do("decline", player=CAL, deed=BOARDWALK)
    table.do("bid", player=ANA, amount=300)
    table.state.pending.append(Pending(DEBT, ANA, amount=5000, creditor=creditor))

    table.do("bankrupt", player=ANA)
    assert table.state.players[ANA].bankrupt
    assert table.state.auction.deed == BOARDWALK and table.state.auction.bidder is None
    table.do("bid", player=BEA, amount=5)  # below Ana's old bid: it is gone
    table.do("auction_close")
    assert table.state.deeds[BOARDWALK].owner == BEA


def test_b4_b5_a_house_is_not_won_for_a_mortgaged_group():
    """B4, B5: a house won at auction went on a street of a group with a mortgaged street,
    where no building may stand. Now a player with nowhere to put it does not bid."""
    table = Table().own(ANA, *BROWN).own(BEA, *LIGHT_BLUE, mortgaged=(ORIENTAL,))
    table.do("auction_open", building="house")
    assert table.refused("bid", player=BEA, amount=50).rule == "B5"
    table.do("bid", player=ANA, amount=50)
    assert table.refused("auction_close", deed=ORIENTAL).rule == "B1"
    table.do("auction_close")  # on the first street where it may stand
    assert table.state.deeds[ORIENTAL].houses == 0 and table.state.deeds[MEDITERRANEAN].houses == 1


@pytest.mark.parametrize(("levels", "street"), [(3, MEDITERRANEAN), (5, BALTIC)])
def test_b3_a_hotel_won_at_auction_goes_on_a_street_with_its_four_houses(levels, street):
    """B3, B5: a hotel won at auction went on a street with 3 houses (the fourth free), or on
    a street that already had a hotel (the bid paid, nothing placed)."""
    table = Table().own(ANA, *BROWN, houses=levels)
    table.state.houses -= 0 if levels == 5 else 2 * levels
    table.state.hotels -= 2 if levels == 5 else 0
    table.do("auction_open", building="hotel")
    assert table.refused("bid", player=ANA, amount=50).rule == "B5"  # nowhere to put it
    assert table.state.deeds[street].houses == levels


def test_b3_b5_a_hotel_won_at_auction_goes_up_on_four_houses_for_the_bid():
    table = Table().own(ANA, *BROWN, houses=4)
    table.state.houses -= 8
    table.do("auction_open", building="hotel")
    table.do("bid", player=ANA, amount=50)
    before = table.state
    assert paid(table.do("auction_close", deed=BALTIC)) == [(ANA, BANK, 50)]
    assert [table.state.deeds[i].houses for i in BROWN] == [4, 5]
    assert (table.state.houses, table.state.hotels) == (before.houses + 4, before.hotels - 1)


def test_sg2_b5_a_short_game_hotel_won_on_four_houses_sells_the_fourth_back_at_half():
    """SG2, B5, B6: in the short game a hotel takes 3 houses; won at auction for a street
    with 4, the bid pays for the hotel and the fourth house goes back at half its price."""
    table = Table(mode="short")
    table.do("deal", hands=[list(BROWN), [ORIENTAL, ELECTRIC], [READING, WATER]])
    table.own(ANA, *BROWN, houses=4)
    table.state.houses -= 8
    table.do("auction_open", building="hotel")
    table.do("bid", player=ANA, amount=50)
    before = table.state
    half_a_house = US.groups["brown"].house_price // 2
    outcome = table.do("auction_close", deed=BALTIC)
    assert paid(outcome) == [(ANA, BANK, 50), (BANK, ANA, half_a_house)]
    assert [table.state.deeds[i].houses for i in BROWN] == [4, 5]
    assert (table.state.houses, table.state.hotels) == (before.houses + 4, before.hotels - 1)


def test_j3_k2_a_player_bankrupt_in_jail_leaves_with_no_tries_counted():
    """J3, K2: a player who went bankrupt in jail after failed rolls for doubles kept the count
    of tries ("try 2 of 3") while out of the game."""
    table = Table().put(ANA, JAIL, in_jail=True, jail_tries=1, cash=5)
    table.draws(BEA, card_of(US, "collect_each"))  # Ana owes Bea and cannot pay
    table.do("bankrupt", player=ANA)
    ana = table.state.players[ANA]
    assert ana.bankrupt and not ana.in_jail and ana.jail_tries == 0


# -- found by the machine that checks who gets what; the core still breaks these --------------


def test_p2_p6_no_rent_on_one_s_own_utility_after_it_changed_hands_before_the_throw():
    """P2, P6: rent is paid on another player's deed. Bea's "nearest utility" card left her a
    fresh throw for Ana's Electric Company; before the throw Ana sold it to her. The throw then
    had Bea pay Bea $70 rent (ten times 7): a payment to oneself, in the history. (Random play:
    `python -m bench.random_play --seed 1 --game 149`, Water Works sold for $1, Cal paid Cal.)"""
    table = Table().own(ANA, ELECTRIC)
    table.draws(BEA, card_of(US, "nearest", kind="utility"))
    assert table.waiting() == [("throw", BEA)]
    table.do("trade", player=ANA, partner=BEA, give={"deeds": [ELECTRIC]}, take={"cash": 10})

    outcome = table.do("throw", player=BEA, dice=7)
    assert paid(outcome) == [] and "rent" not in outcome.text


def test_b5_a_building_auction_won_by_a_player_with_nowhere_to_build_does_not_wedge_the_game():
    """B5, P1: buildings are auctioned among players who want to build. Bea, who holds no
    whole group, could bid for a house; the close then needs a street of hers to put it on,
    so every close was refused, and nobody could throw again (undo was the only way out).
    Either her bid is refused, or the auction can still be closed."""
    table = Table().own(ANA, *BROWN)
    table.do("auction_open", building="house")
    try:
        table.do("bid", player=BEA, amount=50)
    except RuleError:
        return  # B5: no bid from a player who could not build
    closes = []
    for deed in (None, *BROWN, *LIGHT_BLUE, BOARDWALK):
        with contextlib.suppress(RuleError):
            closes.append(
                apply(table.state, US, "auction_close", {} if deed is None else {"deed": deed})
            )
    assert closes, "the auction can never be closed"


def test_p1_an_auction_whose_top_bidder_spent_the_cash_of_the_bid_does_not_wedge_the_game():
    """P1, K1: a bid is at most the bidder's cash, but the cash could then be spent (here the
    bank collected it) while the auction ran: the close was refused (K1) for good unless
    someone outbid, and nobody could throw. Either spending what the standing bid needs is
    refused, or the auction is still closed, with nobody paying more than they hold."""
    table = Table()
    table.throws_onto(ANA, ORIENTAL)
    table.do("decline", player=ANA, deed=ORIENTAL)
    table.do("bid", player=BEA, amount=300)
    try:
        table.do("bank_collect", player=BEA, amount=1400)
    except RuleError:
        return  # the standing bid's cash is not spent
    table.do("auction_close")
    assert table.state.auction is None and table.state.players[BEA].cash >= 0


def test_sg1_a_short_game_that_cannot_pay_for_any_deal_still_starts():
    """SG1, K1: each player is dealt two deeds and pays for them at once; a payment the rules
    call for that the cash does not cover is a debt (K1), not a refusal. A short game with
    100 each was accepted, then every deal refused (the two cheapest deeds cost 120), and
    nothing else may happen before the deal: a game that could never start. Either such a
    setup is refused in words, or the deal goes ahead."""
    setup = setup_of(("Ana", "Bea"), mode="short", starting_cash=100)
    try:
        state = new_game(US, setup)
    except RuleError:
        return
    apply(state, US, "deal", {"hands": [[MEDITERRANEAN, ORIENTAL], [BALTIC, LIGHT_BLUE[1]]]})


def test_m4_random_play_s_ledger_lets_only_the_new_owner_lift_a_mortgaged_deed_it_receives():
    """M4: in a trade put to a phone, the partner who accepts may lift at once only the
    mortgaged deeds the partner receives; one the proposer receives stays mortgaged, 10%
    paid (the proposer's own choice to make later). Random play's ledger charged the proposer
    the whole lift when the accepter named that deed, and called the core's 10% a violation."""
    from .machine import Play

    play = Play(setup_of(("Ana", "Bea")))
    table = Table(names=("Ana", "Bea")).own(BEA, ELECTRIC, mortgaged=[ELECTRIC])
    play.state = play.stack[0] = table.state
    offer = {"give": {"cash": 100}, "take": {"deeds": [ELECTRIC]}}
    assert play.tap("trade_offer", {"player": ANA, "partner": BEA, **offer})
    accepted = {"player": BEA, "offer": play.state.offers[-1].id, "lift": [ELECTRIC]}
    assert play.tap("trade_accept", accepted)  # checks who gets what against the ledger
    assert play.state.deeds[ELECTRIC].mortgaged and play.state.deeds[ELECTRIC].owner == ANA
