"""Rules core, M4 at the end of a game (TL1, the banker's word, SG3, K4): a mortgaged deed's
new owner whose lift-now-or-keep choice still waits when the game ends keeps it mortgaged and
pays the bank the 10% then, or owes it when the cash falls short (K1); the standings (SG4)
count the deed at half its price and the 10% as paid or owed. Keeping it is what M4 asks
of every new owner; lifting it is their option, and scores the same: Park Place lifted costs
175 + 18 and counts 350, kept costs 18 and counts 175."""

from __future__ import annotations

from tablebank.rules import replay, score
from tablebank.rules.property import interest, lift_cost
from tablebank.rules.wealth import score_breakdown

from ..support import (
    BOARDWALK,
    BROWN,
    LUXURY_TAX,
    ORIENTAL,
    PARK_PLACE,
    PENNSYLVANIA,
    RAILROADS,
    US,
    VERMONT,
    Table,
    paid,
    setup_of,
)

PRICE = US.spaces[PARK_PLACE].price  # 350
VALUE = US.spaces[PARK_PLACE].mortgage  # 175
TEN_PERCENT = interest(VALUE)  # 18, rounded up
KEPT = f"Bea pays ${TEN_PERCENT} interest and keeps Park Place mortgaged"


def ana_sells_bea_park_place_mortgaged(table: Table, price: int = 100) -> Table:
    """Ana offers Bea her mortgaged Park Place for `price`; Bea accepts on her phone without
    saying whether she lifts it now: her choice waits (M4)."""
    table.own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    offer = {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}}
    table.do("trade_offer", **offer, take={"cash": price})
    table.do("trade_accept", player=1, offer=table.state.offers[-1].id)
    assert [(w.what, w.seat, w.space) for w in table.waits()][:1] == [("received", 1, PARK_PLACE)]
    return table


def timed_game() -> Table:
    table = Table(mode="timed", ends_at="2099-01-01T00:00")
    table.do("deal", hands=[list(BROWN), [ORIENTAL, VERMONT], [RAILROADS[0], RAILROADS[1]]])
    return table


def test_m4_tl1_sg4_the_time_ends_the_game_bea_keeps_park_place_mortgaged_and_pays_the_10():
    """TL1: time is up while Bea's choice on Park Place waits. The end settles it as kept:
    $18 from Bea to the bank, the deed stays hers and mortgaged, and SG4 counts it at half
    its price after the 18 is paid. Had she lifted it before the end (175 + 18), her score
    would be the same: keeping is no worse for her than lifting."""
    table = ana_sells_bea_park_place_mortgaged(timed_game())
    ana, bea, cal = table.cash()
    lifted = table.copy()
    outcome = table.do("end_game")
    assert paid(outcome) == [(1, None, TEN_PERCENT)]  # from Bea, to the bank
    assert outcome.text == f"{KEPT}; the game ends"
    assert table.cash() == [ana, bea - TEN_PERCENT, cal]
    assert table.state.deeds[PARK_PLACE].owner == 1 and table.state.deeds[PARK_PLACE].mortgaged
    deeds = sum(US.spaces[i].price for i in (ORIENTAL, VERMONT))
    assert score(table.state, US, 1) == bea - TEN_PERCENT + deeds + PRICE // 2

    lifted.do("lift", player=1, deed=PARK_PLACE)
    assert paid(lifted.do("end_game")) == []  # chosen already: nothing more at the end
    assert lifted.cash(1) == bea - lift_cost(VALUE)
    assert score(lifted.state, US, 1) == score(table.state, US, 1)


def test_m4_k1_sg4_the_banker_ends_the_game_and_bea_owes_the_10_she_cannot_pay():
    """The banker ends the game; Bea has $10 left of her $110 after paying Ana $100, short of
    the $18. As when she keeps it herself short of cash, the 10% is owed to the bank (K1):
    no money moves, the debt stays open, and SG4 counts it against her."""
    table = ana_sells_bea_park_place_mortgaged(Table().put(1, cash=110))
    outcome = table.do("end_game")
    assert paid(outcome) == []
    assert f"Bea owes ${TEN_PERCENT} interest and keeps Park Place mortgaged" in outcome.text
    assert "Bea is $8 short: the debt counts against them in the standings" in outcome.text
    assert "until the money is raised" not in outcome.text  # the game is over: nothing is
    assert [(d.creditor, d.amount) for d in table.state.debts_of(1)] == [(None, TEN_PERCENT)]
    parts = score_breakdown(table.state, US, 1)
    assert (parts["cash"], parts["mortgaged"], parts["debts"]) == (10, PRICE // 2, -TEN_PERCENT)
    assert parts["total"] == 10 + PRICE // 2 - TEN_PERCENT
    assert score(table.state, US, 0) == 1500 + 100  # Ana is paid the trade's $100, no more


def test_m4_sg3_the_second_bankruptcy_of_a_short_game_settles_bea_s_waiting_choice():
    """SG3: Dev's bankruptcy was the first. Cal cannot pay Ana's Pennsylvania Avenue rent;
    while his debt waits, Ana sells Bea Park Place mortgaged, and Bea's choice waits. Cal's
    bankruptcy, the second, ends the game: Bea keeps Park Place, paying the bank $18."""
    table = Table(mode="short", names=("Ana", "Bea", "Cal", "Dev"))
    hands = [list(BROWN), [ORIENTAL, VERMONT], [RAILROADS[0], RAILROADS[1]], [PENNSYLVANIA, 32]]
    table.do("deal", hands=hands)
    table.own(3, PENNSYLVANIA, 32, mortgaged=[PENNSYLVANIA, 32])  # nothing left to raise
    table.own(2, *RAILROADS[:2], mortgaged=RAILROADS[:2])
    table.put(3, cash=0).throws_onto(3, LUXURY_TAX, 5)
    table.do("bankrupt", player=3)  # the first: to the bank, its deeds auctioned
    while table.state.auction:
        table.do("auction_close")
    table.own(0, PENNSYLVANIA)
    table.put(2, cash=0).throws_onto(2, PENNSYLVANIA)  # owes Ana the rent
    ana_sells_bea_park_place_mortgaged(table)
    bea = table.cash(1)
    outcome = table.do("bankrupt", player=2)
    assert table.state.ended
    assert (1, None, TEN_PERCENT) in paid(outcome)
    assert KEPT in outcome.text
    assert table.cash(1) == bea - TEN_PERCENT
    deeds = sum(US.spaces[i].price for i in (ORIENTAL, VERMONT))
    assert score(table.state, US, 1) == bea - TEN_PERCENT + deeds + PRICE // 2


def test_m4_k4_bea_s_bankruptcy_leaves_ana_last_and_settles_her_waiting_choice():
    """K4: Bea owes Ana Boardwalk's rent and sells her mortgaged Park Place to Ana for $10 to
    raise it; Ana accepts without choosing. Still short, Bea goes bankrupt: Ana is the last
    player left, and keeps Park Place mortgaged, paying the bank $18."""
    table = Table(names=("Ana", "Bea")).own(0, BOARDWALK)
    table.own(1, PARK_PLACE, mortgaged=[PARK_PLACE]).put(1, cash=0)
    table.throws_onto(1, BOARDWALK, 5)
    offer = {"player": 1, "partner": 0, "give": {"deeds": [PARK_PLACE]}, "take": {"cash": 10}}
    table.do("trade_offer", **offer)
    table.do("trade_accept", player=0, offer=table.state.offers[0].id)
    assert [(w.what, w.seat) for w in table.waits()][0] == ("received", 0)
    ana = table.cash(0)
    outcome = table.do("bankrupt", player=1)
    assert table.state.ended and table.state.players[1].bankrupt
    assert paid(outcome) == [(1, 0, 10), (0, None, TEN_PERCENT)]  # Bea's $10, then Ana's 10%
    assert "Ana pays $18 interest and keeps Park Place mortgaged" in outcome.text
    assert table.cash(0) == ana + 10 - TEN_PERCENT
    assert table.state.deeds[PARK_PLACE].mortgaged and table.state.deeds[PARK_PLACE].owner == 0


LOGGED = [
    ("land", {"player": 0, "space": PARK_PLACE, "choices": [{"kind": "buy"}]}),
    ("mortgage", {"player": 0, "deed": PARK_PLACE}),
    ("trade_offer", {"player": 0, "partner": 1, "give": {"deeds": [PARK_PLACE]}}),
    ("trade_accept", {"player": 1, "offer": 1}),
    ("end_game", {}),
]
LOGGED[2][1]["take"] = {"cash": 100}


def test_m4_a_game_logged_under_rules_4_replays_its_end_as_it_was_played():
    """Under rules 4 the end dropped a choice still waiting: the deed stayed mortgaged and
    Bea paid nothing for it. Such a log replays so; under rules 5 the end charges her the
    10%. (Under rules 2 and 3 a trade settled at once: no choice waited for the end.)"""
    old = replay(US, {**setup_of(), "rules": 4}, LOGGED)
    assert old.ended and [p.cash for p in old.players][1] == 1500 - 100
    assert old.deeds[PARK_PLACE].owner == 1 and old.deeds[PARK_PLACE].mortgaged
    assert not old.settings.received_kept_at_end
    new = replay(US, {**setup_of(), "rules": 5}, LOGGED)
    assert [p.cash for p in new.players][1] == 1500 - 100 - TEN_PERCENT
