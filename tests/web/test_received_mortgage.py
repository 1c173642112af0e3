"""M4 with K2 on phones: Bea's own phone declares her bankruptcy to Cai, and cannot choose
for him whether to lift the mortgaged deed he receives. The rules core leaves that choice
waiting for Cai: his phone (phone turns on) and the banker's dashboard draw it from the
core's answer, the API lists it with what the game waits for, and his tap pays the bank."""

from __future__ import annotations

from tablebank import logbook
from tablebank.models import Game
from tablebank.rules import new_game
from tablebank.rules.property import interest, lift_cost
from tablebank.rules.setup import RULES

from ..support import BOARDWALK, MEDITERRANEAN, US, setup_of

VALUE = US.spaces[MEDITERRANEAN].mortgage
RECEIVED = "Cai receives Mediterranean Avenue mortgaged"
KEEP = "Cai pays $3 interest and keeps Mediterranean Avenue mortgaged"
LIFT = "Cai lifts Mediterranean Avenue now for $33"


def bea_bankrupt_on_her_phone(table, app):
    """Bea, with mortgaged Mediterranean Avenue and no cash, lands on Cai's Boardwalk and
    gives up on her own phone."""
    table.new_game(("Ana", "Bea", "Cai"))
    table.do("phone_turns", allow=True)
    table.own(2, BOARDWALK)
    table.own(1, MEDITERRANEAN)
    table.act("mortgage", player=1, deed=MEDITERRANEAN)
    table.act("bank_collect", player=1, amount=table.cash()[1])
    table.throws_onto(1, BOARDWALK, 5)
    bea = app.test_client()
    table.press(table.page(table.phone(1), bea), "Bea is bankrupt, owing $50 to Cai", client=bea)
    assert table.state().players[1].bankrupt


def test_m4_k2_the_creditor_s_phone_asks_to_lift_now_or_keep_and_keeping_pays_the_bank(table, app):
    """M4: Cai was not asked with the bankruptcy: his phone shows the choice, with the deed's
    figures, and nothing is paid yet. Keeping it mortgaged takes the 10% from Cai to the
    bank (Ana's and Bea's cash stay as they were); the deed stays mortgaged, the game goes on.
    The banker's undo brings the choice back."""
    bea_bankrupt_on_her_phone(table, app)
    before = table.cash()
    cai = app.test_client()
    page = table.page(table.phone(2), cai)
    words = table.text(page)
    assert RECEIVED in words
    lift, keep = lift_cost(VALUE), interest(VALUE)
    assert f"Lift it now for ${lift} in all, or pay ${keep} interest" in words
    assert table.button(page, LIFT) and table.button(page, KEEP)
    table.press(page, KEEP, client=cai)
    after = table.cash()
    assert after[2] == before[2] - interest(VALUE)
    assert after[:2] == before[:2]  # the 10% went to the bank, to no player
    deed = table.state().deeds[MEDITERRANEAN]
    assert deed.owner == 2 and deed.mortgaged
    assert RECEIVED not in table.read(table.phone(2), cai)
    table.do("undo")
    assert table.cash() == before and RECEIVED in table.read(table.phone(2), cai)


def test_m4_k2_the_dashboard_offers_the_creditor_s_choice_and_lifting_now_costs_110_percent(
    table, app
):
    bea_bankrupt_on_her_phone(table, app)
    before = table.cash()
    dashboard = table.page(f"/g/{table.id}/")
    assert RECEIVED in table.text(dashboard) and table.button(dashboard, KEEP)
    table.press(dashboard, LIFT)
    assert table.cash()[2] == before[2] - VALUE - interest(VALUE)
    assert not table.state().deeds[MEDITERRANEAN].mortgaged


def test_m4_k2_the_api_lists_the_creditor_s_choice_with_what_the_game_waits_for(table, app):
    """M4: `pending` has the choice for seat 2 with the deed's figures and its two actions;
    the keep action is sent like any other and its movement is Cai's 10% to the bank."""
    bea_bankrupt_on_her_phone(table, app)
    (wait,) = [w for w in table.game()["pending"] if w["what"] == "received"]
    assert (wait["seat"], wait["space"]) == (2, MEDITERRANEAN)
    assert wait["figures"] == {"mortgage": VALUE, "interest": 3, "lift": VALUE + 3}
    choice = {"player": 2, "deed": MEDITERRANEAN}
    assert [(a["kind"], a["fields"]) for a in wait["actions"]] == [
        ("lift", choice),
        ("keep_mortgaged", choice),
    ]
    refused = table.send("roll", player=2, dice=7)
    assert refused.status_code == 422 and refused.get_json()["rule"] == "M4"
    done = table.act("keep_mortgaged", **choice)
    assert table.paid(done) == [(2, None, interest(VALUE))]
    assert [w["what"] for w in done["game"]["pending"]] == ["roll"]


def test_m4_check_and_repair_still_replay_a_game_logged_under_rules_2():
    """A game logged under rules 2 (before the creditor's choice waited) is still replayed
    by `flask check` and `repair`, with that rule as it then was (Settings.receiver_chooses
    off); only the rules before the game owned the turn are history only."""
    assert logbook.replayable(Game(setup={"rules": 2}))
    assert logbook.replayable(Game(setup={"rules": RULES}))
    assert not logbook.replayable(Game(setup={}))
    assert not new_game(US, {**setup_of(), "rules": 2}).settings.receiver_chooses
    assert new_game(US, {**setup_of(), "rules": RULES}).settings.receiver_chooses
