"""The API and the pages share their defaults and their trades: T1's 10% option is the
edition's by default, and Get Out of Jail Free cards change hands in a trade (C3, X1)."""

from __future__ import annotations

from ..support import setup_of

INCOME_TAX = 4


def create(client, **setup):
    response = client.post("/api/games", json={**setup_of(), **setup})
    assert response.status_code == 201, response.text
    body = response.get_json()
    return body["id"], {"X-Banker-Key": body["banker_key"]}


def preview_tax(client, game, percent: bool):
    game_id, headers = game
    fields = {"kind": "tax", "player": 0, "space": INCOME_TAX, "percent": percent}
    return client.post(f"/api/games/{game_id}/preview", json=fields, headers=headers)


def test_t1_the_classic_us_edition_offers_the_10_percent_option_by_default(client):
    game = create(client)  # no income_tax_percent sent
    game_id, headers = game
    settings = client.get(f"/api/games/{game_id}", headers=headers).get_json()["settings"]
    assert settings["income_tax_percent"] is True
    answer = preview_tax(client, game, percent=True)
    assert answer.status_code == 200, answer.text
    assert "$150" in answer.get_json()["text"]  # 10% of 1,500


def test_t1_the_option_can_still_be_turned_off_through_the_api(client):
    game = create(client, income_tax_percent=False)
    assert preview_tax(client, game, percent=True).status_code == 422


def test_t1_the_new_game_page_and_the_api_agree_on_the_default(client):
    page = client.get("/new").text
    assert 'name="income_tax_percent" checked' in page
    game_id, headers = create(client)
    state = client.get(f"/api/games/{game_id}", headers=headers).get_json()
    assert state["settings"]["income_tax_percent"] is True


def test_c3_x1_a_jail_free_card_is_sold_through_the_api(client):
    game = create(client)
    game_id, headers = game
    drawn = {"kind": "card", "player": 1, "card": "chest-5"}
    assert (
        client.post(f"/api/games/{game_id}/actions", json=drawn, headers=headers).status_code == 201
    )
    trade = {
        "kind": "trade",
        "player": 0,
        "partner": 1,
        "give": {"cash": 40},
        "take": {"jail_free": 1},
    }
    done = client.post(f"/api/games/{game_id}/actions", json=trade, headers=headers)
    assert done.status_code == 201, done.text
    assert "1 Get Out of Jail Free card from Bea to Ana" in done.get_json()["text"]
    players = client.get(f"/api/games/{game_id}", headers=headers).get_json()["players"]
    assert [p["jail_free"] for p in players[:2]] == [1, 0]
    assert [p["cash"] for p in players[:2]] == [1460, 1540]
