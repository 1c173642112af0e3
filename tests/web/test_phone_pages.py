"""A player's phone: a trade offer with Accept and Decline, a header with the player's name
and balance on every page away from the main one, and history with times."""

from __future__ import annotations

import re

from tablebank.models import Game, db

from .test_property_pages import BOARDWALK, READING, buttons, do, new_game, text


def tokens(app, game_id) -> list[str]:
    with app.app_context():
        return [p.token for p in db.session.get(Game, game_id).players]


def test_x1_a_trade_offer_on_the_phone_reads_then_says_accept_or_decline(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    do(client, game_id, "trade_offer", **trade)
    page = app.test_client().get(f"/p/{tokens(app, game_id)[1]}").text
    assert "Ana trades with Bea; Boardwalk from Ana to Bea; $500 from Bea to Ana" in text(page)
    assert [label for label, enabled in buttons(page) if enabled][:2] == ["Accept", "Decline"]
    spanish = app.test_client().get(f"/p/{tokens(app, game_id)[1]}?lang=es").text
    assert [label for label, _ in buttons(spanish)][:2] == ["Aceptar", "Rechazar"]


def test_the_payment_preview_has_the_players_name_and_balance_on_top(client, app):
    game_id = new_game(client)
    phone = app.test_client()
    page = phone.get(f"/p/{tokens(app, game_id)[1]}/preview?to=0&amount=25").text
    header = re.search(r'<header class="bar phone-bar".*?</header>', page, re.S).group(0)
    assert text(header) == "← Bea $1,500"
    assert "Bea pays Ana $25" in [label for label, _ in buttons(page)]


def test_the_players_history_has_a_header_and_a_time_on_each_line(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=1, deed=READING)
    phone = app.test_client()
    page = phone.get(f"/p/{tokens(app, game_id)[1]}/history").text
    header = re.search(r'<header class="bar phone-bar".*?</header>', page, re.S).group(0)
    assert text(header) == "← Bea $1,300"
    line = re.search(r"<li[^>]*>.*?Bea buys Reading Railroad.*?</li>", page, re.S).group(0)
    assert re.search(r'<time datetime="[^"]+" data-local="time">\d\d:\d\d UTC</time>', line)
    main = phone.get(f"/p/{tokens(app, game_id)[1]}").text
    assert re.search(r"Bea buys Reading Railroad for \$200 <span class=\"at\"><time", main)


def test_deed_chips_read_in_black_or_white_whichever_contrasts_and_mark_railroads(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=6)  # Oriental Avenue, light blue
    do(client, game_id, "buy", player=0, deed=READING)
    do(client, game_id, "buy", player=0, deed=12)  # Electric Company
    do(client, game_id, "buy", player=0, deed=28)  # Water Works
    page = client.get(f"/g/{game_id}/").text
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
