"""Regression tests for what random play over the whole game found (tests/rules/machine.py,
bench/soak.py), each named after the rule it broke."""

from __future__ import annotations

import pytest
from tablebank.rules import RuleError, apply, new_game, raisable

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
MEDITERRANEAN, BALTIC, BOARDWALK = 1, 3, 39
ANA, BEA, CAL = 0, 1, 2


def tap(state, kind, **payload):
    return apply(state, US, kind, payload).state


def broke(state, seat, **creditor):
    """The player owes one more than they could raise (K1) and goes bankrupt."""
    owed = raisable(state, US, seat) + 1
    return tap(state, "bankrupt", player=seat, owed=owed, **creditor)


def test_k3_a_deed_waiting_for_its_auction_is_sold_only_there():
    """K3: the bank auctions every deed of a player bankrupt to it. A deed still waiting for
    its own auction could be bought at the printed price by a landing (or dealt), so it never
    came up for auction and the bank's queue named a deed someone owned."""
    state = new_game(US, setup_of())
    state = tap(state, "buy", player=ANA, deed=MEDITERRANEAN)
    state = tap(state, "buy", player=ANA, deed=BALTIC)
    state = broke(state, ANA)
    assert state.auction.deed == MEDITERRANEAN and state.to_auction == [BALTIC]

    with pytest.raises(RuleError) as refused:
        apply(state, US, "buy", {"player": BEA, "deed": BALTIC})
    assert refused.value.rule == "K3"
    for waiting in (MEDITERRANEAN, BALTIC):  # on sale now, and next
        with pytest.raises(RuleError):
            apply(state, US, "deal", {"hands": [[], [waiting], []]})

    state = tap(state, "auction_close")  # no bid for Mediterranean: Baltic's auction opens
    assert state.auction.deed == BALTIC
    state = tap(state, "bid", player=BEA, amount=10)
    state = tap(state, "auction_close")
    assert state.deeds[BALTIC].owner == BEA and state.players[BEA].cash == 1500 - 10


@pytest.mark.parametrize("creditor", [{}, {"creditor": CAL}], ids=["to the bank", "to Cal"])
def test_k2_k3_a_bankrupt_player_s_bid_is_withdrawn(creditor):
    """K2, K3: the debtor leaves the game. A player bankrupt while holding the top bid kept it:
    closing the auction asked a bankrupt player with no cash to pay, and was refused for good
    unless someone outbid them. Now their bid is withdrawn and the bidding starts again."""
    state = new_game(US, setup_of())
    state = tap(state, "decline", player=CAL, deed=BOARDWALK)
    state = tap(state, "bid", player=ANA, amount=300)
    state = broke(state, ANA, **creditor)

    assert state.players[ANA].bankrupt
    assert state.auction.deed == BOARDWALK and state.auction.bidder is None
    with pytest.raises(RuleError):
        apply(state, US, "bid", {"player": ANA, "amount": 1})
    state = tap(state, "bid", player=BEA, amount=5)  # below Ana's old bid: it is gone
    state = tap(state, "auction_close")
    assert state.deeds[BOARDWALK].owner == BEA


def brown_group_at(levels, mortgaged=False):
    """Ana holds the brown group at these levels; Bea the light blues, one mortgaged."""
    state = new_game(US, setup_of())
    for deed in (MEDITERRANEAN, BALTIC):
        state = tap(state, "buy", player=ANA, deed=deed)
    if any(levels):
        state = tap(state, "build", player=ANA, group="brown", levels=levels)
    if mortgaged:
        for deed in (6, 8, 9):
            state = tap(state, "buy", player=BEA, deed=deed)
        state = tap(state, "mortgage", player=BEA, deed=6)
    return state


def test_b4_a_house_won_at_auction_is_not_placed_on_a_mortgaged_group():
    """B4, B5: a house won at auction went on a street of a group with a mortgaged street,
    a building no banker tap could have put there."""
    state = brown_group_at([0, 0], mortgaged=True)
    state = tap(state, "auction_open", building="house")
    state = tap(state, "bid", player=BEA, amount=50)
    with pytest.raises(RuleError) as refused:
        apply(state, US, "auction_close", {"deed": 6})
    assert refused.value.rule == "B4"
    assert state.deeds[6].houses == 0 and state.players[BEA].cash == 1500 - 100 - 100 - 120 + 50


@pytest.mark.parametrize(("levels", "street"), [([3, 4], MEDITERRANEAN), ([5, 5], BALTIC)])
def test_b3_a_hotel_won_at_auction_goes_on_a_street_with_its_four_houses(levels, street):
    """B3, B5: a hotel won at auction went on a street with 3 houses (the fourth free), or on
    a street that already had a hotel (the bid paid, nothing placed)."""
    state = brown_group_at(levels)
    state = tap(state, "auction_open", building="hotel")
    state = tap(state, "bid", player=ANA, amount=50)  # B5: from the lowest house price
    with pytest.raises(RuleError) as refused:
        apply(state, US, "auction_close", {"deed": street})
    assert refused.value.rule == "B3"

    state = brown_group_at([4, 4])  # on a street with its 4 houses the hotel goes up for the bid
    state = tap(state, "auction_open", building="hotel")
    state = tap(state, "bid", player=ANA, amount=50)
    after = tap(state, "auction_close", deed=BALTIC)
    assert [after.deeds[i].houses for i in (MEDITERRANEAN, BALTIC)] == [4, 5]
    assert after.players[ANA].cash == state.players[ANA].cash - 50
    assert (after.houses, after.hotels) == (state.houses + 4, state.hotels - 1)


def test_j3_k2_a_player_bankrupt_in_jail_leaves_with_no_tries_counted():
    """J3, K2: a player who went bankrupt in jail after failed rolls for doubles left jail
    but kept the count of tries ("try 2 of 3") while out of the game."""
    state = new_game(US, setup_of())
    state = tap(state, "go_to_jail", player=ANA)
    state = tap(state, "turn_to", player=ANA)
    state = tap(state, "roll", player=ANA, dice=7)  # no doubles: stays in jail, try 1 of 3
    assert state.players[ANA].in_jail and state.players[ANA].jail_tries == 1
    state = broke(state, ANA, creditor=BEA)
    assert state.players[ANA].bankrupt
    assert not state.players[ANA].in_jail and state.players[ANA].jail_tries == 0
