"""Safer payments from a player's phone (issue 22): nobody is chosen as payee beforehand, the
payment is named (payee and amount) before one confirming tap, and the player can take back
their own last payment for a minute, and nothing else."""

from __future__ import annotations

from datetime import datetime, timedelta

from tablebank.web import phone_money


def test_the_pay_panel_chooses_nobody_and_names_the_payment_before_the_tap(table):
    table.new_game(names=("Ana", "Bea"))
    phone = table.app.test_client()
    page = table.page(table.phone(0), phone)
    pay_part = page.split('class="pay"')[1]
    assert 'name="to"' in pay_part and "checked" not in pay_part.split("</fieldset>")[0]
    asked = table.page(f"{table.phone(0)}/preview?to=1&amount=50", phone)
    assert table.button(asked, "Ana pays Bea $50")
    assert table.cash() == [1500, 1500]  # nothing is paid by the preview
    table.press(asked, "Ana pays Bea $50", phone)
    assert table.cash() == [1450, 1550]
    typed = table.page(f"{table.phone(0)}/preview?to=bank&amount=typed&typed=75", phone)
    assert table.button(typed, "Ana pays the bank $75")


def test_a_player_takes_back_their_own_last_payment_within_a_minute(table):
    table.new_game(names=("Ana", "Bea"))
    phone = table.app.test_client()
    table.press(table.page(f"{table.phone(0)}/preview?to=1&amount=50", phone), "Ana", phone)
    page = table.page(table.phone(0), phone)
    assert table.button(page, "Take back: Ana pays Bea $50")
    assert "Take back" not in table.page(table.phone(1))  # not Bea's payment
    refused = table.app.test_client().post(f"{table.phone(1)}/take-back", data={})
    assert refused.status_code == 302 and table.cash() == [1450, 1550]
    table.press(page, "Take back: Ana pays Bea $50", phone)
    assert table.cash() == [1500, 1500]
    assert "Undo: Ana pays Bea $50" in table.read(table.phone(0), phone)


class TwoMinutesLater(datetime):
    """The clock, two minutes on (a logged row never changes: the time moves instead)."""

    @classmethod
    def now(cls, tz=None):
        return datetime.now(tz) + timedelta(minutes=2)


def test_a_payment_older_than_a_minute_or_followed_by_another_action_stays(table, monkeypatch):
    table.new_game(names=("Ana", "Bea"))
    phone = table.app.test_client()
    table.press(table.page(f"{table.phone(0)}/preview?to=1&amount=50", phone), "Ana", phone)
    table.act("bank_pay", player=1, amount=10)  # something happened since
    assert "Take back" not in table.page(table.phone(0), phone)
    table.press(table.page(f"{table.phone(0)}/preview?to=1&amount=20", phone), "Ana", phone)
    monkeypatch.setattr(phone_money, "datetime", TwoMinutesLater)  # the clock moved on
    assert "Take back" not in table.page(table.phone(0), phone)
    answer = phone.post(f"{table.phone(0)}/take-back", data={}, follow_redirects=True)
    assert "Only your own last payment can be taken back, within a minute" in answer.text
    assert table.cash() == [1430, 1580]


def test_a_payment_confirmed_twice_is_paid_once_and_the_second_answer_says_already_done(table):
    """The same confirm form posted again (a double tap without JavaScript, Back to the page
    and tap): paid once, and the phone says it was already done, not the payment again."""
    table.new_game(names=("Ana", "Bea"))
    phone = table.app.test_client()
    asked = table.page(f"{table.phone(0)}/preview?to=1&amount=50", phone)
    table.press(asked, "Ana pays Bea $50", phone)
    again = table.press(asked, "Ana pays Bea $50", phone)
    assert table.cash() == [1450, 1550]
    assert "Already done: Ana pays Bea $50" in table.read(again.location, phone)


def test_a_take_back_sent_twice_says_already_done_not_that_it_cannot_be_taken_back(table):
    table.new_game(names=("Ana", "Bea"))
    phone = table.app.test_client()
    table.press(table.page(f"{table.phone(0)}/preview?to=1&amount=50", phone), "Ana", phone)
    page = table.page(table.phone(0), phone)
    table.press(page, "Take back: Ana pays Bea $50", phone)
    again = table.press(page, "Take back: Ana pays Bea $50", phone)
    assert table.cash() == [1500, 1500]
    shown = table.read(again.location, phone)
    assert "Already done: Undo: Ana pays Bea $50" in shown
    assert "Only your own last payment" not in shown
