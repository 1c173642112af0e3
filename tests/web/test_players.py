"""Players' own phones: a private token sees and spends only its own money (test client)."""

from __future__ import annotations

import json
import re

from tablebank.models import Game, Player, db
from tablebank.rules import GameState

from .test_pages import new_game


def tokens(app, game_id) -> list[str]:
    with app.app_context():
        return [p.token for p in db.session.get(Game, game_id).players]


def cash(app, game_id) -> list[int]:
    with app.app_context():
        state = GameState.from_dict(db.session.get(Game, game_id).state)
        return [p.cash for p in state.players]


def player_do(client, token, kind, **payload):
    data = {"kind": kind, "payload": json.dumps(payload)}
    return client.post(f"/p/{token}/do", data=data)


def banker_do(client, game_id, kind, **payload):
    return client.post(f"/g/{game_id}/do", data={"kind": kind, "payload": json.dumps(payload)})


def test_tokens_carry_at_least_128_random_bits(client, app):
    game_id = new_game(client, ("Ana", "Bea", "Cal"))
    found = tokens(app, game_id)
    assert len(set(found)) == 3
    assert all(len(t) >= 22 for t in found)  # 16 random bytes, url-safe base64


def test_the_player_page_shows_balance_deeds_rent_and_rank(client, app):
    game_id = new_game(client)
    banker_do(client, game_id, "buy", player=1, deed=39)
    banker_do(client, game_id, "rent", player=0, deed=39)
    phone = app.test_client()
    page = phone.get(f"/p/{tokens(app, game_id)[1]}").text
    assert re.search(r'id="balance"[^>]*>\$1,150<', page)
    assert "Boardwalk" in page and "rent now $50" in page
    assert "rank 1 of 2" in page
    assert "Bea buys Boardwalk for $400" in page
    assert "Ana pays Bea $50 rent for Boardwalk" in page  # her history: money she received


def test_a_player_pays_another_from_their_own_balance(client, app):
    game_id = new_game(client)
    phone = app.test_client()
    ana = tokens(app, game_id)[0]
    preview = phone.get(f"/p/{ana}/preview?to=1&amount=120").text
    assert "Ana pays Bea $120" in preview
    player_do(phone, ana, "transfer", to=1, amount=120)
    assert cash(app, game_id) == [1380, 1620]


def test_a_token_cannot_move_another_player_s_money(client, app):
    game_id = new_game(client)
    phone = app.test_client()
    ana = tokens(app, game_id)[0]
    player_do(phone, ana, "transfer", **{"from": 1, "to": 0, "amount": 500})
    assert cash(app, game_id) == [1500, 1500]  # "from" is forced to Ana: she cannot pay herself
    player_do(phone, ana, "bank_collect", player=1, amount=100)
    assert cash(app, game_id) == [1400, 1500]  # Ana's own money paid, never Bea's


def test_a_token_cannot_do_a_banker_action(client, app):
    game_id = new_game(client)
    phone = app.test_client()
    ana = tokens(app, game_id)[0]
    for kind in ("bank_pay", "pass_go", "buy", "undo", "build", "end_game"):
        assert player_do(phone, ana, kind, player=0, amount=500, deed=39).status_code == 403
    assert phone.get(f"/g/{game_id}/").status_code == 403
    assert phone.post(f"/g/{game_id}/do", data={"kind": "bank_pay"}).status_code == 403
    assert cash(app, game_id) == [1500, 1500]


def test_a_revoked_token_is_refused_and_the_new_one_works(client, app):
    game_id = new_game(client)
    old = tokens(app, game_id)[1]
    client.post(f"/g/{game_id}/codes/1/new")
    new = tokens(app, game_id)[1]
    phone = app.test_client()
    assert new != old
    assert phone.get(f"/p/{old}").status_code == 404
    assert player_do(phone, old, "bank_collect", amount=10).status_code == 404
    assert phone.get(f"/p/{new}").status_code == 200
    assert cash(app, game_id) == [1500, 1500]


def test_codes_page_shows_a_qr_code_per_player_and_the_table(client, app):
    game_id = new_game(client)
    client.get(f"/g/{game_id}/")  # the first page, with the banker link to keep
    page = client.get(f"/g/{game_id}/codes").text
    assert page.count("<svg") == 4  # Ana, Bea, the banker on another phone, the table
    for token in tokens(app, game_id):
        assert f"/p/{token}" in page
    sheet = client.get(f"/g/{game_id}/codes?print=1").text
    assert sheet.count("<svg") == 3  # no banker code on the printable sheet


def test_x1_a_trade_offered_to_a_phone_is_accepted_there(client, app):
    game_id = new_game(client)
    banker_do(client, game_id, "buy", player=0, deed=39)
    offer = {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": 500}}
    banker_do(client, game_id, "trade_offer", **offer)
    phone = app.test_client()
    bea = tokens(app, game_id)[1]
    page = phone.get(f"/p/{bea}").text
    assert "Trade offered to you" in page
    assert "Ana trades with Bea; Boardwalk from Ana to Bea; $500 from Bea to Ana" in page
    ana_phone = app.test_client()
    player_do(ana_phone, tokens(app, game_id)[0], "trade_accept", offer=1)
    assert cash(app, game_id) == [1100, 1500]  # only the partner accepts
    player_do(phone, bea, "trade_accept", offer=1)
    assert cash(app, game_id) == [1600, 1000]


def test_x1_a_trade_declined_on_the_phone_changes_nothing(client, app):
    game_id = new_game(client)
    banker_do(client, game_id, "buy", player=0, deed=39)
    offer = {"player": 0, "partner": 1, "give": {"deeds": [39]}, "take": {"cash": 500}}
    banker_do(client, game_id, "trade_offer", **offer)
    bea = tokens(app, game_id)[1]
    player_do(app.test_client(), bea, "trade_decline", offer=1)
    assert cash(app, game_id) == [1100, 1500]
    with app.app_context():
        assert db.session.get(Game, game_id).state["offers"] == []


def test_the_table_screen_draws_the_board_with_owners(client, app):
    game_id = new_game(client)
    banker_do(client, game_id, "buy", player=0, deed=39)
    with app.app_context():
        table = db.session.get(Game, game_id).table_token
        assert db.session.query(Player).count() == 2
    page = app.test_client().get(f"/t/{table}").text
    assert page.count('<div class="sq ') == 40
    assert '--owner: #e03131;" data-space="39"' in page  # Boardwalk in Ana's colour
    assert "$1,100" in page and "$1,500" in page
