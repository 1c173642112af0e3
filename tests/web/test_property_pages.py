"""Buildings, mortgages and trades through Flask's test client: the banker's pages (what is
read before the tap, what a tap does) and the JSON API (the same door, the same errors)."""

from __future__ import annotations

import html
import json
import re

import pytest
from tablebank.models import Game, db
from tablebank.rules import HOTEL, GameState

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
GREENS = list(US.groups["green"].deeds)
GREEN_HOUSE = US.groups["green"].house_price
PARK_PLACE, BOARDWALK, READING = 37, 39, 5
COLOURS = ["#e03131", "#1971c2", "#2f9e44"]


# -- helpers -----------------------------------------------------------------------------------


def new_game(client, names=("Ana", "Bea"), mode="classic") -> str:
    form = {"edition": "us-classic", "starting_cash": "1500", "mode": mode}
    form.update({f"name{i}": n for i, n in enumerate(names)})
    form.update({f"colour{i}": c for i, c in enumerate(COLOURS)})
    response = client.post("/new", data=form)
    assert response.status_code == 302, response.text
    return response.headers["Location"].split("/")[2]


def do(client, game_id, kind, **payload):
    """A banker's button: the action's kind and its JSON payload, posted to the one door."""
    response = client.post(f"/g/{game_id}/do", data={"kind": kind, "payload": json.dumps(payload)})
    assert response.status_code == 302
    return response


def history(client, game_id) -> str:
    return html.unescape(client.get(f"/g/{game_id}/history").text)


def state(app, game_id) -> GameState:
    with app.app_context():
        return GameState.from_dict(db.session.get(Game, game_id).state)


def text(page: str) -> str:
    """The page as a person reads it: tags out, entities decoded, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def buttons(page: str) -> list[tuple[str, bool]]:
    """Every button's words, and whether it can be pressed."""
    found = re.findall(r"<button([^>]*)>(.*?)</button>", page, re.S)
    return [(text(words), "disabled" not in attrs) for attrs, words in found]


def button(page: str, words: str) -> bool:
    """Whether the button whose words start with `words` can be pressed (fails if absent)."""
    matches = [enabled for label, enabled in buttons(page) if label.startswith(words)]
    assert matches, f"no button {words!r} in {[b for b, _ in buttons(page)]}"
    return matches[0]


def rich_with(client, game_id, seat, *deeds, cash=10_000):
    do(client, game_id, "bank_pay", player=seat, amount=cash)
    for deed in deeds:
        do(client, game_id, "buy", player=seat, deed=deed)


def short_of_houses(client, game_id):
    """Ana's greens carry hotels; Bea's orange and red groups 4 houses a street and her
    yellows 2, 2, 1: the bank is left with 32 - 24 - 5 = 3 houses."""
    rich_with(client, game_id, 0, *GREENS)
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL] * 3)
    groups = ("orange", "red", "yellow")
    rich_with(client, game_id, 1, *(d for g in groups for d in US.groups[g].deeds), cash=20_000)
    do(client, game_id, "build", player=1, group="orange", levels=[4, 4, 4])
    do(client, game_id, "build", player=1, group="red", levels=[4, 4, 4])
    do(client, game_id, "build", player=1, group="yellow", levels=[2, 2, 1])


# -- buildings ---------------------------------------------------------------------------------


def test_b1_b5_build_page_shows_the_supply_and_each_target_with_its_cost(client, app):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS)
    page = client.get(f"/g/{game_id}/build?player=0").text
    words = text(page)
    assert "Bank: 32 houses · 12 hotels" in words
    assert "A hotel needs 4 houses on every street of the group" in words
    three = 3 * 3 * GREEN_HOUSE
    assert button(page, f"Ana pays the bank ${three:,} to build; 3 houses on Pacific Avenue")
    assert f"3 houses on Pennsylvania Avenue; the bank has {32 - 9} houses and 12 hotels" in words
    hotels = 3 * 5 * GREEN_HOUSE
    assert button(page, f"Ana pays the bank ${hotels:,} to build; a hotel on Pacific Avenue")
    assert "the bank has 32 houses and 9 hotels left" in words


def test_b1_a_player_without_a_whole_group_is_told_why(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=GREENS[0])
    words = text(client.get(f"/g/{game_id}/build?player=0").text)
    assert "Ana holds no whole colour group yet: houses need every street of a group." in words


def test_b2_an_uneven_step_is_refused_on_the_page_with_the_reason(client):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS)
    do(client, game_id, "build", player=0, group="green", levels=[2, 1, 1])
    page = client.get(f"/g/{game_id}/build?player=0").text
    assert not button(page, "Build")  # Pacific +1 would stand two above the others
    assert "Build evenly: no street may be more than one house above another" in text(page)
    assert button(page, f"Ana pays the bank ${GREEN_HOUSE} to build; 2 houses on Pacific Avenue")


def test_b5_a_target_beyond_the_supply_is_refused_with_the_reason(client):
    game_id = new_game(client)
    short_of_houses(client, game_id)
    rich_with(client, game_id, 0, PARK_PLACE, BOARDWALK)
    page = client.get(f"/g/{game_id}/build?player=0").text
    assert "Bank: 3 houses · 9 hotels" in text(page)
    assert "The bank has 3 houses; building this evenly needs 4 of them" in text(page)
    assert button(page, "Ana pays the bank $400 to build; 1 house on Park Place")


def test_b6_when_no_hotel_can_be_broken_down_the_page_offers_selling_them_as_one(client, app):
    game_id = new_game(client)
    short_of_houses(client, game_id)
    page = client.get(f"/g/{game_id}/build?player=0").text
    stuck = text(re.search(r'<div class="stuck".*?</div>\s*</div>', page, re.S).group(0))
    assert stuck.startswith(
        "Breaking the hotels down needs 4 houses and the bank has 3: "
        "sell the hotels as one (to no buildings) instead"
    )
    refund = 3 * 5 * GREEN_HOUSE // 2
    sell = f"Ana sells to the bank for ${refund:,}; no buildings on Pacific Avenue"
    assert sell in stuck and button(page, sell)
    before = state(app, game_id).players[0].cash
    do(client, game_id, "build", player=0, group="green", levels=[0, 0, 0])
    after = state(app, game_id)
    assert after.players[0].cash - before == refund == 1500
    assert (after.houses, after.hotels) == (3, 12)
    assert "stuck" not in client.get(f"/g/{game_id}/build?player=0").text


def test_sg2_short_game_build_page_says_three_houses_make_a_hotel(client, app):
    game_id = new_game(client, mode="short")
    rich_with(client, game_id, 0, *GREENS)
    do(client, game_id, "build", player=0, group="green", levels=[3, 3, 3])
    page = client.get(f"/g/{game_id}/build?player=0").text
    assert "A hotel needs 3 houses on every street of the group" in text(page)
    assert button(page, f"Ana pays the bank ${3 * GREEN_HOUSE} to build; a hotel on Pacific Avenue")


def test_b6_build_and_sell_back_are_logged_in_plain_words_and_undone(client, app):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS)
    start = state(app, game_id).players[0].cash
    do(client, game_id, "build", player=0, group="green", levels=[2, 2, 2])
    do(client, game_id, "build", player=0, group="green", levels=[1, 1, 1])
    assert state(app, game_id).players[0].cash == start - 6 * GREEN_HOUSE + 3 * GREEN_HOUSE // 2
    log = history(client, game_id)
    assert "Ana pays the bank $1,200 to build; 2 houses on Pacific Avenue" in log
    assert "Ana sells to the bank for $300; 1 house on Pacific Avenue" in log
    do(client, game_id, "undo")
    after = state(app, game_id)
    assert after.players[0].cash == start - 6 * GREEN_HOUSE and after.houses == 32 - 6
    undone = r'<li class="undone">\s*<span class="seq">#\d+</span> Ana sells to the bank for \$300'
    assert re.search(undone, history(client, game_id))


# -- mortgages ---------------------------------------------------------------------------------


def test_m1_mortgage_page_shows_the_amount_and_the_buildings_sold_back_first(client, app):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS)
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL] * 3)
    page = client.get(f"/g/{game_id}/mortgages?player=0").text
    assert "Bank: 32 houses · 9 hotels" in text(page)
    sentence = (
        "Ana sells the Green buildings for $1,500; Ana mortgages Pacific Avenue for $150; "
        "3 hotels go back to the bank; the bank has 32 houses and 12 hotels left"
    )
    assert button(page, sentence)
    before = state(app, game_id).players[0].cash
    do(client, game_id, "mortgage", player=0, deed=GREENS[0])
    after = state(app, game_id)
    assert after.players[0].cash - before == 1500 + US.spaces[GREENS[0]].mortgage
    assert after.deeds[GREENS[0]].mortgaged and after.hotels == 12
    assert sentence in history(client, game_id)


def test_m3_mortgaged_deed_offers_its_lift_at_value_plus_ten_percent(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=PARK_PLACE)
    page = client.get(f"/g/{game_id}/mortgages?player=0").text
    assert button(page, "Ana mortgages Park Place for $175")
    do(client, game_id, "mortgage", player=0, deed=PARK_PLACE)
    page = client.get(f"/g/{game_id}/mortgages?player=0").text
    assert button(page, "Ana lifts the mortgage on Park Place for $193")
    do(client, game_id, "lift", player=0, deed=PARK_PLACE)
    assert state(app, game_id).players[0].cash == 1500 - 350 + 175 - 193


def test_m5_a_mortgaged_deed_is_only_lifted_by_its_owner(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=PARK_PLACE)
    do(client, game_id, "mortgage", player=0, deed=PARK_PLACE)
    page = client.get(f"/g/{game_id}/mortgages?player=1").text
    assert "Bea holds no deeds." in text(page)
    do(client, game_id, "lift", player=1, deed=PARK_PLACE)
    assert state(app, game_id).deeds[PARK_PLACE].mortgaged
    assert "Park Place is not Bea&#39;s deed" in client.get(f"/g/{game_id}/").text


# -- trades ------------------------------------------------------------------------------------


def test_x1_m4_trade_page_asks_deed_by_deed_and_shows_cash_before_and_after(client, app):
    game_id = new_game(client)
    for deed in (PARK_PLACE, READING):
        do(client, game_id, "buy", player=0, deed=deed)
        do(client, game_id, "mortgage", player=0, deed=deed)
    query = "player=0&partner=1&give_deeds=37&give_deeds=5&cash=100&cash_from=partner"
    page = client.get(f"/g/{game_id}/trade?{query}").text
    words = text(page)
    assert "Bank: 32 houses · 12 hotels" in words
    assert "Lift Park Place now ($193)" in words and "Lift Reading Railroad now ($110)" in words
    assert len(re.findall(r'name="lift"', page)) == 2
    ana = 1500 - 350 - 200 + 175 + 100
    rows = re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", page)
    assert rows == [("Ana", f"${ana:,}", f"${ana + 100:,}"), ("Bea", "$1,500", "$1,372")]
    assert 1500 - 100 - 18 - 10 == 1372
    assert button(page, "Ana trades with Bea; Park Place from Ana to Bea")
    lifted = client.get(f"/g/{game_id}/trade?{query}&lift=5").text
    assert "Bea lifts Reading Railroad now for $110" in text(lifted)
    assert "Bea pays $18 interest and keeps Park Place mortgaged" in text(lifted)
    payload = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [37, 5]},
        "take": {"cash": 100},
        "lift": [5],
    }
    do(client, game_id, "trade", **payload)
    after = state(app, game_id)
    assert [p.cash for p in after.players] == [ana + 100, 1500 - 100 - 18 - 110]
    assert after.deeds[PARK_PLACE].mortgaged and not after.deeds[READING].mortgaged
    assert (after.deeds[PARK_PLACE].owner, after.deeds[READING].owner) == (1, 1)


def test_x1_trade_page_refuses_a_built_group_with_the_reason(client):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS)
    do(client, game_id, "build", player=0, group="green", levels=[1, 1, 1])
    page = client.get(
        f"/g/{game_id}/trade?player=0&partner=1&give_deeds=31&cash=500&cash_from=partner"
    ).text
    assert "built" in text(page)
    assert not button(page, "Trade")
    assert "The Green group has buildings: sell them to the bank first" in text(page)
    assert "Cash now" not in page


def test_x1_trade_page_refuses_a_side_short_of_cash(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=BOARDWALK)
    page = client.get(
        f"/g/{game_id}/trade?player=0&partner=1&give_deeds=39&cash=1600&cash_from=partner"
    ).text
    assert not button(page, "Trade")
    assert "Bea cannot pay $1,600: $100 short. Cash $1,500" in text(page)


def test_x1_a_jail_free_card_is_sold_from_the_trade_page(client, app):
    game_id = new_game(client)
    do(client, game_id, "card", player=1, card="chest-5")
    page = client.get(f"/g/{game_id}/trade?player=0&partner=1&take_jail_free=1&cash=30").text
    sentence = (
        "Ana trades with Bea; $30 from Ana to Bea; 1 Get Out of Jail Free card from Bea to Ana"
    )
    assert button(page, sentence)
    do(client, game_id, "trade", player=0, partner=1, give={"cash": 30}, take={"jail_free": 1})
    after = state(app, game_id)
    assert after.players[0].jail_free == ["chest"] and after.players[1].cash == 1530


# -- at a glance -------------------------------------------------------------------------------


def test_m2_b1_player_page_shows_owner_colour_buildings_and_mortgages(client, app):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS, PARK_PLACE, BOARDWALK)
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL, HOTEL, 4])
    do(client, game_id, "mortgage", player=0, deed=PARK_PLACE)
    page = client.get(f"/g/{game_id}/player/0").text
    rows = re.findall(r'<li class="(\w*)" style="border-left-color: (#\w+)">(.*?)</li>', page, re.S)
    seen = {text(body).split(" rent now")[0]: (cls, colour) for cls, colour, body in rows}
    assert seen == {
        "Pacific Avenue hotel": ("", COLOURS[0]),
        "North Carolina Avenue hotel": ("", COLOURS[0]),
        "Pennsylvania Avenue 4 houses": ("", COLOURS[0]),
        "Park Place mortgaged": ("mortgaged", COLOURS[0]),
        "Boardwalk": ("", COLOURS[0]),
    }
    words = text(page)
    assert "Bank: 28 houses · 10 hotels" in words
    assert "Boardwalk rent now $100" in words  # P3: doubled, Park Place mortgaged or not
    assert "Park Place mortgaged rent now $0" in words
    assert page.count('class="house-chip"') == 4 and page.count('class="hotel-chip"') == 2


def test_dashboard_balance_cards_show_each_deed_with_buildings_and_mortgage(client):
    game_id = new_game(client)
    rich_with(client, game_id, 0, *GREENS, READING)
    do(client, game_id, "build", player=0, group="green", levels=[HOTEL, HOTEL, 4])
    do(client, game_id, "mortgage", player=0, deed=READING)
    page = client.get(f"/g/{game_id}/").text
    card = re.search(r'<a class="balance".*?</a>', page, re.S).group(0)
    assert f"border-color: {COLOURS[0]}" in card
    chips = re.findall(r'<span class="deed-chip([^"]*)"[^>]*title="([^"]+)">([^<]*)<', card)
    assert chips == [
        (" mortgaged", "Reading Railroad · mortgaged", ""),
        ("", "Pacific Avenue", "H"),
        ("", "North Carolina Avenue", "H"),
        ("", "Pennsylvania Avenue", "4"),
    ]
    assert "Bank: 28 houses · 10 hotels" in text(page)


# -- the JSON API --------------------------------------------------------------------------------


@pytest.fixture
def api(client):
    response = client.post("/api/games", json=setup_of(names=("Ana", "Bea")))
    assert response.status_code == 201
    body = response.get_json()
    game_id, headers = body["id"], {"X-Banker-Key": body["banker_key"]}

    def act(kind, status=201, **fields):
        response = client.post(
            f"/api/games/{game_id}/actions", json={"kind": kind, **fields}, headers=headers
        )
        assert response.status_code == status, response.get_json()
        return response.get_json()

    act.game_id, act.headers = game_id, headers
    return act


def test_b1_b6_api_builds_and_sells_with_the_sentence_and_the_supply(api):
    api("bank_pay", player=0, amount=10_000)
    for deed in GREENS:
        api("buy", player=0, deed=deed)
    built = api("build", player=0, group="green", levels=[HOTEL] * 3)
    assert built["text"].startswith("Ana pays the bank $3,000 to build; a hotel on Pacific Avenue")
    assert built["movements"] == [{"payer": 0, "payee": None, "amount": 3000}]
    assert (built["game"]["houses"], built["game"]["hotels"]) == (32, 9)
    deeds = {d["space"]: d for d in built["game"]["deeds"]}
    assert deeds[GREENS[0]]["hotel"] and deeds[GREENS[0]]["owner"] == 0
    sold = api("build", player=0, group="green", levels=[0, 0, 0])
    assert sold["movements"] == [{"payer": None, "payee": 0, "amount": 1500}]
    prices = sum(US.spaces[i].price for i in GREENS)
    assert prices == 920
    assert sold["game"]["players"][0]["cash"] == 10_000 + 1500 - prices - 3000 + 1500


def test_b2_b5_b6_m5_x1_api_refuses_with_the_same_rules_and_words(client, api):
    api("bank_pay", player=0, amount=10_000)
    for deed in (*GREENS, PARK_PLACE):
        api("buy", player=0, deed=deed)
    uneven = api("build", 422, player=0, group="green", levels=[2, 0, 0])
    assert uneven == {
        "error": "Build evenly: no street may be more than one house above another",
        "rule": "B2",
    }
    assert api("build", 422, player=1, group="green", levels=[1, 1, 1])["rule"] == "B1"
    assert api("build", 400, player=0, group="green", levels=[9, 9, 9])["rule"] == "input"
    api("build", player=0, group="green", levels=[HOTEL] * 3)
    api("bank_pay", player=1, amount=20_000)
    for group in ("orange", "red", "yellow"):
        for deed in US.groups[group].deeds:
            api("buy", player=1, deed=deed)
    api("build", player=1, group="orange", levels=[4, 4, 4])
    api("build", player=1, group="red", levels=[4, 4, 4])
    short = api("build", 422, player=1, group="yellow", levels=[4, 4, 4])
    assert (short["rule"], short["houses"], short["needed"]) == ("B5", 8, 12)
    api("build", player=1, group="yellow", levels=[2, 2, 1])
    broken = api("build", 422, player=0, group="green", levels=[4, HOTEL, HOTEL])
    assert (broken["rule"], broken["needed"], broken["houses"]) == ("B6", 4, 3)
    assert api("lift", 422, player=1, deed=PARK_PLACE)["rule"] == "M5"
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREENS[0]]}, "take": {"cash": 10}}
    refused = api("trade", 422, **trade)
    assert (refused["rule"], refused["error"]) == (
        "X1",
        "The Green group has buildings: sell them to the bank first",
    )
    preview = client.post(
        f"/api/games/{api.game_id}/preview",
        json={"kind": "build", "player": 0, "group": "green", "levels": [4, HOTEL, HOTEL]},
        headers=api.headers,
    )
    assert preview.status_code == 422 and preview.get_json()["rule"] == "B6"


def test_m1_m4_x1_api_trade_and_mortgages_are_in_the_history_and_undone(client, api):
    api("buy", player=0, deed=PARK_PLACE)
    mortgaged = api("mortgage", player=0, deed=PARK_PLACE)
    assert mortgaged["text"] == "Ana mortgages Park Place for $175"
    trade = api("trade", player=0, partner=1, give={"deeds": [PARK_PLACE]}, take={"cash": 100})
    assert trade["movements"] == [
        {"payer": 1, "payee": 0, "amount": 100},
        {"payer": 1, "payee": None, "amount": 18},
    ]
    assert trade["game"]["players"][1]["cash"] == 1500 - 100 - 18
    lifted = api("lift", player=1, deed=PARK_PLACE)
    assert lifted["text"] == "Bea lifts the mortgage on Park Place for $193"
    assert lifted["game"]["players"][1]["cash"] == 1500 - 100 - 18 - 193
    api("undo")
    game = client.get(f"/api/games/{api.game_id}", headers=api.headers).get_json()
    assert game["players"][1]["cash"] == 1382
    assert next(d for d in game["deeds"] if d["space"] == PARK_PLACE)["mortgaged"]
    history = client.get(f"/api/games/{api.game_id}/actions", headers=api.headers).get_json()
    said = [(e["kind"], e["text"], e["undone"]) for e in history]
    assert said[:3] == [
        ("undo", "Undo: Bea lifts the mortgage on Park Place for $193", False),
        ("lift", "Bea lifts the mortgage on Park Place for $193", True),
        (
            "trade",
            "Ana trades with Bea; Park Place from Ana to Bea; $100 from Bea to Ana; "
            "Bea pays $18 interest and keeps Park Place mortgaged",
            False,
        ),
    ]


def test_m2_api_charges_no_rent_on_a_mortgaged_deed_and_double_on_the_rest(api):
    api("buy", player=0, deed=PARK_PLACE)
    api("buy", player=0, deed=BOARDWALK)
    api("mortgage", player=0, deed=PARK_PLACE)
    refused = api("rent", 422, player=1, deed=PARK_PLACE)
    assert (refused["rule"], refused["error"]) == ("M2", "Park Place is mortgaged: no rent")
    rent = api("rent", player=1, deed=BOARDWALK)
    assert rent["movements"] == [
        {"payer": 1, "payee": 0, "amount": 2 * US.spaces[BOARDWALK].rent[0]}
    ]


def test_property_actions_need_the_banker_s_key(client, api):
    response = client.post(
        f"/api/games/{api.game_id}/actions",
        json={"kind": "build", "player": 0, "group": "green", "levels": [1, 1, 1]},
    )
    assert response.status_code == 403
    assert client.get(f"/g/{api.game_id}/build?player=0").status_code == 403
