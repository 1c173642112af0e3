"""What the table reads: plain words without rule codes, one net worth under one name,
counts with their right plural in English, Spanish and Japanese, and a winner by name."""

from __future__ import annotations

import re

import pytest
from tablebank import integrity
from tablebank.models import Game, db

from ..support import BOARDWALK, CHEST, JAIL, PARK_PLACE, READING, US, card_of

RULE_CODE = re.compile(r"\((?:[A-Z]{1,2}\d{1,2})\)|\b(?:SG|TL)\d\b")
GREENS = list(US.groups["green"].deeds)


def bea_owes_ana_the_rent(table) -> None:
    """Ana owns Reading Railroad; Bea holds Boardwalk and $10, and throws onto Reading: the
    $25 waits as her debt, and she could raise $210."""
    table.own(0, READING)
    table.own(1, BOARDWALK)
    table.act("bank_collect", player=1, amount=table.cash()[1] - 10)
    table.throws_onto(1, READING, 5)


def test_no_page_shows_a_rule_code(table):
    """Not on the banker's pages, the debt's words, the phone's or the turn's."""
    table.new_game()
    table.own(0, PARK_PLACE)
    table.do("mortgage", player=0, deed=PARK_PLACE)
    bea_owes_ana_the_rent(table)
    pages = [
        "/new",
        f"/g/{table.id}/",
        f"/g/{table.id}/player/0",
        f"/g/{table.id}/build?player=0",
        f"/g/{table.id}/mortgages?player=0",
        f"/g/{table.id}/trade?player=0&partner=1&pick=1&give_deeds={PARK_PLACE}&cash=10",
        f"/g/{table.id}/bankrupt?player=1",
        f"/g/{table.id}/results",
        f"/g/{table.id}/land/0/{BOARDWALK}",
        table.phone(0),
        table.phone(1),
        table.screen(),
    ]
    for url in pages:
        words = table.read(url)
        assert not RULE_CODE.search(words), (url, RULE_CODE.search(words).group(0))


def test_sg4_one_net_worth_under_one_name_on_every_screen(table):
    """The dashboard, the banker's player page, the phone and the results show the same
    figure, the SG4 score, as "Net worth": a mortgaged deed counts at half its price."""
    table.new_game()
    table.own(0, PARK_PLACE)  # 1500 - 350 = 1150 cash
    table.do("mortgage", player=0, deed=PARK_PLACE)  # + 175 = 1325 cash
    worth = "$1,500"  # 1325 + 350 / 2
    assert f"1 deed · Net worth {worth}" in table.read(f"/g/{table.id}/")
    player = table.read(f"/g/{table.id}/player/0")
    assert f"Net worth {worth}" in player
    assert "Total worth" not in player and "Could raise" not in player and "Score" not in player
    assert f"Net worth {worth}" in table.read(table.phone(0))
    assert f"Ana Net worth {worth}" in table.read(f"/g/{table.id}/results")


def test_k1_could_raise_is_shown_where_a_player_cannot_pay(table):
    """K1: one figure under one name, on the debt, the bankruptcy page and the phone."""
    table.new_game()
    bea_owes_ana_the_rent(table)
    assert "Could raise in all $210" in table.read(f"/g/{table.id}/")
    assert "Could raise in all $210" in table.read(f"/g/{table.id}/bankrupt?player=1")
    assert "you could raise $210 in all" in table.read(table.phone(1))


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 deed · Net worth", "2 deeds · Net worth"),
        ("es", "1 título · Patrimonio", "2 títulos · Patrimonio"),
        ("ja", "権利書 1 枚 · 純資産", "権利書 2 枚 · 純資産"),
    ],
)
def test_counts_take_the_plural_of_the_readers_language(table, lang, one, two):
    table.new_game()
    table.own(0, READING)
    table.own(1, READING + 10, READING + 20)
    words = table.read(f"/g/{table.id}/?lang={lang}")
    assert one in words and two in words


def test_b5_the_bank_supply_says_house_and_hotel_in_the_singular(table, app):
    table.new_game()
    table.own(0, *GREENS)
    table.do("build", player=0, group="green", levels=[5, 5, 5])
    with app.app_context():
        game = db.session.get(Game, table.id)
        state = dict(game.state)
        state["houses"], state["hotels"] = 1, 1
        game.state = state
        db.session.commit()
    build = f"/g/{table.id}/build?player=0"
    assert "Bank: 1 house · 1 hotel" in table.read(build)
    assert "Banco: 1 casa · 1 hotel" in table.read(f"{build}&lang=es")
    assert "銀行: 家 1 軒 · ホテル 1 軒" in table.read(f"{build}&lang=ja")


def test_b5_a_sentence_counts_one_house_and_one_hotel_in_the_singular(table, app):
    table.new_game()
    table.own(0, *GREENS)
    with app.app_context():  # arranged: a bank short of buildings, sealed as the bank would
        game = db.session.get(Game, table.id)
        game.state = {**game.state, "houses": 2, "hotels": 1}
        integrity.seal(game)
        db.session.commit()
    table.do("build", player=0, group="green", levels=[1, 0, 0])
    history = table.read(f"/g/{table.id}/history")
    assert "1 house on Pacific Avenue" in history
    assert "the bank has 1 house and 1 hotel left" in history
    spanish = table.read(f"/g/{table.id}/history?lang=es")
    assert "al banco le quedan 1 casa y 1 hotel" in spanish


def test_k4_the_last_player_left_is_named_the_winner_and_the_banker_lands_on_results(table):
    table.new_game()
    table.own(0, READING)
    table.act("bank_collect", player=1, amount=1490)
    table.throws_onto(1, READING, 5)  # $25 owed, $10 to raise it with
    response = table.press(table.page(f"/g/{table.id}/bankrupt?player=1"), "Bea is bankrupt")
    assert response.headers["Location"].endswith(f"/g/{table.id}/results")
    assert table.cash() == [1500 - US.spaces[READING].price + 10, 0]
    assert "Ana wins the game" in table.read(f"/g/{table.id}/results")
    assert "Ana wins the game" in table.read(f"/g/{table.id}/")
    assert "Ana gana la partida" in table.read(f"/g/{table.id}/results?lang=es")


def test_sg4_the_richest_wins_an_ended_game_and_no_action_tile_is_left(table):
    table.new_game(names=("Ana", "Bea", "Cal"))
    table.own(2, BOARDWALK)
    table.do("bank_pay", player=1, amount=100)
    response = table.do("end_game")
    assert response.headers["Location"].endswith(f"/g/{table.id}/results")
    assert "Bea wins the game" in table.read(f"/g/{table.id}/results")
    html = table.page(f"/g/{table.id}/")
    page = table.text(html)
    for tile in ("Landed on", "Passed GO", "Player pays player", "Mortgages", "Cannot pay"):
        assert tile not in page
    assert "Bea wins the game" in page
    assert "The game has ended: results" in page
    assert "'s turn" not in page and 'class="pad"' not in html  # nobody throws any more


def test_results_of_a_game_still_going_name_no_winner(table):
    table.new_game()
    words = table.read(f"/g/{table.id}/results")
    assert "wins the game" not in words
    assert "this is the ranking so far" in words


def test_c3_a_refusal_counts_one_jail_free_card_in_the_singular(table):
    table.new_game()
    jail_free = card_of(US, "jail_free", deck="chest")
    table.throws_onto(1, CHEST, CHEST - JAIL, {"kind": "card", "card": jail_free.id})
    trade = f"/g/{table.id}/trade?player=0&partner=1&take_jail_free=2&cash=30"
    assert "Bea holds 1 Get Out of Jail Free card" in table.read(trade)
    assert "Bea tiene 1 tarjeta Queda libre de la cárcel" in table.read(f"{trade}&lang=es")
