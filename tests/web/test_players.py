"""Players' own phones: a private token sees and spends only its own money (test client)."""

from __future__ import annotations

import json
import re

from tablebank.models import Player, db
from tablebank.rules.property import lift_cost

from ..support import BOARDWALK, READING, US

PRICE = US.spaces[BOARDWALK].price


def player_do(client, token, kind, **payload):
    data = {"kind": kind, "payload": json.dumps(payload)}
    return client.post(f"/p/{token}/do", data=data)


def test_tokens_carry_at_least_128_random_bits(table):
    table.new_game(("Ana", "Bea", "Cal"))
    found = table.tokens()
    assert len(set(found)) == 3
    assert all(len(t) >= 22 for t in found)  # 16 random bytes, url-safe base64


def test_p2_the_player_page_shows_balance_deeds_rent_received_and_rank(table, app):
    table.new_game()
    table.own(1, BOARDWALK)
    table.throws_onto(0, BOARDWALK)
    page = table.page(table.phone(1), app.test_client())
    rent = US.spaces[BOARDWALK].rent[0]
    assert table.cash() == [1500 - rent, 1500 - PRICE + rent]
    assert re.search(rf'id="balance"[^>]*>\${1500 - PRICE + rent:,}<', page)
    words = table.text(page)
    assert "Boardwalk rent now $50" in words
    assert "rank 1 of 2" in words
    assert "Bea lands on Boardwalk; Bea buys Boardwalk for $400" in words
    assert "Ana throws 7 and moves to Boardwalk; Ana pays Bea $50 rent for Boardwalk" in words


def test_sg4_players_of_equal_worth_share_a_rank_on_their_phones(table, app):
    """SG4: a rank says how many are richer. Players of equal worth (every one, as a game
    starts) share it, as they share a win, and each phone says it is shared; no phone reads
    "rank 2" for a tie."""
    table.new_game(("Ana", "Bea", "Cal"))
    assert [rank_read(table, app, seat) for seat in range(3)] == ["rank 1 of 3, tied"] * 3
    table.do("transfer", **{"from": 2, "to": 0, "amount": 100})
    ranks = [rank_read(table, app, seat) for seat in range(3)]
    assert ranks == ["rank 1 of 3", "rank 2 of 3", "rank 3 of 3"]
    table.do("transfer", **{"from": 1, "to": 2, "amount": 50})  # Bea and Cal: $1,450 each
    ranks = [rank_read(table, app, seat) for seat in range(3)]
    assert ranks == ["rank 1 of 3", "rank 2 of 3, tied", "rank 2 of 3, tied"]


def rank_read(table, app, seat: int) -> str:
    """The rank a player reads on their phone, after their net worth."""
    return re.search(r"rank \d of \d(, tied)?", table.read(table.phone(seat), app.test_client()))[0]


def test_sg4_the_final_standings_give_players_of_equal_worth_the_same_place(table, app):
    """SG4: at the end, players of equal worth share a place on the table screen and on every
    phone, as they would share a win: Cal, worth what Bea is, is second with her, not third."""
    table.new_game(("Ana", "Bea", "Cal"))
    table.do("transfer", **{"from": 2, "to": 0, "amount": 100})
    table.do("transfer", **{"from": 1, "to": 2, "amount": 50})
    table.do("end_game")
    for page in (table.page(table.screen()), table.page(table.phone(2), app.test_client())):
        standings = page.split('class="standings"')[1].split("</section>")[0]
        places = re.findall(r'<li value="(\d)".*?class="name">(\w+)<', standings, re.S)
        assert places == [("1", "Ana"), ("2", "Bea"), ("2", "Cal")]
        assert "1. A Ana $1,600 2. B Bea $1,450 2. C Cal $1,450" in table.text(standings)


def test_a_player_pays_another_from_their_own_balance(table, app):
    table.new_game()
    phone, ana = app.test_client(), table.tokens()[0]
    preview = table.page(f"/p/{ana}/preview?to=1&amount=120", phone)
    assert "Ana pays Bea $120" in preview
    player_do(phone, ana, "transfer", to=1, amount=120)
    assert table.cash() == [1380, 1620]


def test_a_token_cannot_move_another_player_s_money(table, app):
    table.new_game()
    phone, ana = app.test_client(), table.tokens()[0]
    player_do(phone, ana, "transfer", **{"from": 1, "to": 0, "amount": 500})
    assert table.cash() == [1500, 1500]  # "from" is forced to Ana: she cannot pay herself
    player_do(phone, ana, "bank_collect", player=1, amount=100)
    assert table.cash() == [1400, 1500]  # Ana's own money paid, never Bea's


def test_a_token_cannot_do_a_banker_action(table, app):
    table.new_game()
    phone, ana = app.test_client(), table.tokens()[0]
    for kind in ("bank_pay", "pass_go", "buy", "undo", "build", "end_game", "land"):
        assert player_do(phone, ana, kind, player=0, amount=500, deed=39).status_code == 403
    assert phone.get(f"/g/{table.id}/").status_code == 403
    assert phone.post(f"/g/{table.id}/do", data={"kind": "bank_pay"}).status_code == 403
    assert table.cash() == [1500, 1500]


def test_r1_with_phone_turns_a_phone_still_acts_only_for_its_own_seat(table, app):
    """R1: Ana's phone sends a throw for Bea on Bea's turn: the seat is Ana's, whatever the
    form says, and Ana's throw is refused (not her turn); nothing changes."""
    table.new_game()
    table.do("phone_turns", allow=True)
    table.act("turn_to", player=1)
    before = table.game()
    phone = app.test_client()
    answer = table.phone_do(0, "roll", phone, player=1, dice=5, choices=[{"kind": "buy"}])
    assert answer.status_code == 302
    assert "It is Bea's turn" in table.read(answer.headers["Location"], phone)
    assert table.game() == before


def test_a_revoked_token_is_refused_and_the_new_one_works(table, app):
    table.new_game()
    old = table.tokens()[1]
    table.client.post(f"/g/{table.id}/codes/1/new")
    new = table.tokens()[1]
    phone = app.test_client()
    assert new != old
    assert phone.get(f"/p/{old}").status_code == 404
    assert player_do(phone, old, "bank_collect", amount=10).status_code == 404
    assert phone.get(f"/p/{new}").status_code == 200
    assert table.cash() == [1500, 1500]


def test_a_link_replaced_while_its_stream_opens_ends_that_stream(table, app, monkeypatch):
    """The stream has read what opened it (the old link) but does not follow the game yet
    when the banker replaces the link: it says `gone` as it starts following, instead of
    living on until its end with a link that no longer opens anything."""
    from tablebank.live import Watcher, watcher
    from tablebank.web import streams

    monkeypatch.setattr(streams, "KEEPALIVE", 0.01)
    # Only the news of the change, as on PostgreSQL: no sweep reads the keys meanwhile.
    monkeypatch.setattr(Watcher, "_sweep", lambda _watcher, _read: None)
    table.new_game()
    old = table.tokens()[1]
    opened = app.test_client().get(f"/p/{old}/live?v=0", buffered=False)
    events = (chunk.decode() for chunk in opened.response if chunk)
    try:
        assert "retry" in next(events)  # answered, not following yet
        table.client.post(f"/g/{table.id}/codes/1/new")
        assert "event: gone" in next(events)
    finally:
        opened.close()
        watcher(app).stop()


def test_codes_page_shows_a_qr_code_per_player_and_the_table(table):
    table.new_game()
    table.page(f"/g/{table.id}/")  # the first page, with the banker link to keep
    page = table.page(f"/g/{table.id}/codes")
    assert page.count("<svg") == 4  # Ana, Bea, the banker on another phone, the table
    for token in table.tokens():
        assert f"/p/{token}" in page
    sheet = table.page(f"/g/{table.id}/codes?print=1")
    assert sheet.count("<svg") == 3  # no banker code on the printable sheet


def offer_boardwalk_to_bea(table) -> int:
    """Ana buys Boardwalk at a landing, then offers it to Bea for $500: the offer's id."""
    table.new_game()
    table.own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    table.do("trade_offer", **trade)
    [offer] = table.game()["offers"]  # the API's game lists the open offers
    assert (offer["player"], offer["partner"], offer["give"]) == (0, 1, {"deeds": [BOARDWALK]})
    return offer["id"]


def test_x1_a_trade_offered_to_a_phone_is_accepted_there(table, app):
    offer = offer_boardwalk_to_bea(table)
    phone, bea = app.test_client(), table.tokens()[1]
    page = table.read(f"/p/{bea}", phone)
    assert "Trade offered to you" in page
    assert "Ana trades with Bea; Boardwalk from Ana to Bea; $500 from Bea to Ana" in page
    player_do(app.test_client(), table.tokens()[0], "trade_accept", offer=offer)
    assert table.cash() == [1500 - PRICE, 1500]  # only the partner accepts
    player_do(phone, bea, "trade_accept", offer=offer)
    assert table.cash() == [1500 - PRICE + 500, 1000]
    assert table.state().deeds[BOARDWALK].owner == 1 and table.game()["offers"] == []


def test_m4_a_mortgaged_deed_offered_to_a_phone_may_be_lifted_there_at_once(table, app):
    """M4: receiving a mortgaged deed, the new owner pays the 10% at once, or lifts it at
    the same moment for the mortgage value alone: Bea's phone offers both, and "Accept and
    lift now" costs her the value plus the 10% (110% in all) and Boardwalk is hers, clear."""
    table.new_game()
    table.own(0, BOARDWALK)
    table.act("mortgage", player=0, deed=BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    table.do("trade_offer", **trade)
    phone = app.test_client()
    page = table.page(table.phone(1), phone)
    assert table.button(page, "Accept") and table.button(page, "Accept and lift now")
    ana = table.cash()[0]
    table.press(page, "Accept and lift now", client=phone)
    mortgage = US.spaces[BOARDWALK].mortgage
    assert table.cash() == [ana + 500, 1500 - 500 - lift_cost(mortgage)]
    boardwalk = table.state().deeds[BOARDWALK]
    assert boardwalk.owner == 1 and not boardwalk.mortgaged


def test_x1_a_trade_declined_on_the_phone_changes_nothing(table, app):
    offer = offer_boardwalk_to_bea(table)
    player_do(app.test_client(), table.tokens()[1], "trade_decline", offer=offer)
    assert table.cash() == [1500 - PRICE, 1500]
    assert table.state().deeds[BOARDWALK].owner == 0 and table.game()["offers"] == []


def test_k1_the_debtor_pays_the_debt_from_their_own_phone(table, app):
    """K1: pay_debt is the debtor's own, phone turns or not; the rent reaches Ana."""
    table.new_game()
    table.own(0, READING)
    table.act("bank_collect", player=1, amount=1490)
    table.throws_onto(1, READING, 5)
    phone = app.test_client()
    page = table.page(table.phone(1), phone)
    assert "You owe Ana $25" in table.text(page)
    assert not table.button(page, "Pay the debt")  # $10 cash
    table.do("bank_pay", player=1, amount=100)
    page = table.page(table.phone(1), phone)
    table.press(page, "Bea pays Ana the $25 owed", client=phone)
    assert table.cash() == [1500 - US.spaces[READING].price + 25, 110 - 25]
    assert "You owe" not in table.read(table.phone(1), phone)


def test_k2_m4_the_debtor_s_phone_cannot_make_the_creditor_lift_a_mortgage(table, app):
    """K2, M4: lifting a received mortgage at once is the creditor's choice. Bea's phone
    declares her bankruptcy with `lift` added to the form: refused in words, nothing done;
    without it Ana takes mortgaged Reading and pays only the 10% (M4)."""
    table.new_game()
    table.do("phone_turns", allow=True)
    table.own(0, BOARDWALK)
    table.own(1, READING)
    table.act("mortgage", player=1, deed=READING)
    table.act("bank_collect", player=1, amount=table.cash()[1])
    table.throws_onto(1, BOARDWALK, 5)
    before, phone = table.game(), app.test_client()
    answer = table.phone_do(1, "bankrupt", phone, player=1, lift=[READING])
    assert "lift is another player's choice, not this phone's" in table.read(
        answer.headers["Location"], phone
    )
    assert table.game() == before
    ana = table.cash()[0]
    table.phone_do(1, "bankrupt", phone, player=1)
    interest = -(-US.spaces[READING].mortgage // 10)
    assert table.cash()[0] == ana - interest
    reading = table.state().deeds[READING]
    assert reading.owner == 0 and reading.mortgaged


def test_the_table_screen_draws_the_board_with_owners(table, app):
    table.new_game()
    table.own(0, BOARDWALK)
    with app.app_context():
        assert db.session.query(Player).count() == 2
    page = table.page(table.screen(), app.test_client())
    assert page.count('<div class="sq ') == 40
    assert '--owner: #e03131;" data-space="39"' in page  # Boardwalk in Ana's colour
    assert "$1,100" in page and "$1,500" in page


def test_r1_a_phone_form_drawn_before_the_game_moved_on_is_refused_with_the_way_back(table, app):
    """R1: Ana's phone shows her throw; meanwhile the banker acts. Her tap on the old page
    is a 409 that says the turn was taken, with a link back to her page; nothing changes."""
    table.new_game()
    table.do("phone_turns", allow=True)
    phone = app.test_client()
    turn = table.dice(table.page(table.phone(0), phone), 5, client=phone).text
    table.act("pass_go", player=1)
    before = table.game()
    answer = table.press(turn, "Ana throws 5 and moves to Reading Railroad; Ana buys", phone)
    assert answer.status_code == 409
    assert "This turn was already taken" in table.text(answer.text)
    assert f'href="{table.phone(0)}"' in answer.text
    assert table.game() == before


def test_r1_a_turn_link_for_a_seat_whose_turn_it_is_not_says_whose_turn_it_is(table, app):
    """R1: Bea opens a throw's address on Ana's turn (a crafted or old link, never her turn):
    the page says it is Ana's turn, not that Bea's turn was taken; nothing changes."""
    table.new_game()
    table.do("phone_turns", allow=True)
    before = table.game()
    for query in ("dice=6", f"dice=6&v={before['version']}"):
        answer = app.test_client().get(f"{table.phone(1)}/turn?{query}")
        assert answer.status_code == 409
        words = table.text(answer.text)
        assert "It is Ana's turn" in words and "Nothing was done." in words
        assert "already taken" not in words and "earlier moment" not in words
        assert table.buttons(answer.text) == []
    assert table.game() == before


def test_r1_a_phone_s_turn_page_opened_again_after_the_throw_says_the_turn_was_taken(table, app):
    """R1: Ana throws from her phone, then her Back button opens the same turn page again:
    that turn was taken (a real second tap), though it is Bea's turn now."""
    table.new_game()
    table.do("phone_turns", allow=True)
    phone = app.test_client()
    turn = table.dice(table.page(table.phone(0), phone), 5, client=phone)
    table.press(turn.text, "Ana throws 5 and moves to Reading Railroad; Ana buys", phone)
    again = phone.get(turn.request.full_path)
    assert again.status_code == 409
    assert "This turn was already taken" in table.text(again.text)
    assert "It is Bea's turn" not in table.text(again.text)


def test_r1_the_codes_page_says_who_takes_the_turns_and_the_switch_says_what_it_will_do(table):
    """R1: a line says who takes the turns now; the button under it names the change."""
    table.new_game()
    page = table.page(f"/g/{table.id}/codes")
    assert "<strong>Only the banker takes turns</strong>" in page
    assert table.buttons(page) == [("Let players take their own turns on their phones", True)]
    table.press(page, "Let players take their own turns on their phones")
    assert table.state().settings.phone_turns
    page = table.page(f"/g/{table.id}/codes")
    assert "<strong>Players take their own turns on their phones</strong>" in page
    assert [b for b in table.buttons(page) if "turns" in b[0]] == [
        ("Let only the banker take turns", True)
    ]
    table.press(page, "Let only the banker take turns")
    assert not table.state().settings.phone_turns
