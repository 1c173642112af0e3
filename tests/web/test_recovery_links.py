"""The banker's way back in (a link and QR at the start and on the codes page) and a new
player link only after the banker confirms it."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit


def banker_links(page: str) -> list[str]:
    return re.findall(r'href="(http[^"]*\?key=[^"]+)"', html.unescape(page))


def test_a_new_game_shows_the_banker_link_once_and_it_lets_another_phone_in(table, app):
    form = {"edition": "us-classic", "mode": "classic", "name0": "Ana", "name1": "Bea"}
    created = table.client.post("/new", data=form)
    game_id = created.headers["Location"].split("/")[2]
    first = table.page(created.headers["Location"])
    assert "Keep this banker link" in table.text(first)
    assert "<svg" in first
    (link,) = banker_links(first)
    assert "Keep this banker link" not in table.read(f"/g/{game_id}/")
    other_phone = app.test_client()
    assert other_phone.get(f"/g/{game_id}/").status_code == 403
    parts = urlsplit(link)
    assert other_phone.get(f"{parts.path}?{parts.query}").status_code == 302
    assert other_phone.get(f"/g/{game_id}/").status_code == 200


def test_a_short_game_shows_the_banker_link_on_the_deal_page(table):
    form = {"edition": "us-classic", "mode": "short", "name0": "Ana", "name1": "Bea"}
    created = table.client.post("/new", data=form)
    assert created.headers["Location"].endswith("/deal")
    assert "Keep this banker link" in table.read(created.headers["Location"])


def test_the_codes_page_shows_the_banker_link_in_words(table):
    table.new_game()
    table.page(f"/g/{table.id}/")  # the start's own banker link shown there
    page = table.page(f"/g/{table.id}/codes")
    assert len(banker_links(page)) == 1
    assert "Whoever scans this can act as the banker" in table.text(page)


def test_lost_phone_asks_before_cutting_the_player_off(table):
    table.new_game()
    before = table.tokens()[1]
    codes = table.page(f"/g/{table.id}/codes")
    assert f'href="/g/{table.id}/codes/1/new"' in codes
    words = table.read(f"/g/{table.id}/codes/1/new")
    assert "A new link for Bea?" in words and "Cancel: keep the current link" in words
    assert table.tokens()[1] == before  # asking changed nothing
    assert table.client.get(f"/p/{before}").status_code == 200
    done = table.client.post(f"/g/{table.id}/codes/1/new")
    assert done.status_code == 302
    assert table.tokens()[1] != before
    assert table.client.get(f"/p/{before}").status_code == 404
