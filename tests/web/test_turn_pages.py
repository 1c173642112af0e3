"""The turn in two taps through Flask's test client: the pad, the landing worked out, the
undo in the result message, the way out of a debt (R1, R2, P2, C2, K1, J1)."""

from __future__ import annotations

import html
import re

from ..support import ALL_EDITIONS
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


def token_of(app, game_id, seat):
    from tablebank.models import Game, db

    with app.app_context():
        return db.session.get(Game, game_id).players[seat].token


def test_k1_quick_money_from_a_players_card_is_one_tap_on_the_amount(client, app):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/player/0").text
    assert 'name="amount" value="50"' in page and "Ana pays Bea" in page
    client.post(f"/g/{game_id}/quick/0", data={"to": "1", "amount": "50"})
    client.post(f"/g/{game_id}/quick/1", data={"to": "bank", "amount": "typed", "typed": "25"})
    client.post(f"/g/{game_id}/quick/0", data={"to": "from_bank", "amount": "100"})
    players = state(app, game_id).players
    assert (players[0].cash, players[1].cash) == (1500 - 50 + 100, 1500 + 50 - 25)


def test_k1_pay_someone_on_a_players_phone(client, app):
    game_id = new_game(client)
    token = token_of(app, game_id, 1)
    page = client.get(f"/p/{token}").text
    assert "Pay someone" in page and 'name="amount" value="50"' in page
    client.post(f"/p/{token}/pay", data={"to": "0", "amount": "50"})
    client.post(f"/p/{token}/pay", data={"to": "from_bank", "amount": "20"})  # never from the bank
    players = state(app, game_id).players
    assert (players[0].cash, players[1].cash) == (1550, 1500 - 50 - 20)


def test_r1_a_phone_takes_its_own_turn_only_when_the_banker_allows(client, app):
    game_id = new_game(client)
    token = token_of(app, game_id, 0)
    roll = {"kind": "roll", "payload": '{"dice": 5, "land": {"kind": "buy", "deed": 5}}'}
    assert client.post(f"/p/{token}/do", data=roll).status_code == 403
    assert 'name="dice"' not in client.get(f"/p/{token}").text
    do(client, game_id, "phone_turns", allow="true")
    assert 'name="dice"' in client.get(f"/p/{token}").text
    page = client.get(f"/p/{token}/turn?dice=5").text
    assert "Ana buys Reading Railroad" in page
    client.post(f"/p/{token}/do", data={"kind": "roll", "payload": payloads(page)[0]})
    assert state(app, game_id).deeds[READING].owner == 0
    other = token_of(app, game_id, 0)
    assert client.get(f"/p/{other}/turn?dice=5").status_code == 302  # Bea's turn now


def test_p1_auction_chips_bid_in_one_tap_each(client, app):
    game_id = new_game(client)
    tap(client, game_id, client.get(f"/g/{game_id}/turn?dice=5").text, index=1)  # declined
    page = client.get(f"/g/{game_id}/auction").text
    assert 'id="live"' in page and "Ana bids $10" in page
    chips = payloads(page)
    bea_fifty = next(p for p in chips if '"player": 1' in p and '"amount": 50' in p)
    client.post(f"/g/{game_id}/do", data={"kind": "bid", "payload": bea_fifty})
    fragment = client.get(f"/g/{game_id}/auction?fragment=1").text
    assert "Highest $50 by Bea" in fragment and "Ana bids $60" in fragment
    assert "<html" not in fragment


def test_r1_a_position_is_corrected_from_the_space_list(client, app):
    game_id = new_game(client)
    spaces = client.get(f"/g/{game_id}/land/0").text
    assert 'id="here"' in spaces
    page = client.get(f"/g/{game_id}/land/0/24").text
    assert "Only put the token here" in page
    client.post(f"/g/{game_id}/do", data={"kind": "place", "payload": payloads(page)[-1]})
    after = state(app, game_id)
    assert after.players[0].position == 24 and after.players[0].cash == 1500


def test_k1_a_refused_money_move_offers_the_way_out_too(client):
    game_id = new_game(client)
    page = client.get(f"/g/{game_id}/money?kind=bank_collect&player=1&amount=2000").text
    assert "Bea cannot pay $2,000" in page and "/owe?kind=bank_collect" in page
