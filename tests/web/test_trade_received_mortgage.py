"""M4 with X3 on phones: Bea accepts on her own phone a trade that hands her two mortgaged
deeds. Her plain "Accept" does not say, deed by deed, whether she lifts each now: the rules
core leaves a choice per deed waiting for her, and her phone (phone turns on) draws it and
sends her answer, the money going to the bank."""

from __future__ import annotations

from tablebank import logbook
from tablebank.models import Game
from tablebank.rules import new_game
from tablebank.rules.property import interest, lift_cost

from ..support import MEDITERRANEAN, READING, US, setup_of

MEDITERRANEAN_VALUE = US.spaces[MEDITERRANEAN].mortgage
READING_VALUE = US.spaces[READING].mortgage


def test_m4_x3_the_phone_that_accepts_a_trade_asks_for_each_mortgaged_deed(table, app):
    """M4: after "Accept", Bea's phone asks about Mediterranean Avenue and Reading Railroad
    one by one. She lifts the first now (value and 10%) and keeps the second (the 10%): the
    bank gets both, Ana only the $100 of the trade."""
    table.new_game(("Ana", "Bea", "Cai"))
    table.do("phone_turns", allow=True)
    table.own(0, MEDITERRANEAN, READING)
    table.act("mortgage", player=0, deed=MEDITERRANEAN)
    table.act("mortgage", player=0, deed=READING)
    give = {"deeds": [MEDITERRANEAN, READING]}
    table.do("trade_offer", player=0, partner=1, give=give, take={"cash": 100})
    before = table.cash()
    bea = app.test_client()
    table.press(table.page(table.phone(1), bea), "Accept", client=bea)
    assert table.cash() == [before[0] + 100, before[1] - 100, before[2]]
    page = table.page(table.phone(1), bea)
    words = table.text(page)
    assert "Bea receives Mediterranean Avenue mortgaged" in words
    assert "Bea receives Reading Railroad mortgaged" in words
    lift = f"Bea lifts Mediterranean Avenue now for ${lift_cost(MEDITERRANEAN_VALUE)}"
    keep = f"Bea pays ${interest(READING_VALUE)} interest and keeps Reading Railroad mortgaged"
    assert table.button(page, lift) and table.button(page, keep)
    table.press(page, lift, client=bea)
    table.press(table.page(table.phone(1), bea), keep, client=bea)
    charges = lift_cost(MEDITERRANEAN_VALUE) + interest(READING_VALUE)
    assert table.cash() == [before[0] + 100, before[1] - 100 - charges, before[2]]
    deeds = table.state().deeds
    assert (deeds[MEDITERRANEAN].owner, deeds[MEDITERRANEAN].mortgaged) == (1, False)
    assert (deeds[READING].owner, deeds[READING].mortgaged) == (1, True)
    assert "receives" not in table.read(table.phone(1), bea)


def test_m4_games_of_rules_3_replay_with_trades_settled_at_once():
    """A rules 3 log (a plain acceptance kept the deeds, paying the 10%) still replays as it
    was played: `flask check`, repair and import replay it with the choice off."""
    assert logbook.replayable(Game(setup={"rules": 3}))
    assert logbook.replayable(Game(setup={"rules": 4}))
    assert not new_game(US, {**setup_of(), "rules": 3}).settings.trade_receiver_chooses
    assert new_game(US, {**setup_of()}).settings.trade_receiver_chooses
