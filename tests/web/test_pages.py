"""The banker's pages through Flask's test client: what the banker reads and what a tap does."""

from __future__ import annotations

import re

from tablebank.models import Game, db
from tablebank.rules import GameState

from ..support import ALL_EDITIONS

US = ALL_EDITIONS["us-classic"]
BOARDWALK = 39


def new_game(client, names=("Ana", "Bea"), **extra) -> str:
    form = {"edition": "us-classic", "starting_cash": "1500", "mode": "classic"}
    form.update({f"name{i}": n for i, n in enumerate(names)})
    form.update({f"colour{i}": c for i, c in enumerate(["#e03131", "#1971c2", "#2f9e44"])})
    form.update(extra)
    response = client.post("/new", data=form)
    assert response.status_code == 302, response.text
    return response.headers["Location"].split("/")[2]


def state(app, game_id) -> GameState:
    with app.app_context():
        return GameState.from_dict(db.session.get(Game, game_id).state)


def do(client, game_id, kind, **fields):
    return client.post(f"/g/{game_id}/do", data={"kind": kind, **fields})


def test_s1_new_game_shows_every_player_with_starting_cash(client):
    game_id = new_game(client, ("Ana", "Bea", "Cal"), starting_cash="2000")
    page = client.get(f"/g/{game_id}/").text
    for name in ("Ana", "Bea", "Cal"):
        assert name in page
    assert len(re.findall(r'class="cash" data-seat="\d"[^>]*>\$2,000<', page)) == 3


def test_s1_one_player_is_refused_with_a_message(client):
    response = client.post("/new", data={"edition": "us-classic", "name0": "Ana"})
    assert response.status_code == 400
    assert "2 to 8 players" in response.text
    assert client.get("/").text.count("/g/") == 0


def test_p1_landing_page_offers_buy_at_the_printed_price(client):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/land/0/{BOARDWALK}").text
    assert f"Ana buys Boardwalk for ${US.spaces[BOARDWALK].price}" in page
    assert "Ana declines Boardwalk" in page


def test_p2_rent_is_shown_before_the_tap_and_moves_the_money(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player="0", deed=str(BOARDWALK))
    rent = US.spaces[BOARDWALK].rent[0]
    page = client.get(f"/g/{game_id}/land/1/{BOARDWALK}").text
    assert f"Bea pays Ana ${rent} rent for Boardwalk" in page
    response = do(client, game_id, "rent", player="1", deed=str(BOARDWALK))
    assert response.status_code == 302
    after = state(app, game_id)
    assert after.players[1].cash == 1500 - rent
    assert after.players[0].cash == 1500 - US.spaces[BOARDWALK].price + rent


def test_p6_utility_asks_for_the_dice_then_shows_the_rent(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player="0", deed="12")
    page = client.get(f"/g/{game_id}/land/1/12").text
    assert "Dice total" in page
    assert "rent for Electric Company" not in page
    page = client.get(f"/g/{game_id}/land/1/12?dice=9").text
    assert f"Bea pays Ana ${US.spaces[12].rent[0] * 9} rent for Electric Company" in page


def test_t1_percent_option_shows_no_figure_before_the_choice(client):
    game_id = new_game(client, income_tax_percent="on")
    page = client.get(f"/g/{game_id}/land/0/4").text
    assert "Ana pays $200 Income Tax" in page
    assert "Pay 10% of total worth (worked out after choosing)" in page


def test_c1_chance_space_lists_every_card_with_its_effect(client):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/land/0/7").text
    for card in US.deck("chance"):
        assert card.text.replace("'", "&#39;") in page or card.text in page


def test_c2_card_that_moves_leads_to_the_landing_of_the_new_space(client):
    game_id = new_game(client)
    illinois = next(c for c in US.deck("chance") if c.effect == "advance" and c.to == 24)
    response = do(client, game_id, "card", player="0", card=illinois.id, space="7")
    assert response.headers["Location"].endswith("/land/0/24")


def test_k1_refused_payment_shows_the_shortfall_and_changes_nothing(client, app):
    game_id = new_game(client)
    response = do(client, game_id, "bank_collect", player="0", amount="1600")
    page = client.get(response.headers["Location"]).text
    assert "Ana cannot pay $1,600: $100 short" in page
    assert state(app, game_id).players[0].cash == 1500


def test_bad_amount_is_refused_with_a_message(client, app):
    game_id = new_game(client)
    for amount in ("-5", "12.5", "abc", "", "99999999999"):
        response = do(client, game_id, "bank_pay", player="0", amount=amount)
        assert response.status_code == 302
        assert "amount must be" in client.get(f"/g/{game_id}/").text
    assert state(app, game_id).players[0].cash == 1500


def test_money_page_previews_the_sentence_before_confirming(client, app):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/money?kind=bank_collect&player=1&amount=150").text
    assert "Bea pays the bank $150" in page
    assert state(app, game_id).players[1].cash == 1500


def test_double_tap_with_the_same_key_is_applied_once(client, app):
    game_id = new_game(client)
    for _ in range(2):
        do(client, game_id, "pass_go", player="0", key="tap-1")
    assert state(app, game_id).players[0].cash == 1500 + US.salary


def test_stale_page_is_refused_rather_than_applied(client, app):
    game_id = new_game(client)
    do(client, game_id, "pass_go", player="0", version="0")
    response = do(client, game_id, "pass_go", player="1", version="0")
    assert "Another device acted first" in client.get(response.headers["Location"]).text
    assert state(app, game_id).players[1].cash == 1500


def test_undo_shows_what_it_takes_back_and_history_marks_it(client, app):
    game_id = new_game(client)
    do(client, game_id, "transfer", **{"from": "0", "to": "1", "amount": "300"})
    assert "Undo: Ana pays Bea $300" in client.get(f"/g/{game_id}/").text
    assert "Undo: Ana pays Bea $300" in client.get(f"/g/{game_id}/undo").text
    do(client, game_id, "undo")
    after = state(app, game_id)
    assert [p.cash for p in after.players] == [1500, 1500]
    history = client.get(f"/g/{game_id}/history").text
    undone = r'class="undone[^"]*">\s*<span class="seq">#1</span> Ana pays Bea \$300'
    assert re.search(undone, history)


def test_names_are_escaped_in_pages(client):
    game_id = new_game(client, ("<script>x()</script>", "Bea"))
    page = client.get(f"/g/{game_id}/").text
    assert "<script>x()</script>" not in page
    assert "&lt;script&gt;" in page


def test_unknown_game_is_a_404_page(client):
    assert client.get("/g/nope/").status_code == 404


def test_c2_p5_nearest_railroad_card_leads_to_twice_the_rent(client):
    """C2, P5: the card moves Ana from Chance to the nearest railroad, which Bea owns; its
    landing page asks for twice the deed's rent, as the card says."""
    game_id = new_game(client)
    chance, railroad = 7, 15  # the first Chance, then Pennsylvania Railroad
    card = next(c.id for c in US.cards.values() if c.effect == "nearest" and c.kind == "railroad")
    do(client, game_id, "buy", player="1", deed=str(railroad))
    do(client, game_id, "place", player="0", space=str(chance))
    moved = do(client, game_id, "card", player="0", card=card, space=str(chance))
    assert moved.status_code == 302
    assert f"/land/0/{railroad}" in moved.headers["Location"]
    page = client.get(moved.headers["Location"]).text
    twice = 2 * US.spaces[railroad].rent[0]
    assert f"Ana pays Bea ${twice} rent for Pennsylvania Railroad" in page
