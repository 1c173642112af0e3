"""Pages that say what an action will do before it does it are pinned to the game's version
(`v` in their address, put there by static/app.js): opened there again once the game has
moved on (Back after the tap, and a second tap would do it twice), they say so and offer no
button, only the way back and the way to open the page afresh."""

from __future__ import annotations

import pytest

from ..support import US


def pressed(table, page: str, words: str, client=None) -> None:
    """A tap on a confirm page, and the page its answer leads to (its banner shown there)."""
    answer = table.press(page, words, client=client)
    assert answer.status_code == 302
    table.page(answer.headers["Location"], client)


def moved_on(table, url: str, client=None) -> str:
    page = table.page(url, client, status=409)
    assert "The game has moved on" in table.text(page)
    assert "nothing was done" in table.text(page)
    assert not [words for words, _ in table.buttons(page)]
    return page


@pytest.mark.parametrize(
    ("address", "button"),
    [
        ("pick/pass_go?", "Ana collects $200 salary"),
        ("money?kind=bank_pay&player=0&amount=50&", "The bank pays Ana $50"),
        ("transfer?from=1&to=0&amount=20&", "Bea pays Ana $20"),
    ],
)
def test_g1_a_banker_s_confirm_page_opened_again_after_its_tap_offers_no_second_tap(
    table, address, button
):
    """G1 (once a lap), R1: Ana's salary or a payment, confirmed, then the same page's address
    again: nothing offered twice; opened afresh, the same button is there again."""
    table.new_game(("Ana", "Bea"))
    url = f"/g/{table.id}/{address}v=0"
    page = table.page(url)
    assert 'data-pin="0"' in page
    pressed(table, page, button)
    cash = table.cash()
    assert cash[0] > 1500
    again = moved_on(table, url)
    fresh = f"/g/{table.id}/{address}".rstrip("?&")
    assert f'href="{fresh.replace("&", "&amp;")}"' in again
    assert table.button(table.page(fresh), button)
    assert table.cash() == cash


def test_r1_undo_s_page_opened_again_after_its_undo_does_not_undo_a_second_action(table):
    table.new_game(("Ana", "Bea"))
    table.act("pass_go", player=0)
    table.act("bank_pay", player=1, amount=50)
    url = f"/g/{table.id}/undo?v=2"
    pressed(table, table.page(url), "Undo")
    assert table.cash() == [1500 + US.salary, 1500]
    moved_on(table, url)
    assert table.cash() == [1500 + US.salary, 1500]


def test_a_player_s_confirm_page_opened_again_after_the_payment_offers_no_second_payment(
    table, app
):
    table.new_game(("Ana", "Bea"))
    phone = app.test_client()
    url = f"{table.phone(1)}/preview?to=0&amount=30&v=0"
    pressed(table, table.page(url, phone), "Bea pays Ana $30", phone)
    assert table.cash() == [1530, 1470]
    moved_on(table, url, phone)
    assert table.cash() == [1530, 1470]


def test_a_confirm_page_at_the_game_s_version_is_drawn_as_ever(table):
    """An address without `v`, or with the game's own version, is the page itself."""
    table.new_game(("Ana", "Bea"))
    table.act("pass_go", player=1)
    for url in (f"/g/{table.id}/pick/pass_go", f"/g/{table.id}/pick/pass_go?v=1"):
        page = table.page(url)
        assert table.button(page, "Ana collects $200 salary") and 'data-pin="1"' in page
