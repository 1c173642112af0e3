"""The turn in two taps through Flask's test client: the pad, the landing worked out, the
undo in the result message, the way out of a debt (R1, R2, P2, C2, K1, J1)."""

from __future__ import annotations

import html
import re

from ..conftest import ALL_EDITIONS
from .test_pages import do, new_game, state

US = ALL_EDITIONS["us-classic"]
READING, CHEST, INCOME_TAX = 5, 2, 4


def payloads(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r'name="payload" value="([^"]+)"', page)]


def buttons(page: str) -> list[str]:
    found = re.findall(r'<button class="btn[^"]*"[^>]*>(.*?)</button>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", " ", b)).strip() for b in found]


def tap(client, game_id, page: str, index: int = 0):
    return client.post(
        f"/g/{game_id}/do",
        data={"kind": "roll", "payload": payloads(page)[index]},
        follow_redirects=True,
    )


def test_r1_the_dashboard_says_whose_turn_with_a_dice_pad(client):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/").text
    assert "Ana&#39;s turn" in page or "Ana's turn" in page
    assert all(f'name="dice" value="{n}"' in page for n in range(2, 13))
    assert 'name="doubles"' in page


def test_p1_two_taps_roll_and_buy_then_the_turn_passes(client, app):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/turn?dice=5").text
    price = US.spaces[READING].price
    assert (
        f"Ana throws 5 and moves to Reading Railroad; Ana buys Reading Railroad for ${price}"
        in (buttons(page))
    )
    done = tap(client, game_id, page)
    after = state(app, game_id)
    assert after.deeds[READING].owner == 0 and after.players[0].cash == 1500 - price
    assert "Bea&#39;s turn" in done.text or "Bea's turn" in done.text


def test_p2_the_rent_is_worked_out_before_the_second_tap(client, app):
    game_id = new_game(client)
    tap(client, game_id, client.get(f"/g/{game_id}/turn?dice=5").text)  # Ana buys Reading
    page = client.get(f"/g/{game_id}/turn?dice=5").text
    rent = US.spaces[READING].rent[0]
    assert f"Bea throws 5 and moves to Reading Railroad; Bea pays Ana ${rent} rent" in page
    tap(client, game_id, page)
    assert state(app, game_id).players[1].cash == 1500 - rent


def test_r1_the_result_message_has_its_undo(client, app):
    game_id = new_game(client)
    done = tap(client, game_id, client.get(f"/g/{game_id}/turn?dice=4").text)
    message = re.search(r'<div class="flash done".*?</div>', done.text, re.S).group(0)
    assert "Income Tax" in message and 'name="kind" value="undo"' in message
    version = re.search(r'name="version" value="(\d+)"', message).group(1)
    do(client, game_id, "undo", version=version)
    after = state(app, game_id)
    assert after.players[0].cash == 1500 and after.players[0].position == 0 and after.turn == 0


def test_c1_c2_cards_are_short_and_the_likely_ones_first(client):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/turn?dice=2").text
    labels = buttons(page)
    assert any(label.startswith("Advance to Go") and "+$200" in label for label in labels)
    assert not any(";" in label for label in labels)
    assert "Drawn lately" not in page


def test_k1_a_refused_rent_leads_to_the_ways_out_and_then_one_tap_pays(client, app):
    game_id = new_game(client)
    tap(client, game_id, client.get(f"/g/{game_id}/turn?dice=5").text)  # Ana buys Reading
    do(client, game_id, "bank_collect", player="1", amount="1490")
    page = client.get(f"/g/{game_id}/turn?dice=5").text
    assert "Bea cannot pay" in page
    link = html.unescape(re.search(r'href="([^"]*/owe\?[^"]*)"', page).group(1))
    dashboard = client.get(link, follow_redirects=True).text
    assert "Bea owes Ana $25" in dashboard
    assert "/bankrupt?player=1&amp;owed=25&amp;creditor=0" in dashboard
    do(client, game_id, "bank_pay", player="1", amount="100")
    dashboard = client.get(f"/g/{game_id}/").text
    pay = re.search(r'<section class="debt".*?</section>', dashboard, re.S).group(0)
    assert "Now pay the $25" in pay and "disabled" not in pay
    client.post(
        f"/g/{game_id}/do",
        data={"kind": "roll", "payload": payloads(pay)[0]},
    )
    assert state(app, game_id).players[1].cash == 110 - 25
    assert 'class="debt"' not in client.get(f"/g/{game_id}/").text


def test_j1_go_to_jail_is_not_offered_for_a_player_already_in_jail(client):
    game_id = new_game(client)
    do(client, game_id, "go_to_jail", player="0")
    labels = buttons(client.get(f"/g/{game_id}/pick/go_to_jail").text)
    assert "Bea goes to jail" in labels and "Ana goes to jail" not in labels


def test_j3_a_jailed_players_turn_offers_the_ways_out(client):
    game_id = new_game(client)
    do(client, game_id, "go_to_jail", player="0")
    page = client.get(f"/g/{game_id}/").text
    assert "Ana pays the $50 fine and leaves jail" in page
    roll = client.get(f"/g/{game_id}/turn?dice=7").text
    assert "stays in jail (try 1 of 3)" in roll
