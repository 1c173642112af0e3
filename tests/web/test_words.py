"""What the table reads: plain words without rule codes, one net worth under one name,
counts with their right plural in English, Spanish and Japanese, and a winner by name."""

from __future__ import annotations

import re

import pytest
from tablebank import integrity
from tablebank.models import Game, db

from .test_property_pages import BOARDWALK, GREENS, PARK_PLACE, READING, do, new_game, text

RULE_CODE = re.compile(r"\((?:[A-Z]{1,2}\d{1,2})\)|\b(?:SG|TL)\d\b")


def tokens(app, game_id) -> list[str]:
    with app.app_context():
        return [p.token for p in db.session.get(Game, game_id).players]


def read(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return text(response.text)


def test_no_page_shows_a_rule_code(client, app):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=PARK_PLACE)
    do(client, game_id, "mortgage", player=0, deed=PARK_PLACE)
    pages = [
        "/new",
        f"/g/{game_id}/",
        f"/g/{game_id}/player/0",
        f"/g/{game_id}/build?player=0",
        f"/g/{game_id}/mortgages?player=0",
        f"/g/{game_id}/trade?player=0&partner=1&pick=1&give_deeds={PARK_PLACE}&cash=10",
        f"/g/{game_id}/bankrupt?player=1&owed=5000&creditor=0",
        f"/g/{game_id}/results",
        f"/p/{tokens(app, game_id)[0]}",
    ]
    for url in pages:
        words = read(client, url)
        assert not RULE_CODE.search(words), (url, RULE_CODE.search(words).group(0))


def test_sg4_one_net_worth_under_one_name_on_every_screen(client, app):
    """The dashboard, the banker's player page, the phone and the results show the same
    figure, the SG4 score, as "Net worth": a mortgaged deed counts at half its price."""
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=PARK_PLACE)  # 1500 - 350 = 1150 cash
    do(client, game_id, "mortgage", player=0, deed=PARK_PLACE)  # + 175 = 1325 cash
    worth = "$1,500"  # 1325 + 350 / 2
    assert f"1 deed · Net worth {worth}" in read(client, f"/g/{game_id}/")
    player = read(client, f"/g/{game_id}/player/0")
    assert f"Net worth {worth}" in player
    assert "Total worth" not in player and "Could raise" not in player and "Score" not in player
    assert f"Net worth {worth}" in read(client, f"/p/{tokens(app, game_id)[0]}")
    assert f"Ana Net worth {worth}" in read(client, f"/g/{game_id}/results")


def test_k1_could_raise_is_shown_where_a_player_cannot_pay(client):
    game_id = new_game(client)
    do(client, game_id, "buy", player=1, deed=BOARDWALK)  # 1100 cash, mortgage value 200
    words = read(client, f"/g/{game_id}/bankrupt?player=1&owed=5000")
    assert "Could raise in all $1,300" in words


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 deed · Net worth", "2 deeds · Net worth"),
        ("es", "1 título · Patrimonio", "2 títulos · Patrimonio"),
        ("ja", "権利書 1 枚 · 純資産", "権利書 2 枚 · 純資産"),
    ],
)
def test_counts_take_the_plural_of_the_readers_language(client, lang, one, two):
    game_id = new_game(client)
    do(client, game_id, "buy", player=0, deed=READING)
    do(client, game_id, "buy", player=1, deed=READING + 10)
    do(client, game_id, "buy", player=1, deed=READING + 20)
    words = read(client, f"/g/{game_id}/?lang={lang}")
    assert one in words and two in words


def test_b5_the_bank_supply_says_house_and_hotel_in_the_singular(client, app):
    game_id = new_game(client)
    for deed in GREENS:
        do(client, game_id, "buy", player=0, deed=deed)
    do(client, game_id, "build", player=0, group="green", levels=[5, 5, 5])
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = dict(game.state)
        state["houses"], state["hotels"] = 1, 1
        game.state = state
        db.session.commit()
    assert "Bank: 1 house · 1 hotel" in read(client, f"/g/{game_id}/build?player=0")
    assert "Banco: 1 casa · 1 hotel" in read(client, f"/g/{game_id}/build?player=0&lang=es")
    assert "銀行: 家 1 軒 · ホテル 1 軒" in read(client, f"/g/{game_id}/build?player=0&lang=ja")


def test_b5_a_sentence_counts_one_house_and_one_hotel_in_the_singular(client, app):
    game_id = new_game(client)
    for deed in GREENS:
        do(client, game_id, "buy", player=0, deed=deed)
    with app.app_context():  # arranged: a bank short of buildings, sealed as the bank would
        game = db.session.get(Game, game_id)
        game.state = {**game.state, "houses": 2, "hotels": 1}
        integrity.seal(game)
        db.session.commit()
    do(client, game_id, "build", player=0, group="green", levels=[1, 0, 0])
    history = read(client, f"/g/{game_id}/history")
    assert "1 house on Pacific Avenue" in history
    assert "the bank has 1 house and 1 hotel left" in history
    spanish = read(client, f"/g/{game_id}/history?lang=es")
    assert "al banco le quedan 1 casa y 1 hotel" in spanish


def test_k4_the_last_player_left_is_named_the_winner_and_the_banker_lands_on_results(client):
    game_id = new_game(client)
    response = do(client, game_id, "bankrupt", player=1, owed=5000, creditor=0)
    assert response.headers["Location"].endswith(f"/g/{game_id}/results")
    assert "Ana wins the game" in read(client, f"/g/{game_id}/results")
    dashboard = read(client, f"/g/{game_id}/")
    assert "Ana wins the game" in dashboard
    assert "Ana gana la partida" in read(client, f"/g/{game_id}/results?lang=es")


def test_sg4_the_richest_wins_an_ended_game_and_no_action_tile_is_left(client):
    game_id = new_game(client, names=("Ana", "Bea", "Cal"))
    do(client, game_id, "buy", player=2, deed=BOARDWALK)
    do(client, game_id, "bank_pay", player=1, amount=100)
    response = do(client, game_id, "end_game")
    assert response.headers["Location"].endswith(f"/g/{game_id}/results")
    assert "Bea wins the game" in read(client, f"/g/{game_id}/results")
    page = client.get(f"/g/{game_id}/").text
    for tile in ("Landed on", "Passed GO", "Player pays player", "Mortgages", "Cannot pay"):
        assert tile not in text(page)
    assert "Bea wins the game" in text(page)
    assert "The game has ended: results" in text(page)


def test_results_of_a_game_still_going_name_no_winner(client):
    game_id = new_game(client)
    words = read(client, f"/g/{game_id}/results")
    assert "wins the game" not in words
    assert "this is the ranking so far" in words


def test_c3_a_refusal_counts_one_jail_free_card_in_the_singular(client):
    game_id = new_game(client)
    do(client, game_id, "card", player=1, card="chest-5")
    page = client.get(f"/g/{game_id}/trade?player=0&partner=1&take_jail_free=2&cash=30").text
    assert "Bea holds 1 Get Out of Jail Free card" in text(page)
    spanish = client.get(f"/g/{game_id}/trade?player=0&partner=1&take_jail_free=2&cash=30&lang=es")
    assert "Bea tiene 1 tarjeta Queda libre de la cárcel" in text(spanish.text)
