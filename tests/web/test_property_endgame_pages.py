"""Pages for buildings, mortgages, trades, auctions, bankruptcy and results (test client)."""

from __future__ import annotations

import json
import re

from tablebank.models import Game, db
from tablebank.rules import HOTEL, GameState

from ..support import ALL_EDITIONS
from .test_pages import new_game

US = ALL_EDITIONS["us-classic"]
GREENS = list(US.groups["green"].deeds)


def do(client, game_id, kind, **payload):
    data = {"kind": kind, "payload": json.dumps(payload)}
    return client.post(f"/g/{game_id}/do", data=data)


def state(app, game_id) -> GameState:
    with app.app_context():
        return GameState.from_dict(db.session.get(Game, game_id).state)


def rich_with_greens(client, game_id):
    do(client, game_id, "bank_pay", player=0, amount=10_000)
    for deed in GREENS:
        do(client, game_id, "buy", player=0, deed=deed)


def test_b1_build_page_offers_presets_with_cost_and_supply_before_the_tap(client, app):
    game_id = new_game(client)
    rich_with_greens(client, game_id)
    page = client.get(f"/g/{game_id}/build?player=0").text
    assert "Bank: 32 houses · 12 hotels" in page
    assert "3 houses on each" in page
    hotels = 3 * 5 * US.groups["green"].house_price
    assert f"Ana pays the bank ${hotels:,} to build; a hotel on Pacific Avenue" in page
    assert "the bank has 32 houses and 9 hotels left" in page
    before = state(app, game_id).players[0].cash
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL] * 3)
    assert before - state(app, game_id).players[0].cash == hotels


def test_b6_build_page_says_why_a_hotel_cannot_be_broken_down(client, app):
    game_id = new_game(client, ("Ana", "Bea"))
    rich_with_greens(client, game_id)
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL] * 3)
    do(client, game_id, "bank_pay", player=1, amount=20_000)
    for group in ("orange", "red", "yellow"):
        for deed in US.groups[group].deeds:
            do(client, game_id, "buy", player=1, deed=deed)
        do(client, game_id, "build", player=1, group=group, levels=[4, 4, 4])
    assert state(app, game_id).houses == 32 - 36 + 12 == 8
    page = client.get(f"/g/{game_id}/build?player=0").text
    assert "Breaking the hotels down needs 12 houses and the bank has 8" in page
    assert "Ana sells to the bank for $1,500; no buildings on Pacific Avenue" in page


def test_m1_mortgage_page_lists_the_buildings_sold_first(client, app):
    game_id = new_game(client)
    rich_with_greens(client, game_id)
    do(client, game_id, "build", player=0, group="green", levels=[1, 1, 1])
    page = client.get(f"/g/{game_id}/mortgages?player=0").text
    assert "Ana sells the Green buildings for $300; Ana mortgages Pacific Avenue for $150" in page


def test_m3_mortgaged_deed_offers_the_lift_at_value_plus_ten_percent(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=37)
    do(client, game_id, "mortgage", player=0, deed=37)
    page = client.get(f"/g/{game_id}/mortgages?player=0").text
    assert "Ana lifts the mortgage on Park Place for $193" in page


def test_m4_trade_page_shows_cash_before_and_after_and_asks_about_each_mortgage(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=37)
    do(client, game_id, "mortgage", player=0, deed=37)
    query = "player=0&partner=1&give_deeds=37&cash=100&cash_from=partner"
    page = client.get(f"/g/{game_id}/trade?{query}").text
    assert "Lift Park Place now ($193)" in page
    assert "Bea pays $18 interest and keeps Park Place mortgaged" in page
    rows = re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", page)
    cash_ana = 1500 - 350 + 175
    assert rows == [
        ("Ana", f"${cash_ana:,}", f"${cash_ana + 100:,}"),
        ("Bea", "$1,500", f"${1500 - 100 - 18:,}"),
    ]
    lifted = client.get(f"/g/{game_id}/trade?{query}&lift=37").text
    assert "Bea lifts Park Place now for $193" in lifted


def test_p1_declining_opens_the_auction_and_the_winner_pays_the_bank(client, app):
    game_id = new_game(client)
    response = do(client, game_id, "decline", player=0, deed=39)
    assert response.headers["Location"].endswith(f"/g/{game_id}/auction")
    page = client.get(f"/g/{game_id}/auction?player=1&amount=120").text
    assert "Bea bids $120 for Boardwalk" in page
    do(client, game_id, "bid", player=1, amount=120)
    assert "Highest $120 by Bea" in client.get(f"/g/{game_id}/auction").text
    assert "Auction: Boardwalk · $120 by Bea" in client.get(f"/g/{game_id}/").text
    do(client, game_id, "auction_close")
    after = state(app, game_id)
    assert after.deeds[39].owner == 1 and after.players[1].cash == 1380


def test_k1_bankruptcy_page_shows_what_could_be_raised_before_declaring(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=1, deed=39)
    page = client.get(f"/g/{game_id}/bankrupt?player=1&owed=1200&creditor=0").text
    assert "$1,300" in page  # 1,100 cash + 200 mortgage value
    assert "Bea could still raise $1,300 by selling and mortgaging" in page
    page = client.get(f"/g/{game_id}/bankrupt?player=1&owed=2000&creditor=0").text
    assert "Bea is bankrupt, owing $2,000 to Ana" in page


def test_sg1_a_short_game_starts_by_dealing_two_deeds_each(client, app):
    response = client.post(
        "/new",
        data={"edition": "us-classic", "mode": "short", "name0": "Ana", "name1": "Bea"},
    )
    game_id = response.headers["Location"].split("/")[2]
    assert response.headers["Location"].endswith("/deal")
    page = client.get(f"/g/{game_id}/deal").text
    assert "Deal at random" in page
    do(client, game_id, "deal", hands=[[39, 37], [1, 3]])
    after = state(app, game_id)
    assert after.players[0].cash == 1500 - 400 - 350
    assert after.players[1].cash == 1500 - 60 - 60


def test_sg4_results_rank_the_players_with_their_breakdown_and_a_chart(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=1, deed=39)
    do(client, game_id, "end_game")
    page = client.get(f"/g/{game_id}/results").text
    first = page.index("Bea")
    assert first < page.index("Ana")
    assert "$1,500" in page  # Bea: 1,100 cash + 400 deed
    assert page.count("<polyline") == 2


def test_tl1_time_limited_game_shows_the_countdown(client):
    response = client.post(
        "/new",
        data={
            "edition": "us-classic",
            "mode": "timed",
            "ends_at": "2099-01-01T20:00",
            "name0": "Ana",
            "name1": "Bea",
        },
    )
    game_id = response.headers["Location"].split("/")[2]
    page = client.get(f"/g/{game_id}/").text
    assert 'data-ends="2099-01-01T20:00:00+00:00"' in page  # no zone given: UTC


def test_tl1_a_game_past_its_end_time_ends_and_refuses_actions(client, app):
    response = client.post(
        "/new",
        data={
            "edition": "us-classic",
            "mode": "timed",
            "ends_at": "2001-01-01T20:00",
            "name0": "Ana",
            "name1": "Bea",
        },
    )
    game_id = response.headers["Location"].split("/")[2]
    do(client, game_id, "pass_go", player=0)
    after = state(app, game_id)
    assert after.ended and after.players[0].cash == 1500
    assert "The game has ended: results" in client.get(f"/g/{game_id}/").text


def test_h1_dashboard_shows_the_pot_and_pays_it_out_in_one_tap(client, app):
    game_id = new_game(client, free_parking_jackpot="on")
    do(client, game_id, "tax", player=0, space=4)
    assert "Free Parking pot <strong>$200</strong>" in client.get(f"/g/{game_id}/").text
    page = client.get(f"/g/{game_id}/pick/parking_pot").text
    assert "Bea takes the Free Parking pot of $200" in page
    do(client, game_id, "parking_pot", player=1)
    assert state(app, game_id).players[1].cash == 1700


def test_m1_b1_dashboard_shows_each_deed_with_buildings_and_mortgage_at_a_glance(client):
    game_id = new_game(client)
    rich_with_greens(client, game_id)
    do(client, game_id, "build", player=0, group="green", levels=[3, 3, 3])
    do(client, game_id, "buy", player=0, deed=5)
    do(client, game_id, "mortgage", player=0, deed=5)
    page = client.get(f"/g/{game_id}/").text
    green = US.groups["green"].colour
    assert page.count(f'class="deed-chip" style="--c: {green}; color: #000"') == 3
    assert re.search(r'class="deed-chip"[^>]*title="Pacific Avenue">3</span>', page)
    assert 'class="deed-chip mortgaged"' in page and "Reading Railroad · mortgaged" in page


def test_b5_no_building_auction_is_offered_without_a_shortage(client):
    """Issue 22: with 32 houses in the bank there is nothing to auction (the shortage case
    is in tests/web/test_shortage.py)."""
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/build").text
    assert "The bank auctions a house" not in page and "The bank auctions a hotel" not in page
    assert "No shortage now" in page


def test_k2_m4_the_creditor_chooses_lift_now_or_later_for_each_mortgaged_deed(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=1, deed=5)
    do(client, game_id, "mortgage", player=1, deed=5)
    page = client.get(f"/g/{game_id}/bankrupt?player=1&owed=3000&creditor=0").text
    assert "Lift Reading Railroad now ($110)" in page
    assert "Ana pays $10 interest and keeps Reading Railroad mortgaged" in page
    lifted = client.get(f"/g/{game_id}/bankrupt?player=1&owed=3000&creditor=0&lift=5").text
    assert "Ana lifts Reading Railroad now for $110" in lifted
