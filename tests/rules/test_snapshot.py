"""The snapshot's JSON form: the auction and the trade offers are dataclasses in the rules
core, stored as the same JSON objects as ever, so snapshots and checkpoints written before
still load, and load back to the same JSON text (so the same checksum, app/integrity.py)."""

from __future__ import annotations

import json
from dataclasses import asdict

from tablebank.rules import GameState, apply, new_game
from tablebank.rules.state import Auction, TradeOffer

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
# As the bank stored them before the dataclasses (keys in that order).
STORED_AUCTION = {"building": None, "deed": 1, "minimum": 1, "bid": 60, "bidder": 0}
STORED_OFFER = {
    "id": 1,
    "trade": {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": "500"}},
}


def played() -> GameState:
    state = new_game(US, setup_of(("Ana", "Bea")))
    offer = {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": "500"}}
    for kind, payload in (
        ("buy", {"player": 0, "deed": 39}),
        ("trade_offer", offer),
        ("decline", {"player": 1, "deed": 1}),
        ("bid", {"player": 0, "amount": 60}),
    ):
        state = apply(state, US, kind, payload).state
    return state


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
