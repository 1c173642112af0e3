"""A player's phone: a trade offer with Accept and Decline, a header with the player's name
and balance on every page away from the main one, and history with times."""

from __future__ import annotations

import re

from ..support import BOARDWALK, ELECTRIC, ORIENTAL, READING, US, WATER

BOARDWALK_PRICE = US.spaces[BOARDWALK].price


def test_x1_a_trade_offer_on_the_phone_reads_then_says_accept_or_decline(table, app):
    table.new_game()
    table.own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    table.do("trade_offer", **trade)
    page = table.page(table.phone(1), app.test_client())
    offered = "Ana trades with Bea; Boardwalk from Ana to Bea; $500 from Bea to Ana"
    assert offered in table.text(page)
    assert [label for label, on in table.buttons(page) if on][:2] == ["Accept", "Decline"]
    spanish = table.page(f"{table.phone(1)}?lang=es", app.test_client())
    assert [label for label, _ in table.buttons(spanish)][:2] == ["Aceptar", "Rechazar"]


def test_x1_the_proposer_s_phone_shows_the_open_offer_and_withdraws_it(table, app):
    """X1: a trade offered from a phone waits on the proposer's phone too, with the deal as
    it would be done and a way to withdraw it; withdrawn, Bea has nothing to answer."""
    table.new_game()
    table.own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    table.do("trade_offer", **trade)
    ana = app.test_client()
    page = table.page(table.phone(0), ana)
    assert "Your offer to Bea waits for an answer" in table.text(page)
    assert "Ana trades with Bea; Boardwalk from Ana to Bea; $500 from Bea to Ana" in page
    table.press(page, "Withdraw the offer", ana)
    assert table.state().offers == []
    assert "Ana withdraws the trade offered to Bea" in table.read(table.phone(0), ana)
    assert "Trade offered to you" not in table.read(table.phone(1), app.test_client())
    assert "Your offer to Bea" not in table.read(table.phone(0), ana)
    assert table.cash() == [1500 - BOARDWALK_PRICE, 1500]


def test_the_payment_preview_has_the_players_name_and_balance_on_top(table, app):
    table.new_game()
    page = table.page(f"{table.phone(1)}/preview?to=0&amount=25", app.test_client())
    header = re.search(r'<header class="bar phone-bar".*?</header>', page, re.S).group(0)
    assert table.text(header) == "← Bea $1,500"
    assert "Bea pays Ana $25" in [label for label, _ in table.buttons(page)]


def test_the_players_history_has_a_header_and_a_time_on_each_line(table, app):
    table.new_game()
    table.own(1, READING)
    phone = app.test_client()
    page = table.page(f"{table.phone(1)}/history", phone)
    header = re.search(r'<header class="bar phone-bar".*?</header>', page, re.S).group(0)
    assert table.text(header) == "← Bea $1,300"
    line = re.search(r"<li[^>]*>.*?Bea buys Reading Railroad.*?</li>", page, re.S).group(0)
    assert re.search(r'<time datetime="[^"]+" data-local="time">\d\d:\d\d UTC</time>', line)
    main = table.page(table.phone(1), phone)
    assert re.search(r"Bea buys Reading Railroad for \$200 <span class=\"at\"><time", main)


def test_deed_chips_read_in_black_or_white_whichever_contrasts_and_mark_railroads(table):
    table.new_game()
    table.own(0, ORIENTAL, READING, ELECTRIC, WATER)  # light blue, a railroad, two utilities
    page = table.page(f"/g/{table.id}/")
    chips = re.findall(
        r'<span class="deed-chip[^"]*" style="([^"]*)" title="([^"]*)">(.*?)</span>', page, re.S
    )
    by_name = {title: (style, inside) for style, title, inside in chips}
    assert "color: #000" in by_name["Oriental Avenue"][0]  # dark ink on light blue
    assert "color: #fff" in by_name["Reading Railroad"][0]  # white ink on near-black
    icons = {
        name: re.search(r'<path d="([^"]+)"', by_name[name][1]).group(1)
        for name in ("Reading Railroad", "Electric Company", "Water Works")
    }
    assert len(set(icons.values())) == 3  # three different pictures
