"""M4 at the end of a game, as pages and the API show it: Bea accepts Ana's mortgaged Park
Place on her phone and has not yet chosen to lift it or keep it when the game ends (the
banker's word, or the clock, TL1). The end keeps it mortgaged and takes the 10% from her for
the bank: the history says so, the results (SG4) and the API count it, and the banker's undo
gives her the choice back."""

from __future__ import annotations

from tablebank.rules.property import interest

from ..support import ORIENTAL, PARK_PLACE, RAILROADS, READING, US, VERMONT
from ..tables import clock_at

PRICE = US.spaces[PARK_PLACE].price  # 350: counted 175 while mortgaged (SG4)
TEN_PERCENT = interest(US.spaces[PARK_PLACE].mortgage)  # 18
KEPT = f"Bea pays ${TEN_PERCENT} interest and keeps Park Place mortgaged"


def bea_accepts_park_place_on_her_phone(table, app) -> None:
    table.own(0, PARK_PLACE)
    table.act("mortgage", player=0, deed=PARK_PLACE)
    offer = {"give": {"deeds": [PARK_PLACE]}, "take": {"cash": 100}}
    table.do("trade_offer", player=0, partner=1, **offer)
    bea = app.test_client()
    table.press(table.page(table.phone(1), bea), "Accept", client=bea)
    waiting = [(w["what"], w["seat"]) for w in table.game()["pending"]]
    assert ("received", 1) in waiting


def test_m4_sg4_the_banker_ends_the_game_and_the_results_count_bea_s_10_percent(table, app):
    """Bea is worth $1,575 with her choice waiting, Cai $1,566: the $18 the end takes from
    her makes Cai the winner ($1,557 to $1,566)."""
    table.new_game(("Ana", "Bea", "Cai"))
    bea_accepts_park_place_on_her_phone(table, app)
    table.act("bank_pay", player=2, amount=66)
    before = table.cash()
    table.do("end_game")
    assert table.cash() == [before[0], before[1] - TEN_PERCENT, before[2]]  # to the bank
    game = table.game()
    assert game["ended"] and game["pending"] == []
    (deed,) = [d for d in game["deeds"] if d["space"] == PARK_PLACE]
    assert deed["owner"] == 1 and deed["mortgaged"]
    worth = before[1] - TEN_PERCENT + PRICE // 2
    assert game["players"][1]["score"] == worth
    assert KEPT in table.history()[0]["text"]
    assert KEPT in table.read(f"/g/{table.id}/history")
    results = table.read(f"/g/{table.id}/results")
    assert "Cai wins the game" in results
    assert f"Bea Net worth ${worth:,} Cash ${before[1] - TEN_PERCENT:,}" in results
    assert f"Mortgaged deeds (half) ${PRICE // 2}" in results

    table.do("undo")  # the end taken back: the choice is Bea's again, the $18 hers
    assert table.cash() == before
    assert ("received", 1) in [(w["what"], w["seat"]) for w in table.game()["pending"]]


def test_m4_tl1_the_clock_ends_the_game_and_bea_pays_the_10_percent(table, app):
    table.new_game(("Ana", "Bea", "Cai"), mode="timed", ends_at="2099-01-01T20:00")
    table.act("deal", hands=[[ORIENTAL, VERMONT], [READING, RAILROADS[1]], [1, 3]])
    bea_accepts_park_place_on_her_phone(table, app)
    before = table.cash()
    with clock_at("2099-01-01T20:01"):
        assert table.send("pass_go", player=0).get_json()["rule"] == "TL1"
    assert table.state().ended
    assert table.cash() == [before[0], before[1] - TEN_PERCENT, before[2]]
    assert table.history()[0]["actor"] == "clock" and KEPT in table.history()[0]["text"]
