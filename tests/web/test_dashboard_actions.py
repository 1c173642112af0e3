"""The banker's actions list ("Landed on…", "Passed GO", "Pay out the pot", "End the game")
comes with the dashboard's live part: a player's phone that ends the game, or fills the Free
Parking pot, changes the list on the banker's open page without a reload."""

from __future__ import annotations

from tablebank.live import watcher

from ..streams import Opened
from ..support import (
    BALTIC,
    BOARDWALK,
    INCOME_TAX,
    MEDITERRANEAN,
    ORIENTAL,
    PARK_PLACE,
    US,
    VERMONT,
)


def banker_page(table, app) -> Opened:
    """The banker's dashboard open on a phone of its own (the banker link), and its stream."""
    banker = app.test_client()
    assert banker.get(f"/g/{table.id}/?key={table.headers['X-Banker-Key']}").status_code == 302
    return Opened(banker, f"/g/{table.id}/live", table.game()["version"])


def owes_rent_with_nothing(table, seat: int) -> None:
    """`seat` hands the bank all their cash, then lands on Ana's Boardwalk: a debt (K1), the
    rent doubled by the whole group, more than their two deeds' mortgages raise."""
    table.act("bank_collect", player=seat, amount=table.cash()[seat])
    table.throws_onto(seat, BOARDWALK)


def test_sg3_the_banker_s_actions_go_live_when_a_phone_s_bankruptcy_ends_the_game(table, app):
    """SG3: Bea declares the second bankruptcy of a short game on her phone; the banker's open
    dashboard then offers the results, and no more landings, GO or "End the game"."""
    table.new_api_game(mode="short", phone_turns=True)
    table.act("deal", hands=[[PARK_PLACE, BOARDWALK], [BALTIC, ORIENTAL], [MEDITERRANEAN, VERMONT]])
    owes_rent_with_nothing(table, 2)
    table.act("bankrupt", player=2)
    owes_rent_with_nothing(table, 1)
    dashboard = banker_page(table, app)
    try:
        table.act("bank_pay", player=0, amount=10)
        playing = table.text(dashboard.next_live()[1])
        assert "Landed on…" in playing and "End the game" in playing
        assert table.phone_do(1, "bankrupt", player=1).status_code == 302
        ended = table.text(dashboard.next_live()[1])
    finally:
        watcher(app).stop()
    assert table.state().ended
    assert "The game has ended: results" in ended and "Results" in ended
    for gone in ("Landed on…", "Passed GO", "Go to jail", "End the game"):
        assert gone not in ended, gone


def test_h1_pay_out_the_pot_comes_live_when_a_phone_s_throw_fills_the_pot(table, app):
    """H1: Ana's throw from her phone pays the income tax into the Free Parking pot; the
    banker's open dashboard offers "Pay out the pot" at once, and drops it once paid out."""
    table.new_game(free_parking_jackpot="on")
    table.do("phone_turns", allow=True)
    dashboard = banker_page(table, app)
    try:
        assert table.phone_do(0, "roll", player=0, dice=INCOME_TAX).status_code == 302
        assert table.state().pot == US.spaces[INCOME_TAX].amount
        filled = table.text(dashboard.next_live()[1])
        assert "Pay out the pot" in filled
        table.act("parking_pot", player=1)
        emptied = table.text(dashboard.next_live()[1])
    finally:
        watcher(app).stop()
    assert table.state().pot == 0
    assert "Pay out the pot" not in emptied and "Passed GO" in emptied
