"""The banker's pages through Flask's test client: what the banker reads and what a tap does."""

from __future__ import annotations

import re

from ..support import BOARDWALK, CHANCE, ELECTRIC, ILLINOIS, INCOME_TAX, RAILROADS, US, card_of

PRICE = US.spaces[BOARDWALK].price


def test_s1_new_game_shows_every_player_with_starting_cash(table):
    table.new_game(("Ana", "Bea", "Cal"), starting_cash="2000")
    page = table.page(f"/g/{table.id}/")
    for name in ("Ana", "Bea", "Cal"):
        assert name in page
    assert len(re.findall(r'class="cash" data-seat="\d"[^>]*>\$2,000<', page)) == 3


def test_s1_one_player_is_refused_with_a_message(client):
    response = client.post("/new", data={"edition": "us-classic", "name0": "Ana"})
    assert response.status_code == 400
    assert "2 to 8 players" in response.text
    assert client.get("/").text.count("/g/") == 0


def test_p1_landing_page_offers_buy_at_the_printed_price(table):
    table.new_game()
    page = table.page(f"/g/{table.id}/land/0/{BOARDWALK}")
    assert table.button(page, f"Ana lands on Boardwalk; Ana buys Boardwalk for ${PRICE}")
    assert table.button(page, "Ana lands on Boardwalk; Ana declines Boardwalk")
    table.press(page, "Ana lands on Boardwalk; Ana buys")
    assert table.state().deeds[BOARDWALK].owner == 0
    assert table.cash() == [1500 - PRICE, 1500]


def test_p2_rent_is_shown_before_the_tap_and_moves_the_money_to_the_owner(table):
    table.new_game()
    table.own(0, BOARDWALK)
    rent = US.spaces[BOARDWALK].rent[0]
    page = table.page(f"/g/{table.id}/land/1/{BOARDWALK}")
    said = f"Bea lands on Boardwalk; Bea pays Ana ${rent} rent for Boardwalk"
    assert table.button(page, said)
    assert table.cash() == [1500 - PRICE, 1500]  # nothing paid before the tap
    assert table.press(page, said).status_code == 302
    assert table.cash() == [1500 - PRICE + rent, 1500 - rent]


def test_p6_a_recorded_utility_landing_asks_for_the_dice_then_shows_the_rent(table):
    """P6: no throw is known, so the landing waits for one: the dashboard's pad, then the
    rent at 4 times the total, to the owner."""
    table.new_game()
    table.own(0, ELECTRIC)
    page = table.page(f"/g/{table.id}/land/1/{ELECTRIC}")
    assert "rent for Electric Company" not in page
    table.press(page, "Bea lands on Electric Company")
    dashboard = table.page(f"/g/{table.id}/")
    assert "Throw the dice for the rent" in table.text(dashboard)
    rent = US.spaces[ELECTRIC].rent[0] * 9
    turn = table.dice(dashboard, 9).text
    said = f"Bea throws 9; Bea pays Ana ${rent} rent for Electric Company"
    assert table.button(turn, said)
    table.press(turn, said)
    assert table.cash() == [1500 - US.spaces[ELECTRIC].price + rent, 1500 - rent]


def test_t1_percent_option_shows_no_figure_before_the_choice(table):
    table.new_game(income_tax_percent="on")
    page = table.page(f"/g/{table.id}/land/0/{INCOME_TAX}")
    assert table.button(page, "Ana lands on Income Tax; Ana pays $200 Income Tax")
    assert table.button(page, "Pay 10% of total worth (worked out after choosing)")
    table.press(page, "Pay 10% of total worth")
    assert table.cash() == [1500 - 150, 1500]


def test_c1_chance_space_lists_every_card_with_its_effect(table):
    table.new_game()
    titles = [label for label, _ in table.buttons(table.page(f"/g/{table.id}/land/0/{CHANCE}"))]
    for card in US.deck("chance"):
        title = card.text.split(";")[0].split("(")[0].strip()
        assert any(label.startswith(title) for label in titles), title


def test_c2_p1_a_card_that_moves_lands_and_leaves_the_buy_waiting(table):
    """C2: the card's move is worked out in the same tap; P1: the turn waits for the buy of
    the deed it landed on, shown on the dashboard."""
    table.new_game()
    to_illinois = card_of(US, "advance", to=ILLINOIS)
    page = table.page(f"/g/{table.id}/land/0/{CHANCE}")
    table.press(page, "Advance to Illinois Avenue")
    assert table.state().players[0].position == ILLINOIS
    assert table.state().players[0].cash == 1500 and to_illinois.to == ILLINOIS
    dashboard = table.page(f"/g/{table.id}/")
    price = US.spaces[ILLINOIS].price
    assert "Ana on Illinois Avenue" in table.text(dashboard)
    table.press(dashboard, f"Ana buys Illinois Avenue for ${price}")
    assert table.state().deeds[ILLINOIS].owner == 0 and table.cash() == [1500 - price, 1500]


def test_k1_refused_payment_shows_the_shortfall_and_changes_nothing(table):
    table.new_game()
    response = table.do("bank_collect", player=0, amount=1600)
    page = table.page(response.headers["Location"])
    assert "Ana cannot pay $1,600: $100 short" in page
    assert table.cash() == [1500, 1500]


def test_bad_amount_is_refused_with_a_message(table):
    table.new_game()
    for amount in ("-5", "12.5", "abc", "", "99999999999"):
        response = table.client.post(
            f"/g/{table.id}/do", data={"kind": "bank_pay", "player": "0", "amount": amount}
        )
        assert response.status_code == 302
        assert "amount must be" in table.page(f"/g/{table.id}/")
    assert table.cash() == [1500, 1500]


def test_money_page_previews_the_sentence_before_confirming(table):
    table.new_game()
    page = table.page(f"/g/{table.id}/money?kind=bank_collect&player=1&amount=150")
    assert "Bea pays the bank $150" in page
    assert table.cash() == [1500, 1500]


def test_double_tap_with_the_same_key_is_applied_once(table):
    table.new_game()
    for _ in range(2):
        table.client.post(
            f"/g/{table.id}/do", data={"kind": "pass_go", "player": "0", "key": "tap-1"}
        )
    assert table.cash() == [1500 + US.salary, 1500]


def test_stale_page_is_refused_rather_than_applied(table):
    table.new_game()
    page = table.page(f"/g/{table.id}/pick/pass_go")
    table.press(page, "Ana collects $200 salary")
    response = table.press(page, "Bea collects $200 salary")  # the same page, drawn before
    assert response.status_code == 409
    assert "drawn for an earlier moment of the game: nothing was done" in table.text(response.text)
    assert f'href="/g/{table.id}/"' in response.text  # the way back to the game as it is
    assert table.cash() == [1500 + US.salary, 1500]


def test_undo_shows_what_it_takes_back_and_history_marks_it(table):
    table.new_game()
    table.do("transfer", **{"from": 0, "to": 1, "amount": 300})
    assert "Undo: Ana pays Bea $300" in table.page(f"/g/{table.id}/")
    page = table.page(f"/g/{table.id}/undo")
    assert "Undo: Ana pays Bea $300" in page
    table.press(page, "Undo: Ana pays Bea $300")
    assert table.cash() == [1500, 1500]
    history = table.page(f"/g/{table.id}/history")
    undone = r'class="undone[^"]*">\s*<span class="seq">#1</span> Ana pays Bea \$300'
    assert re.search(undone, history)


def test_the_live_dashboard_names_what_undo_takes_back_after_a_phone_acts(table, app):
    """The banker's dashboard, redrawn live (its fragment), names the action its undo takes
    back now: a payment made on a player's phone after the page opened, not the banker's
    own earlier action."""
    table.new_game()
    table.do("transfer", **{"from": 0, "to": 1, "amount": 300})
    phone = app.test_client()
    table.press(table.page(f"{table.phone(1)}/preview?to=0&amount=50", phone), "Bea", phone)
    live = table.read(f"/g/{table.id}/?fragment=1")
    assert "Undo: Bea pays Ana $50" in live and "Undo: Ana pays Bea $300" not in live


def test_names_are_escaped_in_pages(table):
    table.new_game(("<script>x()</script>", "Bea"))
    page = table.page(f"/g/{table.id}/")
    assert "<script>x()</script>" not in page
    assert "&lt;script&gt;" in page


def test_unknown_game_is_a_404_page(client):
    assert client.get("/g/nope/").status_code == 404


def test_c2_p5_the_nearest_railroad_card_shows_and_pays_twice_the_rent(table):
    """C2, P5: Ana throws onto Chance and draws "nearest railroad"; Bea owns Pennsylvania
    Railroad: the card's button says what it costs Ana, and Bea receives twice the rent."""
    table.new_game()
    railroad = RAILROADS[1]
    table.own(1, railroad)
    table.act("turn_to", player=0)
    table.act("place", player=0, space=0)
    turn = table.dice(table.page(f"/g/{table.id}/"), CHANCE).text
    twice = 2 * US.spaces[railroad].rent[0]
    assert table.button(turn, f"Advance to the nearest Railroad −${twice}")
    table.press(turn, "Advance to the nearest Railroad")
    price = US.spaces[railroad].price
    assert table.cash() == [1500 - twice, 1500 - price + twice]
    assert table.state().players[0].position == railroad
