"""The snapshot's JSON form: the auction and the trade offers are dataclasses in the rules
core, stored as the same JSON objects as ever, so snapshots and checkpoints written before
still load, and load back to the same JSON text (so the same checksum, app/integrity.py)."""

from __future__ import annotations

import json
from dataclasses import asdict

from tablebank.rules import GameState, new_game
from tablebank.rules.state import Auction, TradeOffer

from ..support import BOARDWALK, MEDITERRANEAN, ORIENTAL, US, Table, card_of, setup_of

# As the bank stored them before the dataclasses (keys in that order).
STORED_AUCTION = {"building": None, "deed": 1, "minimum": 1, "bid": 60, "bidder": 0}
STORED_OFFER = {
    "id": 1,
    "trade": {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": "500"}},
}


def played() -> GameState:
    """Ana buys Boardwalk and offers it to Bea; Bea declines Mediterranean Avenue, which goes
    to auction, and Ana bids for it."""
    table = Table(names=("Ana", "Bea"))
    table.throws_onto(0, BOARDWALK, 7, {"kind": "buy"})
    offer = {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": "500"}}
    table.do("trade_offer", **offer)
    table.throws_onto(1, MEDITERRANEAN, 7, {"kind": "decline"})
    table.do("bid", player=0, amount=60)
    return table.state


def test_the_auction_and_an_offer_are_stored_as_they_always_were():
    state = played()
    assert state.auction == Auction(building=None, deed=1, minimum=1, bid=60, bidder=0)
    assert state.offers == [TradeOffer(1, STORED_OFFER["trade"])]
    text = json.dumps(state.to_dict())
    stored = json.loads(text)
    assert json.dumps(stored["auction"]) == json.dumps(STORED_AUCTION)
    assert json.dumps(stored["offers"]) == json.dumps([STORED_OFFER])


def test_an_old_snapshot_loads_and_gives_back_the_same_json():
    old = json.loads(json.dumps(new_game(US, setup_of(("Ana", "Bea"))).to_dict()))
    old.update(auction=STORED_AUCTION, offers=[STORED_OFFER], offers_made=1)
    loaded = GameState.from_dict(old)
    assert loaded.auction.bidder == 0 and loaded.offers[0].offered_to(1)
    again = json.loads(json.dumps(loaded.to_dict()))
    assert json.dumps(again) == json.dumps(old)  # the same text: the same checksum
    assert GameState.from_dict({**old, "auction": None, "offers": []}).auction is None


def test_a_copy_does_not_share_the_auction():
    state = played()
    copy = state.copy()
    copy.auction.bid = 99
    assert state.auction.bid == 60


def test_the_snapshot_is_the_text_asdict_gave_and_shares_nothing_with_the_state():
    state = played()
    before = asdict(state)
    before["deeds"] = {str(i): d for i, d in before["deeds"].items()}
    data = state.to_dict()
    assert json.dumps(data) == json.dumps(before)  # same keys, same order: same checksum
    data["players"][0]["jail_free"].append("chance")
    data["offers"][0]["trade"]["give"]["deeds"].append(1)
    assert state.players[0].jail_free == [] and state.offers[0].trade["give"]["deeds"] == [39]


def test_what_the_game_waits_for_is_stored_and_loads_back_to_the_same_json():
    table = Table().put(1, cash=5)
    table.draws(0, card_of(US, "collect_each"))  # Bea cannot pay: a debt to Ana waits
    stored = json.loads(json.dumps(table.state.to_dict()))
    assert [item["what"] for item in stored["pending"]] == ["debt"]
    loaded = GameState.from_dict(stored)
    assert loaded == table.state and json.dumps(loaded.to_dict()) == json.dumps(stored)
    table = Table()
    table.throws_onto(0, ORIENTAL, 6)  # buy or decline waits
    stored = json.loads(json.dumps(table.state.to_dict()))
    loaded = GameState.from_dict(stored)
    assert loaded.waiting("buy", 0)[0].space == ORIENTAL and loaded.moved
    assert json.dumps(loaded.to_dict()) == json.dumps(stored)
