"""Pages for buildings, mortgages, trades, auctions, bankruptcy and results (test client).
Deeds come from landings (`own`) or the short game's deal, debts from throws."""

from __future__ import annotations

import re

from tablebank.rules import HOTEL

from ..support import (
    BALTIC,
    BOARDWALK,
    INCOME_TAX,
    LUXURY_TAX,
    MEDITERRANEAN,
    PACIFIC,
    PARK_PLACE,
    PARKING,
    READING,
    US,
)
from ..tables import clock_at

GREENS = list(US.groups["green"].deeds)
TWO_HOUSES_ON_PACIFIC = US.spaces[PACIFIC].rent[2]


def rich_with_greens(table):
    table.do("bank_pay", player=0, amount=10_000)
    table.own(0, *GREENS)


def bea_cannot_pay_ana(table, *deeds: int, mortgaged=()) -> int:
    """Ana's greens carry 2 houses each; Bea holds `deeds` (some mortgaged) and $10, and
    throws onto Pacific Avenue: she owes Ana more than she could raise. Her cash then."""
    rich_with_greens(table)
    table.do("build", player=0, group="green", levels=[2, 2, 2])
    table.own(1, *deeds)
    for deed in mortgaged:
        table.do("mortgage", player=1, deed=deed)
    table.act("bank_collect", player=1, amount=table.cash()[1] - 10)
    table.throws_onto(1, PACIFIC)
    assert table.state().owed_by(1) == TWO_HOUSES_ON_PACIFIC
    return 10


def test_b1_build_page_offers_presets_with_cost_and_supply_before_the_tap(table):
    table.new_game()
    rich_with_greens(table)
    page = table.page(f"/g/{table.id}/build?player=0")
    assert "Bank: 32 houses · 12 hotels" in page
    assert "3 houses on each" in page
    hotels = 3 * 5 * US.groups["green"].house_price
    assert f"Ana pays the bank ${hotels:,} to build; a hotel on Pacific Avenue" in page
    assert "the bank has 32 houses and 9 hotels left" in page
    before = table.cash()[0]
    table.do("build", player=0, group="green", levels=[HOTEL] * 3)
    assert before - table.cash()[0] == hotels


def test_b6_build_page_says_why_a_hotel_cannot_be_broken_down(table):
    table.new_game(("Ana", "Bea"))
    rich_with_greens(table)
    table.do("build", player=0, group="green", levels=[HOTEL] * 3)
    table.do("bank_pay", player=1, amount=20_000)
    for group in ("orange", "red", "yellow"):
        table.own(1, *US.groups[group].deeds)
        table.do("build", player=1, group=group, levels=[4, 4, 4])
    assert table.state().houses == 32 - 36 + 12 == 8
    page = table.page(f"/g/{table.id}/build?player=0")
    assert "Breaking the hotels down needs 12 houses and the bank has 8" in page
    assert "Ana sells to the bank for $1,500; no buildings on Pacific Avenue" in page


def test_m1_mortgage_page_lists_the_buildings_sold_first(table):
    table.new_game()
    rich_with_greens(table)
    table.do("build", player=0, group="green", levels=[1, 1, 1])
    page = table.page(f"/g/{table.id}/mortgages?player=0")
    assert "Ana sells the Green buildings for $300; Ana mortgages Pacific Avenue for $150" in page


def test_m3_mortgaged_deed_offers_the_lift_at_value_plus_ten_percent(table):
    table.new_game()
    table.own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    page = table.page(f"/g/{table.id}/mortgages?player=0")
    assert "Ana lifts the mortgage on Park Place for $193" in page


def test_m4_trade_page_shows_cash_before_and_after_and_asks_about_each_mortgage(table):
    table.new_game()
    table.own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    query = f"player=0&partner=1&give_deeds={PARK_PLACE}&cash=100&cash_from=partner"
    page = table.page(f"/g/{table.id}/trade?{query}")
    assert "Lift Park Place now ($193)" in page
    assert "Bea pays $18 interest and keeps Park Place mortgaged" in page
    rows = re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", page)
    cash_ana = 1500 - 350 + 175
    assert rows == [
        ("Ana", f"${cash_ana:,}", f"${cash_ana + 100:,}"),
        ("Bea", "$1,500", f"${1500 - 100 - 18:,}"),
    ]
    lifted = table.page(f"/g/{table.id}/trade?{query}&lift={PARK_PLACE}")
    assert "Bea lifts Park Place now for $193" in lifted


def test_p1_declining_opens_the_auction_and_the_winner_pays_the_bank(table):
    table.new_game()
    table.act("place", player=0, space=BOARDWALK - 7)
    turn = table.dice(table.page(f"/g/{table.id}/"), 7).text
    response = table.press(turn, "Ana throws 7 and moves to Boardwalk; Ana declines Boardwalk")
    assert response.headers["Location"].endswith(f"/g/{table.id}/auction")
    page = table.page(f"/g/{table.id}/auction?player=1&amount=120")
    assert "Bea bids $120 for Boardwalk" in page
    table.press(page, "Bea bids $120 for Boardwalk")
    assert "Highest $120 by Bea" in table.page(f"/g/{table.id}/auction")
    assert "Auction: Boardwalk · $120 by Bea" in table.page(f"/g/{table.id}/")
    table.press(table.page(f"/g/{table.id}/auction"), "Bea wins Boardwalk")
    after = table.state()
    assert after.deeds[BOARDWALK].owner == 1 and table.cash() == [1500, 1380]
    assert after.auction is None and after.turn == 1  # the landing done, Bea's turn
    assert table.history()[0]["movements"] == [[1, None, 120]]  # Bea pays the bank


def test_k1_bankruptcy_page_shows_what_could_be_raised_before_declaring(table):
    """K1: Bea could raise $210 ($10 and Boardwalk's mortgage) against a $25 rent: the
    bankruptcy is refused in words; against $390, it is offered to Ana."""
    table.new_game()
    table.own(0, READING)
    table.own(1, BOARDWALK)
    table.act("bank_collect", player=1, amount=table.cash()[1] - 10)
    table.throws_onto(1, READING, 5)
    page = table.page(f"/g/{table.id}/bankrupt?player=1")
    assert "Could raise in all $210" in table.text(page)
    assert "Bea could still raise $210 by selling and mortgaging: enough for the $25 owed" in (
        table.text(page)
    )
    assert not table.button(page, "Declare bankruptcy")


def test_k1_k2_a_bankruptcy_the_debtor_cannot_avoid_gives_the_creditor_everything(table):
    table.new_game(("Ana", "Bea", "Cal"))
    bea_cannot_pay_ana(table, BOARDWALK)
    ana = table.cash()[0]
    page = table.page(f"/g/{table.id}/bankrupt?player=1")
    assert "Could raise in all $210" in table.text(page)
    said = f"Bea is bankrupt, owing ${TWO_HOUSES_ON_PACIFIC} to Ana"
    assert table.button(page, said)
    table.press(page, said)
    after = table.state()
    assert after.players[1].bankrupt and after.deeds[BOARDWALK].owner == 0
    assert table.cash() == [ana + 10, 0, 1500]
    assert after.turn == 2 and after.pending == []


def test_k2_a_bankrupt_player_s_deeds_say_they_are_bankrupt_not_that_none_came_yet(table, app):
    """K2: Bea goes bankrupt to Ana, who takes Boardwalk. Bea's deeds, on the banker's page of
    her and on her own phone (its page and, phone turns on, its deeds page), say she is
    bankrupt and where what she held went, not "No deeds yet." as before her first deed."""
    table.new_game(("Ana", "Bea", "Cal"))
    table.do("phone_turns", allow=True)
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    assert table.state().players[1].bankrupt
    phone = app.test_client()
    pages = {
        "the banker's": table.page(f"/g/{table.id}/player/1"),
        "the phone's": table.page(table.phone(1), phone),
        "the phone's deeds": table.page(f"{table.phone(1)}/deeds", phone),
    }
    banker = "Bea is bankrupt and out of the game: everything they held went to the player"
    own = "You are bankrupt and out of the game: everything you held went to the player"
    for which, page in pages.items():
        text = table.text(page)
        assert "No deeds yet." not in text, which
        assert (banker if which == "the banker's" else own) in text, which
    assert "No deeds yet." in table.text(table.page(f"/g/{table.id}/player/2"))  # Cal: none


def test_sg1_a_short_game_starts_by_dealing_two_deeds_each_once(table):
    table.new_game(mode="short")
    assert table.client.get(f"/g/{table.id}/").status_code == 200
    page = table.page(f"/g/{table.id}/deal")
    assert "Deal at random" in page
    hands = f"hand0={BOARDWALK}&hand0={PARK_PLACE}&hand1={MEDITERRANEAN}&hand1={BALTIC}"
    chosen = table.page(f"/g/{table.id}/deal?{hands}")
    table.press(chosen, "Ana is dealt")
    assert table.cash() == [1500 - 400 - 350, 1500 - 60 - 60]
    assert table.state().deeds[BOARDWALK].owner == 0 and table.state().deeds[BALTIC].owner == 1
    again = table.read(f"/g/{table.id}/deal")
    assert "Deal at random" not in again and "a deal comes once" in again
    assert 'class="pad"' in table.page(f"/g/{table.id}/")  # Ana's throw waits


def test_sg1_a_hand_dealt_short_is_refused_as_two_deeds_each_and_nothing_is_dealt(table):
    """A deed left at "—" on the deal page: the refusal says each player is dealt two deeds
    (it said 'A deed must be a whole number'), and the deal waits as before."""
    table.new_game(mode="short")
    hands = f"hand0={BOARDWALK}&hand0={PARK_PLACE}&hand1={MEDITERRANEAN}&hand1="
    refused = table.page(f"/g/{table.id}/deal?{hands}")
    assert "Bea is dealt two deeds" in refused
    assert "whole number" not in refused
    assert table.cash() == [1500, 1500] and table.state().deeds[BOARDWALK].owner is None
    assert "Ana is dealt two deeds" in table.page(f"/g/{table.id}/deal?hand0=&hand0=&hand1=")


def test_sg4_results_rank_the_players_with_their_breakdown_and_a_chart(table):
    table.new_game()
    table.own(1, BOARDWALK)
    table.throws_onto(0, BOARDWALK)  # $50 rent from Ana to Bea
    table.do("end_game")
    page = table.page(f"/g/{table.id}/results")
    words = table.text(page)
    assert "Bea wins the game" in words
    assert words.index("Bea winner Net worth $1,550") < words.index("Ana Net worth $1,450")
    assert "Cash $1,150 Deeds $400" in words  # Bea's breakdown
    assert page.count("<polyline") == 2


def test_k3_k4_sg4_players_who_end_at_the_same_worth_have_their_letters_side_by_side(table):
    """K3, K4: Bea and Cal both go bankrupt to the bank, so both lines end at nothing: on the
    results' chart their letters sit side by side at the end, not one hiding the other."""
    table.new_game(("Ana", "Bea", "Cal"))
    for seat in (1, 2):
        table.act("bank_collect", player=seat, amount=1490)
        table.act("land", player=seat, space=LUXURY_TAX)  # $10 against the tax: a debt
        table.act("bankrupt", player=seat)
    assert table.state().ended and table.cash()[1:] == [0, 0]
    page = table.page(f"/g/{table.id}/results")
    letters = [
        (float(x), float(y))
        for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="8"', page)
    ]
    assert len(letters) == 3
    for i, (x, y) in enumerate(letters):
        for other_x, other_y in letters[i + 1 :]:
            assert abs(x - other_x) >= 16 or abs(y - other_y) >= 16, letters
    assert letters[1][1] == letters[2][1]  # both at nothing, on the chart's floor


def test_tl1_time_limited_game_shows_the_countdown(client):
    response = client.post(
        "/new",
        data={
            "edition": "us-classic",
            "mode": "timed",
            "ends_at": "2099-01-01T20:00",
            "name0": "Ana",
            "name1": "Bea",
            "clock": "+00:00",  # no JavaScript: the banker's clock reads UTC's time
        },
    )
    game_id = response.headers["Location"].split("/")[2]
    page = client.get(f"/g/{game_id}/").text
    assert 'data-ends="2099-01-01T20:00:00+00:00"' in page
    assert re.search(r"Ends at <time[^>]*>2099-01-01 20:00<", page)  # days away: dated


def test_tl1_a_game_past_its_end_time_ends_and_refuses_actions(table):
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    with clock_at("2099-01-01T20:01"):
        table.do("pass_go", player=0)
    after = table.state()
    assert after.ended and after.players[0].cash == 1500
    assert "The game has ended: results" in table.page(f"/g/{table.id}/")


def test_h1_a_tax_goes_into_the_pot_which_the_next_landing_on_free_parking_takes(table):
    table.new_game(free_parking_jackpot="on")
    tax = US.spaces[INCOME_TAX].amount
    table.throws_onto(0, INCOME_TAX, 4)
    assert "Free Parking pot <strong>$200</strong>" in table.page(f"/g/{table.id}/")
    landed = table.throws_onto(1, PARKING)
    assert table.paid(landed) == [(None, 1, tax)]
    assert table.cash() == [1500 - tax, 1500 + tax] and table.state().pot == 0


def test_h1_dashboard_shows_the_pot_and_pays_it_out_in_one_tap(table):
    table.new_game(free_parking_jackpot="on")
    table.throws_onto(0, INCOME_TAX, 4)
    page = table.page(f"/g/{table.id}/pick/parking_pot")
    assert "Bea takes the Free Parking pot of $200" in page
    table.press(page, "Bea takes the Free Parking pot of $200")
    assert table.cash() == [1300, 1700]


def test_m1_b1_dashboard_shows_each_deed_with_buildings_and_mortgage_at_a_glance(table):
    table.new_game()
    rich_with_greens(table)
    table.do("build", player=0, group="green", levels=[3, 3, 3])
    table.own(0, READING)
    table.do("mortgage", player=0, deed=READING)
    page = table.page(f"/g/{table.id}/")
    green = US.groups["green"].colour
    assert page.count(f'class="deed-chip" style="--c: {green}; color: #000"') == 3
    assert re.search(
        r'class="deed-chip"[^>]*title="Pacific Avenue"><span aria-hidden="true">3</span>'
        r'<span class="sr">Pacific Avenue · 3 houses</span>',
        page,
    )
    assert 'class="deed-chip mortgaged"' in page and "Reading Railroad · mortgaged" in page


def test_b5_no_building_auction_is_offered_without_a_shortage(table):
    """Issue 22: with 32 houses in the bank there is nothing to auction (the shortage case
    is in tests/web/test_shortage.py)."""
    table.new_game()
    page = table.page(f"/g/{table.id}/build")
    assert "The bank auctions a house" not in page and "The bank auctions a hotel" not in page
    assert "No shortage now" in page


def test_k2_m4_the_creditor_chooses_lift_now_or_later_for_each_mortgaged_deed(table):
    table.new_game(("Ana", "Bea", "Cal"))
    bea_cannot_pay_ana(table, READING, mortgaged=[READING])
    page = table.page(f"/g/{table.id}/bankrupt?player=1")
    assert "Lift Reading Railroad now ($110)" in page
    assert "Ana pays $10 interest and keeps Reading Railroad mortgaged" in page
    lifted = table.page(f"/g/{table.id}/bankrupt?player=1&lift={READING}")
    assert "Ana lifts Reading Railroad now for $110" in lifted
    ana = table.cash()[0]
    table.press(lifted, "Bea is bankrupt, owing $390 to Ana; Ana lifts Reading Railroad now")
    after = table.state()
    assert after.deeds[READING].owner == 0 and not after.deeds[READING].mortgaged
    assert table.cash()[0] == ana + 10 - 110


def test_k2_m4_every_bankruptcy_button_of_the_page_follows_the_creditors_choice(table):
    """The bankruptcy page with "lift now" chosen: whichever bankruptcy button the banker
    taps, Ana lifts Reading Railroad (no button there keeps it mortgaged)."""
    table.new_game(("Ana", "Bea", "Cal"))
    bea_cannot_pay_ana(table, READING, mortgaged=[READING])
    lifted = table.page(f"/g/{table.id}/bankrupt?player=1&lift={READING}")
    offered = [label for label, _ in table.buttons(lifted) if label.startswith("Bea is bankrupt")]
    assert offered and all("Ana lifts Reading Railroad now for $110" in o for o in offered), offered


def test_k4_a_finished_game_s_phone_deeds_page_says_it_has_ended_once(table, app):
    """K4: Bea goes bankrupt to Ana and Ana is the last player left. Ana's deeds page (phone
    turns on) says the game has ended once, and lists her deeds without a refused button
    under each; nothing to build or trade is offered."""
    table.new_game()
    table.do("phone_turns", allow=True)
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    assert table.game()["ended"]
    page = table.page(f"{table.phone(0)}/deeds", app.test_client())
    text = table.text(page)
    assert text.count("Ana is the last player left: the game has ended.") == 1
    for deed in (*GREENS, BOARDWALK):
        assert US.spaces[deed].name in text
    assert table.buttons(page) == []
    assert "Offer a trade" not in text


def test_k2_the_banker_s_dashboard_says_in_words_who_is_bankrupt(table):
    """K2: Bea is bankrupt and out; Ana and Cal play on. Bea's card on the banker's dashboard
    says "bankrupt" in words (it was only drawn faded); Ana's and Cal's do not."""
    table.new_game(("Ana", "Bea", "Cal"))
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1, lift=[])
    dashboard = table.page(f"/g/{table.id}/")
    cards = re.findall(r'<a class="balance[^"]*".*?</a>', dashboard, re.S)
    said = [table.text(card) for card in cards]
    assert "bankrupt" in said[1], said
    assert "bankrupt" not in said[0] and "bankrupt" not in said[2], said


def test_k4_a_finished_game_s_phone_trade_page_says_it_has_ended_and_offers_nothing(table, app):
    """K4: the game is over (Bea bankrupt to Ana, the last player left). Ana's trade page,
    opened from a bookmark or Back, says the game has ended, with no form to fill."""
    table.new_game()
    table.do("phone_turns", allow=True)
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    page = table.page(f"{table.phone(0)}/trade", app.test_client())
    text = table.text(page)
    assert "Ana is the last player left: the game has ended." in text
    assert "Show their deeds" not in text and table.buttons(page) == []


def test_k2_x1_a_phone_s_trade_with_a_bankrupt_player_is_refused_in_words(table, app):
    """K2, X1: Bea is bankrupt; Ana's phone opened at a trade with her (a typed address)
    says Bea is out of the game and draws no side of hers; Cal is still offered."""
    table.new_game(("Ana", "Bea", "Cal"))
    table.do("phone_turns", allow=True)
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    phone = app.test_client()
    page = table.page(f"{table.phone(0)}/trade?partner=1&take_deeds={BOARDWALK}&cash=1", phone)
    text = table.text(page)
    assert "Bea is bankrupt and out of the game" in text
    assert "Bea gives" not in text
    assert "Offer the trade" not in text and "Cal" in text
    with_cal = table.text(table.page(f"{table.phone(0)}/trade?partner=2", phone))
    assert "Cal gives" in with_cal and "bankrupt" not in with_cal


def test_k2_x1_the_banker_s_trade_with_a_bankrupt_player_is_refused_in_words(table):
    """K2, X1: the banker's trade page at an address naming bankrupt Bea says she is out of
    the game and draws no side of hers; the deeds to sell are offered instead."""
    table.new_game(("Ana", "Bea", "Cal"))
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    for pair in ("player=0&partner=1", "player=1&partner=2"):
        text = table.read(f"/g/{table.id}/trade?{pair}&give_deeds={BOARDWALK}&cash=1")
        assert "Bea is bankrupt and out of the game" in text
        assert "Bea gives" not in text and "Sell a deed for cash" in text
