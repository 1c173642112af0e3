"""The API and the pages share their defaults and their trades: T1's 10% option is the
edition's by default, and Get Out of Jail Free cards change hands in a trade (C3, X1)."""

from __future__ import annotations

from ..support import CHEST, INCOME_TAX, JAIL, US, card_of

FLAT = US.spaces[INCOME_TAX].amount


def test_t1_the_classic_us_edition_offers_the_10_percent_option_by_default(table):
    table.new_api_game()  # no income_tax_percent sent
    assert table.game()["settings"]["income_tax_percent"] is True
    landed = table.roll(0, INCOME_TAX)
    [tax] = landed["game"]["pending"]
    assert (tax["what"], tax["seat"], tax["figures"]) == ("tax", 0, {"amount": FLAT, "percent": 10})
    answer = table.preview("tax", player=0, percent=True)
    assert answer.status_code == 200, answer.text
    assert "$150" in answer.get_json()["text"]  # 10% of 1,500
    assert table.paid(answer.get_json()) == [(0, None, 150)]


def test_t1_the_option_can_still_be_turned_off_through_the_api(table):
    table.new_api_game(income_tax_percent=False)
    refused = table.act("roll", 422, player=0, dice=INCOME_TAX, choices=[{"kind": "tax"}])
    assert refused["rule"] == "R1"  # nothing to choose: the flat tax is paid at once
    landed = table.roll(0, INCOME_TAX)
    assert table.paid(landed) == [(0, None, FLAT)]


def test_t1_the_new_game_page_and_the_api_agree_on_the_default(table):
    """Both tick the 10% choice for an edition that prints it, and only for one (issue 22:
    the page's default edition, US since 2008, has no such choice: not ticked, not shown)."""
    page = table.page("/new")
    assert '<option value="us-classic" data-percent="1"' in page
    assert '<option value="us-2008" data-percent' not in page
    assert 'name="income_tax_percent" checked' not in page and 'id="income-tax" hidden' in page
    table.new_api_game()  # us-classic
    assert table.game()["settings"]["income_tax_percent"] is True


def test_c3_x1_a_jail_free_card_drawn_at_the_table_is_sold_through_the_api(table):
    table.new_api_game()
    jail_free = card_of(US, "jail_free", deck="chest")
    table.act("turn_to", player=1)
    table.act("place", player=1, space=JAIL)  # just visiting
    drawn = table.roll(1, CHEST - JAIL, False, {"kind": "card", "card": jail_free.id})
    assert drawn["game"]["players"][1]["jail_free"] == 1
    trade = {"player": 0, "partner": 1, "give": {"cash": 40}, "take": {"jail_free": 1}}
    done = table.act("trade", **trade)
    assert "1 Get Out of Jail Free card from Bea to Ana" in done["text"]
    assert table.paid(done) == [(0, 1, 40)]
    players = table.game()["players"]
    assert [p["jail_free"] for p in players[:2]] == [1, 0]
    assert [p["cash"] for p in players[:2]] == [1460, 1540]


def test_t1_a_refused_new_game_form_keeps_the_10_percent_option_turned_off(table):
    """The form comes back with what was typed: a 10% choice the banker turned off stays off
    (it came back ticked, and the next tap started the game with it on)."""
    form = {"edition": "us-classic", "starting_cash": "1500", "mode": "classic"}
    refused = table.client.post("/new", data=form | {"name0": "Ana", "name1": "ana"})
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "Two players have the same name" in page
    assert 'name="income_tax_percent" checked' not in page
    ticked = table.client.post("/new", data=form | {"name0": "Ana", "income_tax_percent": "on"})
    assert 'name="income_tax_percent" checked' in ticked.get_data(as_text=True)
