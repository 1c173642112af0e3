"""Error pages: styled, sized for a phone, in the reader's language, saying what to do."""

from __future__ import annotations

import pytest
from flask import abort


def looks_like_ours(page: str) -> None:
    assert '<meta name="viewport"' in page
    assert "/static/app.css" in page
    assert "Werkzeug" not in page and "check your spelling" not in page


def test_a_replaced_player_link_says_to_ask_the_banker_for_the_new_code(table):
    table.new_game()
    old = table.tokens()[1]
    table.client.post(f"/g/{table.id}/codes/1/new")
    response = table.client.get(f"/p/{old}")
    assert response.status_code == 404
    looks_like_ours(response.text)
    assert "ask the banker for your new code" in table.text(response.text).lower()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "pida al banquero su nuevo código"),
        ("ja", "銀行係に新しいコードをもらって"),
    ],
)
def test_the_error_page_speaks_the_readers_language(table, lang, words):
    table.new_game()
    old = table.tokens()[1]
    table.client.post(f"/g/{table.id}/codes/1/new")
    page = table.client.get(f"/p/{old}", headers={"Accept-Language": lang}).text
    assert f'<html lang="{lang}">' in page
    assert words in table.text(page).lower()


def test_a_stranger_on_the_banker_page_is_told_to_open_the_banker_link(table, app):
    table.new_game()
    response = app.test_client().get(f"/g/{table.id}/")
    assert response.status_code == 403
    looks_like_ours(response.text)
    assert "Open the banker link on this phone" in table.text(response.text)


def test_an_unknown_game_and_page_are_styled_404s(table):
    for url in ("/g/nosuchgame/", "/nowhere"):
        response = table.client.get(url)
        assert response.status_code == 404
        looks_like_ours(response.text)
    assert "There is no such game here" in table.read("/g/nosuchgame/", status=404)


def test_conflict_refusal_and_server_error_pages_say_what_to_do(app, table):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/_conflict")
    def conflict():
        abort(409)

    @app.get("/_refused")
    def refused():
        abort(422)

    @app.get("/_broken")
    def broken():
        raise RuntimeError("boom")

    client = app.test_client()
    expected = {
        "/_conflict": (409, "Reload the page to see the game as it is now"),
        "/_refused": (422, "check the figures and try again"),
        "/_broken": (500, "Reload the page; if it happens again, restart tablebank"),
    }
    for url, (code, words) in expected.items():
        response = client.get(url)
        assert response.status_code == code
        looks_like_ours(response.text)
        assert words in table.text(response.text)
        assert "boom" not in response.text
    spanish = client.get("/_broken?lang=es")
    assert spanish.status_code == 500 and '<html lang="es">' in spanish.text


def test_the_api_still_answers_errors_in_json(client):
    response = client.get("/api/games/nosuchgame")
    assert response.status_code == 404
    assert response.is_json
