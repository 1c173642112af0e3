"""The Undo beside the result of the banker's tap takes back that action or nothing: without
JavaScript the banker's page is drawn after the post, and another device may act in between."""

from __future__ import annotations

import re

import pytest

from ..tables import WebTable


@pytest.fixture
def table(app, client):
    return WebTable(app, client)


def test_the_flash_s_undo_never_takes_back_another_device_s_action(table):
    table.new_api_game()
    table.do("bank_pay", player=0, amount=200)  # the banker's tap: Ana is paid $200
    table.act("bank_pay", player=1, amount=10)  # meanwhile another device pays Bea $10
    page = table.page(f"/g/{table.id}/")
    flash = re.search(r'<div class="flash done".*?</div>', page, re.S)[0]
    assert "The bank pays Ana $200" in table.text(flash)

    answer = table.press(flash, "Undo")

    assert answer.status_code == 409
    assert "nothing was done" in table.text(answer.text)
    assert table.cash()[:2] == [1500 + 200, 1500 + 10]  # neither action taken back
    assert not any(row.get("undone") for row in table.history())
