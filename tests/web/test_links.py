"""The pages' links are kept once built (web/links.py): a page still links where it is
served from, whatever another page drawn by the same process was served under."""

from __future__ import annotations

import re

LINK = re.compile(r'id="to-money" class="btn" href="([^"]+)"')


def money_link(client, game_id: str, root: str = "") -> str:
    page = client.get(f"/g/{game_id}/", environ_overrides={"SCRIPT_NAME": root}).text
    return LINK.search(page).group(1)


def test_a_dashboard_behind_a_proxy_s_prefix_links_under_it_and_one_without_does_not(table):
    table.new_game()
    assert money_link(table.client, table.id) == f"/g/{table.id}/money"
    assert money_link(table.client, table.id, "/bank") == f"/bank/g/{table.id}/money"
    assert money_link(table.client, table.id) == f"/g/{table.id}/money"


def test_each_game_s_dashboard_links_to_its_own_pages(table):
    table.new_game()
    first = table.id
    table.new_game()
    assert money_link(table.client, first) == f"/g/{first}/money"
    assert money_link(table.client, table.id) == f"/g/{table.id}/money"
