"""What a player's phone says about the others, and keeps saying live: whose turn it is, and
a debt owed to this player. A phone's stream draws its part again only when its signature
changes, so each test reads what the open phones' streams send, not only a fresh page."""

from __future__ import annotations

from tablebank.live import watcher

from ..streams import Opened
from ..support import BOARDWALK, READING, US

JUST_VISITING = 10  # a throw of 10 from GO: nothing to choose, the turn passes on


def open_phones(table, app) -> list[Opened]:
    """Every player's phone open, each having shown a part already (the bank pays Ana $10):
    from then on a stream draws its phone again only if its signature changed."""
    seen = table.game()["version"]
    phones = [Opened(app.test_client(), f"/p/{token}/live", seen) for token in table.tokens()]
    streamed(table, phones, table.act("bank_pay", player=0, amount=10)["game"]["version"])
    return phones


def streamed(table, phones: list[Opened], version: int) -> list[str]:
    """The live part each open phone's stream sends for `version`, as a person reads it."""
    found = []
    for phone in phones:
        shown_version, html = phone.next_live()
        assert shown_version == version
        found.append(table.text(html))
    return found


def test_r1_every_phone_says_whose_turn_it_is_and_follows_the_turn_live(table, app):
    """R1, with phone turns: the phones of the players who wait say whose turn it is and that
    it is not theirs; when the turn passes, every open phone says so at once."""
    table.new_api_game(phone_turns=True)
    bea = table.read(table.phone(1), app.test_client())
    assert "It is Ana's turn, not yours" in bea
    assert "not yours" not in table.read(table.phone(0), app.test_client())  # her own pad
    phones = open_phones(table, app)
    try:
        version = table.roll(0, JUST_VISITING)["game"]["version"]
        ana, bea, cal = streamed(table, phones, version)
    finally:
        watcher(app).stop()
    assert "It is Bea's turn, not yours" in ana
    assert "It is Bea's turn, not yours" in cal
    assert "Bea's turn on GO" in bea and "not yours" not in bea


def test_r1_without_phone_turns_every_phone_says_whose_turn_it_is(table, app):
    """R1: the banker takes the turns; each phone, the turn player's too, says whose it is."""
    table.new_api_game()
    for seat in range(3):
        words = table.read(table.phone(seat), app.test_client())
        assert "Ana's turn" in words and "not yours" not in words


def test_k1_the_creditor_s_phone_says_a_debt_is_owed_to_them_live(table, app):
    """K1: while Bea owes Cal the rent she cannot pay, Cal's phone says so (the figure from
    the deed), and stops saying it once she has paid; the others' phones do not say it."""
    table.new_api_game(phone_turns=True)
    table.own(2, BOARDWALK)
    table.act("bank_collect", player=1, amount=1490)  # Bea keeps $10
    rent = US.spaces[BOARDWALK].rent[0]
    phones = open_phones(table, app)
    try:
        version = table.act("land", player=1, space=BOARDWALK)["game"]["version"]
        ana, bea, cal = streamed(table, phones, version)
        assert f"Bea owes you ${rent}" in cal
        assert "owes you" not in ana and "owes you" not in bea
        table.act("bank_pay", player=1, amount=rent)
        version = table.act("pay_debt", player=1)["game"]["version"]
        while (cal_now := phones[2].next_live())[0] < version:
            continue
    finally:
        watcher(app).stop()
    assert "owes you" not in table.text(cal_now[1])
    assert table.cash()[2] == 1500 - US.spaces[BOARDWALK].price + rent


def history_on_phone(table, app, seat: int) -> str:
    """The player's own history, as their phone's page shows it."""
    page = table.page(f"{table.phone(seat)}/history", app.test_client())
    return table.text(page)


def test_x1_a_withdrawn_or_declined_offer_is_in_both_players_own_histories(table, app):
    """X1: an offer answered by either side, withdrawn by Ana or declined by Bea, is in Ana's
    history and in Bea's, after the offer itself; an undo of the withdrawal is in both too."""
    table.new_game(("Ana", "Bea", "Cal"))
    table.own(0, BOARDWALK)
    trade = {"player": 0, "partner": 1, "give": {"deeds": [BOARDWALK]}, "take": {"cash": 500}}
    table.do("trade_offer", **trade)
    assert table.phone_do(0, "trade_decline", player=0, offer=1).status_code == 302
    withdrawn = "Ana withdraws the trade offered to Bea"
    for seat in (0, 1):
        assert withdrawn in history_on_phone(table, app, seat), seat
    assert withdrawn in table.read(table.phone(1), app.test_client())  # her page's own list
    assert "Ana offers Bea a trade" not in history_on_phone(table, app, 2)
    table.act("undo")
    for seat in (0, 1):
        assert f"Undo: {withdrawn}" in history_on_phone(table, app, seat), seat
    table.do("trade_offer", **trade)
    assert table.phone_do(1, "trade_decline", player=1, offer=2).status_code == 302
    for seat in (0, 1):
        assert "Bea declines the trade" in history_on_phone(table, app, seat), seat
    assert withdrawn not in history_on_phone(table, app, 2)


def test_x1_a_trade_of_deeds_accepted_on_a_phone_is_in_the_proposer_s_history(table, app):
    """X1: Bea accepts Ana's offer of a deed for a deed (no money moves): the trade is in
    Ana's own history as it is in Bea's."""
    table.new_game(("Ana", "Bea"))
    table.own(0, BOARDWALK)
    table.own(1, READING)
    trade = {
        "player": 0,
        "partner": 1,
        "give": {"deeds": [BOARDWALK]},
        "take": {"deeds": [READING]},
    }
    table.do("trade_offer", **trade)
    assert table.phone_do(1, "trade_accept", player=1, offer=1).status_code == 302
    assert table.state().deeds[READING].owner == 0
    for seat in (0, 1):
        assert "Ana trades with Bea" in history_on_phone(table, app, seat), seat


def test_k1_the_landing_that_leaves_a_debt_to_cal_is_in_cal_s_own_history(table, app):
    """K1: Bea lands on Cal's Boardwalk and cannot pay the rent: Cal's phone says she owes
    him, and his own history says why (the landing, with the rent from the deed); Ana's,
    who is owed nothing, does not."""
    table.new_api_game(phone_turns=True)
    table.own(2, BOARDWALK)
    table.act("bank_collect", player=1, amount=1490)  # Bea keeps $10
    rent = US.spaces[BOARDWALK].rent[0]
    table.act("land", player=1, space=BOARDWALK)
    owed = f"Bea owes Cal ${rent} rent for Boardwalk"
    assert owed in history_on_phone(table, app, 2)
    assert owed not in history_on_phone(table, app, 0)
