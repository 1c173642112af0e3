"""Buildings, mortgages and trades through Flask's test client: the banker's pages (what is
read before the tap, what a tap does) and the JSON API (the same door, the same errors).
Deeds are bought at landings (the `table` fixture's `own`), cash comes from the bank."""

from __future__ import annotations

import html
import re

from tablebank.rules import HOTEL

from ..support import BOARDWALK, PARK_PLACE, READING, US, card_of

GREENS = list(US.groups["green"].deeds)
GREEN_HOUSE = US.groups["green"].house_price
COLOURS = ["#e03131", "#1971c2", "#2f9e44"]
CHEST = 17  # Community Chest, 7 past Jail


# -- helpers -----------------------------------------------------------------------------------


def history(table) -> str:
    return html.unescape(table.page(f"/g/{table.id}/history"))


def rich_with(table, seat, *deeds, cash=10_000):
    table.do("bank_pay", player=seat, amount=cash)
    table.own(seat, *deeds)


def short_of_houses(table):
    """Ana's greens carry hotels; Bea's orange and red groups 4 houses a street and her
    yellows 2, 2, 1: the bank is left with 32 - 24 - 5 = 3 houses."""
    rich_with(table, 0, *GREENS)
    table.do("build", player=0, group="green", levels=[HOTEL] * 3)
    groups = ("orange", "red", "yellow")
    rich_with(table, 1, *(d for g in groups for d in US.groups[g].deeds), cash=20_000)
    table.do("build", player=1, group="orange", levels=[4, 4, 4])
    table.do("build", player=1, group="red", levels=[4, 4, 4])
    table.do("build", player=1, group="yellow", levels=[2, 2, 1])


# -- buildings ---------------------------------------------------------------------------------


def test_b1_b5_build_page_shows_the_supply_and_each_target_with_its_cost(table):
    table.new_game()
    rich_with(table, 0, *GREENS)
    page = table.page(f"/g/{table.id}/build?player=0")
    words = table.text(page)
    assert "Bank: 32 houses · 12 hotels" in words
    assert "A hotel needs 4 houses on every street of the group" in words
    three = 3 * 3 * GREEN_HOUSE
    assert table.button(page, f"Ana pays the bank ${three:,} to build; 3 houses on Pacific Avenue")
    assert f"3 houses on Pennsylvania Avenue; the bank has {32 - 9} houses and 12 hotels" in words
    hotels = 3 * 5 * GREEN_HOUSE
    assert table.button(page, f"Ana pays the bank ${hotels:,} to build; a hotel on Pacific Avenue")
    assert "the bank has 32 houses and 9 hotels left" in words


def test_b1_a_player_without_a_whole_group_is_told_why(table):
    table.new_game()
    table.own(0, GREENS[0])
    words = table.text(table.page(f"/g/{table.id}/build?player=0"))
    assert "Ana holds no whole colour group yet: houses need every street of a group." in words


def test_b2_an_uneven_step_is_refused_on_the_page_with_the_reason(table):
    table.new_game()
    rich_with(table, 0, *GREENS)
    table.do("build", player=0, group="green", levels=[2, 1, 1])
    page = table.page(f"/g/{table.id}/build?player=0")
    assert not table.button(page, "Build")  # Pacific +1 would stand two above the others
    assert "Build evenly: no street may be more than one house above another" in table.text(page)
    assert table.button(
        page, f"Ana pays the bank ${GREEN_HOUSE} to build; 2 houses on Pacific Avenue"
    )


def test_b5_a_target_beyond_the_supply_is_refused_with_the_reason(table):
    table.new_game()
    short_of_houses(table)
    rich_with(table, 0, PARK_PLACE, BOARDWALK)
    page = table.page(f"/g/{table.id}/build?player=0")
    assert "Bank: 3 houses · 9 hotels" in table.text(page)
    assert "The bank has 3 houses; building this evenly needs 4 of them" in table.text(page)
    assert table.button(page, "Ana pays the bank $400 to build; 1 house on Park Place")


def test_b6_when_no_hotel_can_be_broken_down_the_page_offers_selling_them_as_one(table):
    table.new_game()
    short_of_houses(table)
    page = table.page(f"/g/{table.id}/build?player=0")
    stuck = table.text(re.search(r'<div class="stuck".*?</div>\s*</div>', page, re.S).group(0))
    assert stuck.startswith(
        "Breaking the hotels down needs 4 houses and the bank has 3: "
        "sell the hotels as one (to no buildings) instead"
    )
    refund = 3 * 5 * GREEN_HOUSE // 2
    sell = f"Ana sells to the bank for ${refund:,}; no buildings on Pacific Avenue"
    assert sell in stuck and table.button(page, sell)
    before = table.state().players[0].cash
    table.do("build", player=0, group="green", levels=[0, 0, 0])
    after = table.state()
    assert after.players[0].cash - before == refund == 1500
    assert (after.houses, after.hotels) == (3, 12)
    assert "stuck" not in table.page(f"/g/{table.id}/build?player=0")


def test_sg2_short_game_build_page_says_three_houses_make_a_hotel(table):
    table.new_game(mode="short")
    table.do("deal", hands=[GREENS[:2], [READING, BOARDWALK]])  # SG1: two deeds each
    rich_with(table, 0, GREENS[2])
    table.do("build", player=0, group="green", levels=[3, 3, 3])
    page = table.page(f"/g/{table.id}/build?player=0")
    assert "A hotel needs 3 houses on every street of the group" in table.text(page)
    assert table.button(
        page, f"Ana pays the bank ${3 * GREEN_HOUSE} to build; a hotel on Pacific Avenue"
    )


def test_b6_build_and_sell_back_are_logged_in_plain_words_and_undone(table):
    table.new_game()
    rich_with(table, 0, *GREENS)
    start = table.state().players[0].cash
    table.do("build", player=0, group="green", levels=[2, 2, 2])
    table.do("build", player=0, group="green", levels=[1, 1, 1])
    assert table.state().players[0].cash == start - 6 * GREEN_HOUSE + 3 * GREEN_HOUSE // 2
    log = history(table)
    assert "Ana pays the bank $1,200 to build; 2 houses on Pacific Avenue" in log
    assert "Ana sells to the bank for $300; 1 house on Pacific Avenue" in log
    table.do("undo")
    after = table.state()
    assert after.players[0].cash == start - 6 * GREEN_HOUSE and after.houses == 32 - 6
    undone = r'<li class="undone">\s*<span class="seq">#\d+</span> Ana sells to the bank for \$300'
    assert re.search(undone, history(table))


# -- mortgages ---------------------------------------------------------------------------------


def test_m1_mortgage_page_shows_the_amount_and_the_buildings_sold_back_first(table):
    table.new_game()
    rich_with(table, 0, *GREENS)
    table.do("build", player=0, group="green", levels=[HOTEL] * 3)
    page = table.page(f"/g/{table.id}/mortgages?player=0")
    assert "Bank: 32 houses · 9 hotels" in table.text(page)
    sentence = (
        "Ana sells the Green buildings for $1,500; Ana mortgages Pacific Avenue for $150; "
        "3 hotels go back to the bank; the bank has 32 houses and 12 hotels left"
    )
    assert table.button(page, sentence)
    before = table.state().players[0].cash
    table.do("mortgage", player=0, deed=GREENS[0])
    after = table.state()
    assert after.players[0].cash - before == 1500 + US.spaces[GREENS[0]].mortgage
    assert after.deeds[GREENS[0]].mortgaged and after.hotels == 12
    assert sentence in history(table)


def test_m3_mortgaged_deed_offers_its_lift_at_value_plus_ten_percent(table):
    table.new_game()
    table.own(0, PARK_PLACE)
    page = table.page(f"/g/{table.id}/mortgages?player=0")
    assert table.button(page, "Ana mortgages Park Place for $175")
    table.do("mortgage", player=0, deed=PARK_PLACE)
    page = table.page(f"/g/{table.id}/mortgages?player=0")
    assert table.button(page, "Ana lifts the mortgage on Park Place for $193")
    table.do("lift", player=0, deed=PARK_PLACE)
    assert table.state().players[0].cash == 1500 - 350 + 175 - 193


def test_m5_a_mortgaged_deed_is_only_lifted_by_its_owner(table):
    table.new_game()
    table.own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    page = table.page(f"/g/{table.id}/mortgages?player=1")
    assert "Bea holds no deeds." in table.text(page)
    table.do("lift", player=1, deed=PARK_PLACE)
    assert table.state().deeds[PARK_PLACE].mortgaged
    assert "Park Place is not Bea&#39;s deed" in table.page(f"/g/{table.id}/")


# -- trades ------------------------------------------------------------------------------------


def test_x1_m4_trade_page_asks_deed_by_deed_and_shows_cash_before_and_after(table):
    table.new_game()
    for deed in (PARK_PLACE, READING):
        table.own(0, deed)
        table.do("mortgage", player=0, deed=deed)
    query = "player=0&partner=1&give_deeds=37&give_deeds=5&cash=100&cash_from=partner"
    page = table.page(f"/g/{table.id}/trade?{query}")
    words = table.text(page)
    assert "Bank: 32 houses · 12 hotels" in words
    assert "Lift Park Place now ($193)" in words and "Lift Reading Railroad now ($110)" in words
    assert len(re.findall(r'name="lift"', page)) == 2
    ana = 1500 - 350 - 200 + 175 + 100
    rows = re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", page)
    assert rows == [("Ana", f"${ana:,}", f"${ana + 100:,}"), ("Bea", "$1,500", "$1,372")]
    assert 1500 - 100 - 18 - 10 == 1372
    assert table.button(page, "Ana trades with Bea; Park Place from Ana to Bea")
    lifted = table.page(f"/g/{table.id}/trade?{query}&lift=5")
    assert "Bea lifts Reading Railroad now for $110" in table.text(lifted)
    assert "Bea pays $18 interest and keeps Park Place mortgaged" in table.text(lifted)
    payload = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [37, 5]},
        "take": {"cash": 100},
        "lift": [5],
    }
    table.do("trade", **payload)
    after = table.state()
    assert [p.cash for p in after.players] == [ana + 100, 1500 - 100 - 18 - 110]
    assert after.deeds[PARK_PLACE].mortgaged and not after.deeds[READING].mortgaged
    assert (after.deeds[PARK_PLACE].owner, after.deeds[READING].owner) == (1, 1)


def test_x1_trade_page_refuses_a_built_group_with_the_reason(table):
    table.new_game()
    rich_with(table, 0, *GREENS)
    table.do("build", player=0, group="green", levels=[1, 1, 1])
    page = table.page(
        f"/g/{table.id}/trade?player=0&partner=1&give_deeds=31&cash=500&cash_from=partner"
    )
    assert "built" in table.text(page)
    assert not table.button(page, "Trade")
    assert "The Green group has buildings: sell them to the bank first" in table.text(page)
    assert "Cash now" not in page


def test_x1_trade_page_refuses_a_side_short_of_cash(table):
    table.new_game()
    table.own(0, BOARDWALK)
    page = table.page(
        f"/g/{table.id}/trade?player=0&partner=1&give_deeds=39&cash=1600&cash_from=partner"
    )
    assert not table.button(page, "Trade")
    assert "Bea cannot pay $1,600: $100 short. Cash $1,500" in table.text(page)


def test_x1_a_jail_free_card_is_sold_from_the_trade_page(table):
    table.new_game()
    jail_free = card_of(US, "jail_free", deck="chest")
    table.throws_onto(1, CHEST, 7, {"kind": "card", "card": jail_free.id})
    page = table.page(f"/g/{table.id}/trade?player=0&partner=1&take_jail_free=1&cash=30")
    sentence = (
        "Ana trades with Bea; $30 from Ana to Bea; 1 Get Out of Jail Free card from Bea to Ana"
    )
    assert table.button(page, sentence)
    table.do("trade", player=0, partner=1, give={"cash": 30}, take={"jail_free": 1})
    after = table.state()
    assert after.players[0].jail_free == ["chest"] and after.players[1].cash == 1530


# -- at a glance -------------------------------------------------------------------------------


def test_m2_b1_player_page_shows_owner_colour_buildings_and_mortgages(table):
    table.new_game()
    rich_with(table, 0, *GREENS, PARK_PLACE, BOARDWALK)
    table.do("build", player=0, group="green", levels=[HOTEL, HOTEL, 4])
    table.do("mortgage", player=0, deed=PARK_PLACE)
    page = table.page(f"/g/{table.id}/player/0")
    rows = re.findall(r'<li class="(\w*)" style="border-left-color: (#\w+)">(.*?)</li>', page, re.S)
    seen = {table.text(body).split(" rent now")[0]: (cls, colour) for cls, colour, body in rows}
    assert seen == {
        "Pacific Avenue hotel": ("", COLOURS[0]),
        "North Carolina Avenue hotel": ("", COLOURS[0]),
        "Pennsylvania Avenue 4 houses": ("", COLOURS[0]),
        "Park Place mortgaged": ("mortgaged", COLOURS[0]),
        "Boardwalk": ("", COLOURS[0]),
    }
    words = table.text(page)
    assert "Bank: 28 houses · 10 hotels" in words
    assert "Boardwalk rent now $100" in words  # P3: doubled, Park Place mortgaged or not
    assert "Park Place mortgaged rent now $0" in words
    assert page.count('class="house-chip"') == 4 and page.count('class="hotel-chip"') == 2


def test_dashboard_balance_cards_show_each_deed_with_buildings_and_mortgage(table):
    table.new_game()
    rich_with(table, 0, *GREENS, READING)
    table.do("build", player=0, group="green", levels=[HOTEL, HOTEL, 4])
    table.do("mortgage", player=0, deed=READING)
    page = table.page(f"/g/{table.id}/")
    card = re.search(r'<a class="balance".*?</a>', page, re.S).group(0)
    assert f"border-color: {COLOURS[0]}" in card
    chip = r'<span class="deed-chip( mortgaged)?"[^>]*>(.*?)<span class="sr">'
    chips = re.findall(chip, card, re.S)
    assert [(kind, table.text(shown)) for kind, shown in chips] == [
        (" mortgaged", ""),  # the railroad's icon, hatched
        ("", "H"),
        ("", "H"),
        ("", "4"),
    ]
    # A phone shows no title: a screen reader hears each deed by name, then what it carries.
    spoken = [table.text(said) for said in re.findall(r'<span class="sr">(.*?)</span>', card, re.S)]
    assert spoken == [
        "Reading Railroad · mortgaged",
        "Pacific Avenue · 1 hotel",
        "North Carolina Avenue · 1 hotel",
        "Pennsylvania Avenue · 4 houses",
    ]
    assert all('aria-hidden="true"' in shown for _, shown in chips)
    assert "Bank: 28 houses · 10 hotels" in table.text(page)


# -- the JSON API --------------------------------------------------------------------------------


def test_b1_b6_api_builds_and_sells_with_the_sentence_and_the_supply(table):
    table.new_api_game(("Ana", "Bea"))
    table.act("bank_pay", player=0, amount=10_000)
    table.own(0, *GREENS)
    built = table.act("build", player=0, group="green", levels=[HOTEL] * 3)
    assert built["text"].startswith("Ana pays the bank $3,000 to build; a hotel on Pacific Avenue")
    assert table.paid(built) == [(0, None, 3000)]
    assert (built["game"]["houses"], built["game"]["hotels"]) == (32, 9)
    deeds = {d["space"]: d for d in built["game"]["deeds"]}
    assert deeds[GREENS[0]]["hotel"] and deeds[GREENS[0]]["owner"] == 0
    sold = table.act("build", player=0, group="green", levels=[0, 0, 0])
    assert table.paid(sold) == [(None, 0, 1500)]
    prices = sum(US.spaces[i].price for i in GREENS)
    assert prices == 920
    assert sold["game"]["players"][0]["cash"] == 10_000 + 1500 - prices - 3000 + 1500


def test_b2_b5_b6_m5_x1_api_refuses_with_the_same_rules_and_words(table):
    table.new_api_game(("Ana", "Bea"))
    table.act("bank_pay", player=0, amount=10_000)
    table.own(0, *GREENS, PARK_PLACE)
    uneven = table.act("build", 422, player=0, group="green", levels=[2, 0, 0])
    assert uneven == {
        "error": "Build evenly: no street may be more than one house above another",
        "rule": "B2",
    }
    assert table.act("build", 422, player=1, group="green", levels=[1, 1, 1])["rule"] == "B1"
    assert table.act("build", 400, player=0, group="green", levels=[9, 9, 9])["rule"] == "input"
    table.act("build", player=0, group="green", levels=[HOTEL] * 3)
    table.act("bank_pay", player=1, amount=20_000)
    table.own(1, *(d for group in ("orange", "red", "yellow") for d in US.groups[group].deeds))
    table.act("build", player=1, group="orange", levels=[4, 4, 4])
    table.act("build", player=1, group="red", levels=[4, 4, 4])
    short = table.act("build", 422, player=1, group="yellow", levels=[4, 4, 4])
    assert (short["rule"], short["houses"], short["needed"]) == ("B5", 8, 12)
    table.act("build", player=1, group="yellow", levels=[2, 2, 1])
    broken = table.act("build", 422, player=0, group="green", levels=[4, HOTEL, HOTEL])
    assert (broken["rule"], broken["needed"], broken["houses"]) == ("B6", 4, 3)
    assert table.act("lift", 422, player=1, deed=PARK_PLACE)["rule"] == "M5"
    trade = {"player": 0, "partner": 1, "give": {"deeds": [GREENS[0]]}, "take": {"cash": 10}}
    refused = table.act("trade", 422, **trade)
    assert (refused["rule"], refused["error"]) == (
        "X1",
        "The Green group has buildings: sell them to the bank first",
    )
    preview = table.preview("build", player=0, group="green", levels=[4, HOTEL, HOTEL])
    assert preview.status_code == 422 and preview.get_json()["rule"] == "B6"


def test_m1_m4_x1_api_trade_and_mortgages_are_in_the_history_and_undone(table):
    table.new_api_game(("Ana", "Bea"))
    table.own(0, PARK_PLACE)
    mortgaged = table.act("mortgage", player=0, deed=PARK_PLACE)
    assert mortgaged["text"] == "Ana mortgages Park Place for $175"
    assert table.paid(mortgaged) == [(None, 0, 175)]
    give, keep = {"deeds": [PARK_PLACE]}, []  # Bea's choice sent with it: keep it mortgaged
    trade = table.act("trade", player=0, partner=1, give=give, take={"cash": 100}, lift=keep)
    assert table.paid(trade) == [(1, 0, 100), (1, None, 18)]
    assert trade["game"]["players"][1]["cash"] == 1500 - 100 - 18
    lifted = table.act("lift", player=1, deed=PARK_PLACE)
    assert lifted["text"] == "Bea lifts the mortgage on Park Place for $193"
    assert lifted["game"]["players"][1]["cash"] == 1500 - 100 - 18 - 193
    table.act("undo")
    game = table.game()
    assert game["players"][1]["cash"] == 1382
    assert next(d for d in game["deeds"] if d["space"] == PARK_PLACE)["mortgaged"]
    said = [(e["kind"], e["text"], e["undone"]) for e in table.history()]
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


def test_m2_p3_a_throw_onto_a_mortgaged_deed_pays_no_rent_and_the_rest_of_its_group_double(
    table,
):
    table.new_api_game(("Ana", "Bea"))
    table.own(0, PARK_PLACE, BOARDWALK)
    table.act("mortgage", player=0, deed=PARK_PLACE)
    landed = table.throws_onto(1, PARK_PLACE)
    assert (
        landed["text"] == "Bea throws 7 and moves to Park Place; Park Place is mortgaged: no rent"
    )
    assert table.paid(landed) == []
    rent = table.throws_onto(1, BOARDWALK)
    assert table.paid(rent) == [(1, 0, 2 * US.spaces[BOARDWALK].rent[0])]


def test_property_actions_need_the_banker_s_key(table):
    table.new_api_game(("Ana", "Bea"))
    stranger = table.app.test_client()
    response = stranger.post(
        f"/api/games/{table.id}/actions",
        json={"kind": "build", "player": 0, "group": "green", "levels": [1, 1, 1]},
    )
    assert response.status_code == 403
    assert stranger.get(f"/g/{table.id}/build?player=0").status_code == 403
