"""The banker's way back in (a link and QR at the start and on the codes page) and a new
player link only after the banker confirms it."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from tablebank.models import Game, db

from .test_property_pages import new_game, text


def tokens(app, game_id) -> list[str]:
    with app.app_context():
        return [p.token for p in db.session.get(Game, game_id).players]


def banker_links(page: str) -> list[str]:
    return re.findall(r'href="(http[^"]*\?key=[^"]+)"', html.unescape(page))


def test_a_new_game_shows_the_banker_link_once_and_it_lets_another_phone_in(app):
    banker = app.test_client()
    form = {"edition": "us-classic", "mode": "classic", "name0": "Ana", "name1": "Bea"}
    created = banker.post("/new", data=form)
    game_id = created.headers["Location"].split("/")[2]
    first = banker.get(created.headers["Location"]).text
    assert "Keep this banker link" in text(first)
    assert "<svg" in first
    (link,) = banker_links(first)
    assert "Keep this banker link" not in text(banker.get(f"/g/{game_id}/").text)
    other_phone = app.test_client()
    assert other_phone.get(f"/g/{game_id}/").status_code == 403
    parts = urlsplit(link)
    assert other_phone.get(f"{parts.path}?{parts.query}").status_code == 302
    assert other_phone.get(f"/g/{game_id}/").status_code == 200


def test_a_short_game_shows_the_banker_link_on_the_deal_page(client):
    form = {"edition": "us-classic", "mode": "short", "name0": "Ana", "name1": "Bea"}
    created = client.post("/new", data=form)
    assert created.headers["Location"].endswith("/deal")
    assert "Keep this banker link" in text(client.get(created.headers["Location"]).text)


def test_the_codes_page_shows_the_banker_link_in_words(client):
    game_id = new_game(client)
    client.get(f"/g/{game_id}/")  # the start's own banker link shown there
    page = client.get(f"/g/{game_id}/codes").text
    assert len(banker_links(page)) == 1
    assert "Whoever scans this can act as the banker" in text(page)


def test_lost_phone_asks_before_cutting_the_player_off(client, app):
    game_id = new_game(client)
    before = tokens(app, game_id)[1]
    codes = client.get(f"/g/{game_id}/codes").text
    assert f'href="/g/{game_id}/codes/1/new"' in codes
    asked = client.get(f"/g/{game_id}/codes/1/new")
    assert asked.status_code == 200
    words = text(asked.text)
    assert "A new link for Bea?" in words and "Cancel: keep the current link" in words
    assert tokens(app, game_id)[1] == before  # asking changed nothing
    assert client.get(f"/p/{before}").status_code == 200
    done = client.post(f"/g/{game_id}/codes/1/new")
    assert done.status_code == 302
    assert tokens(app, game_id)[1] != before
    assert client.get(f"/p/{before}").status_code == 404
