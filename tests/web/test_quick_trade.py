"""The banker's deed-for-cash trade in at most 4 taps (issue 22): the trade page lists every
deed held with a button per buyer; one tap shows the trade at the printed price, ready to
confirm (or to change the price first, and preview again)."""

from __future__ import annotations

import html
import re

from tablebank.rules.property import lift_cost

from ..support import BOARDWALK, CHEST, JAIL, US, card_of


def test_x1_a_deed_sold_for_cash_in_three_taps(table):
    table.new_api_game(names=("Ana", "Bea", "Cal"))
    table.own(0, BOARDWALK)
    dashboard = table.page(f"/g/{table.id}/")
    assert f'href="/g/{table.id}/trade"' in dashboard  # tap 1: Trade
    trade = table.page(f"/g/{table.id}/trade")
    links = re.findall(r'<a class="btn mini" href="([^"]+)" aria-label="([^"]+)"', trade)
    labels = [label for _, label in links]
    assert "Bea buys Boardwalk" in labels and "Cal buys Boardwalk" in labels
    assert "Ana buys Boardwalk" not in labels  # not from herself
    href = html.unescape(next(h for h, label in links if label == "Bea buys Boardwalk"))
    shown = table.page(f"/g/{table.id}/trade{href}")  # tap 2: the buyer
    words = "Ana trades with Bea; Boardwalk from Ana to Bea; $400 from Bea to Ana"
    assert table.button(shown, words)
    table.press(shown, words)  # tap 3: confirm
    state = table.state()
    assert state.deeds[BOARDWALK].owner == 1
    assert [p.cash for p in state.players] == [1500, 1100, 1500]


def test_x1_a_player_offers_a_get_out_of_jail_free_card_from_their_phone(table):
    """Issue 22: a trade from a phone may hold the cards too (partner, deeds, cash, cards)."""
    table.new_api_game(names=("Ana", "Bea"), phone_turns=True)
    card = card_of(US, "jail_free", deck="chest")
    table.act("turn_to", player=1)
    table.act("place", player=1, space=JAIL)  # just visiting
    table.roll(1, CHEST - JAIL, False, {"kind": "card", "card": card.id})
    phone = table.app.test_client()
    form = table.page(f"{table.phone(1)}/trade?partner=0", phone)
    assert 'name="give_jail_free"' in form
    asked = table.page(
        f"{table.phone(1)}/trade?partner=0&give_jail_free=1&cash=30&cash_from=partner", phone
    )
    table.press(asked, "Bea offers Ana", phone)
    offered = table.read(table.phone(0))
    assert "1 Get Out of Jail Free card from Bea to Ana" in offered


def test_m4_a_phone_s_offer_for_a_mortgaged_deed_may_lift_it_at_once(table):
    """M4: the new owner of a mortgaged deed lifts it at once for the value and the 10%, or
    pays the 10% now and the value and 10% again later. Bea, offering Ana $500 for her
    mortgaged Boardwalk from her phone, ticks to lift it at once: when Ana accepts, Bea pays
    110% in all and Boardwalk is clear. Before, a phone's offer dropped Bea's choice."""
    table.new_api_game(names=("Ana", "Bea"), phone_turns=True)
    table.own(0, BOARDWALK)
    table.act("mortgage", player=0, deed=BOARDWALK)
    phone = table.app.test_client()
    asked = f"{table.phone(1)}/trade?partner=0&take_deeds={BOARDWALK}&cash=500&cash_from=player"
    cost = lift_cost(US.spaces[BOARDWALK].mortgage)
    assert f"Lift Boardwalk now (${cost})" in table.text(table.page(asked, phone))
    table.press(table.page(f"{asked}&lift={BOARDWALK}", phone), "Bea offers Ana", phone)
    ana = table.cash()[0]
    accepting = table.app.test_client()
    table.press(table.page(table.phone(0), accepting), "Accept", accepting)
    assert table.cash() == [ana + 500, 1500 - 500 - cost]
    boardwalk = table.state().deeds[BOARDWALK]
    assert boardwalk.owner == 1 and not boardwalk.mortgaged
