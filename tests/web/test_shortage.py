"""B5 building auctions as the pages offer them (issue 22): only during a shortage, and won
only onto a street where the winner may build, each offered in words."""

from __future__ import annotations

from ..support import DARK_BLUE, GREEN, LIGHT_BLUE, MEDITERRANEAN, ORANGE


def short_of_houses(table) -> None:
    """Ana builds out the greens and dark blues, Bea the light blues to 3: 3 houses are left
    for Bea's 15 places (3 light blue, 12 orange)."""
    table.new_api_game(names=("Ana", "Bea"), starting_cash=10000)
    table.own(0, *GREEN, *DARK_BLUE)
    table.own(1, *LIGHT_BLUE, *ORANGE, MEDITERRANEAN)
    table.act("build", player=0, group="green", levels="4,4,4")
    table.act("build", player=0, group="dark_blue", levels="4,4")
    table.act("build", player=1, group="light_blue", levels="3,3,3")
    assert table.state().houses == 3


def test_b5_the_build_page_offers_the_house_auction_during_a_shortage_only(table):
    short_of_houses(table)
    page = table.page(f"/g/{table.id}/build")
    assert table.button(page, "The bank auctions a house")
    assert "The bank auctions a hotel" not in page  # 12 hotels left: no shortage of them
    table.press(page, "The bank auctions a house")
    assert table.state().auction.building == "house"


def test_b5_the_house_goes_only_where_the_winner_may_build(table):
    short_of_houses(table)
    table.act("auction_open", building="house")
    table.act("bid", player=1, amount=60)
    page = table.page(f"/g/{table.id}/auction")
    closes = [label for label, enabled in table.buttons(page) if enabled and "Bea" in label]
    assert any("Oriental Avenue" in label for label in closes), closes
    assert not any("Mediterranean" in label for label in closes), closes  # not a whole group
    assert "The space must be a whole number" not in page
    table.press(page, next(label for label in closes if "St. James Place" in label))
    assert table.state().deeds[16].houses == 1


def test_b5_a_building_auction_s_lot_is_translated_in_the_history_too(table):
    """A building's lot ("a house") is words to translate, not a name: the history, which reads
    each action's lines back from the log's JSON, said "El banco subasta a house"."""
    short_of_houses(table)
    table.act("auction_open", building="house")
    table.act("bid", player=1, amount=60)
    spanish = table.read(f"/g/{table.id}/history?lang=es")
    assert "El banco subasta una casa" in spanish and "Bea puja $60 por una casa" in spanish
    japanese = table.read(f"/g/{table.id}/history?lang=ja")
    assert "銀行が 家 を競売にかける" in japanese and "a house" not in japanese
