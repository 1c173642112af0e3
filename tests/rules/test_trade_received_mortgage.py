"""Rules core, M4 with X3: a trade that does not carry the new owner's lift-now choice for a
mortgaged deed (a phone's plain "Accept", or a deed mortgaged after the offer named it)
leaves that choice waiting for the new owner, one deed at a time, as a bankruptcy does: lift
it now for the value and the 10%, or keep it mortgaged paying the 10%, to the bank. The
banker's trade page sends the choice with the trade: settled at once, as before."""

from __future__ import annotations

import pytest
from tablebank.rules import RuleError, replay
from tablebank.rules.property import interest, lift_cost

from ..support import MEDITERRANEAN, PARK_PLACE, READING, US, Table, paid, setup_of

MEDITERRANEAN_VALUE = US.spaces[MEDITERRANEAN].mortgage  # 30: lifting costs 33
READING_VALUE = US.spaces[READING].mortgage  # 100: the 10% is 10


def ana_offers_two_mortgaged_deeds(table: Table | None = None) -> Table:
    """Ana offers Bea her mortgaged Mediterranean Avenue and Reading Railroad for $100."""
    table = (table or Table()).own(0, MEDITERRANEAN, READING, mortgaged=[MEDITERRANEAN, READING])
    give = {"deeds": [MEDITERRANEAN, READING]}
    table.do("trade_offer", player=0, partner=1, give=give, take={"cash": 100})
    return table


def received(table: Table) -> list[tuple[int, int]]:
    return [(w.seat, w.space) for w in table.waits() if w.what == "received"]


def test_m4_x3_a_trade_accepted_plainly_asks_the_new_owner_deed_by_deed():
    """M4: Bea accepts on her phone. She pays Ana the $100 and nothing yet for the deeds: the
    game waits for her choice on each, with the figures from the deed. She lifts Mediterranean
    Avenue now (value and 10%, to the bank) and keeps Reading Railroad (the 10%, to the bank);
    Ana gets only the $100. The next throw waits until both are chosen."""
    table = ana_offers_two_mortgaged_deeds()
    outcome = table.do("trade_accept", player=1, offer=1)
    assert paid(outcome) == [(1, 0, 100)]
    assert received(table) == [(1, MEDITERRANEAN), (1, READING)]
    wait = next(w for w in table.waits() if w.space == READING)
    assert wait.figures == {
        "mortgage": READING_VALUE,
        "interest": interest(READING_VALUE),
        "lift": lift_cost(READING_VALUE),
    }
    assert table.refused("roll", player=0, dice=7).rule == "M4"

    lifted = table.do("lift", player=1, deed=MEDITERRANEAN)
    assert paid(lifted) == [(1, None, lift_cost(MEDITERRANEAN_VALUE))]  # 33, to the bank
    kept = table.do("keep_mortgaged", player=1, deed=READING)
    assert paid(kept) == [(1, None, interest(READING_VALUE))]  # 10, to the bank
    assert table.cash() == [1600, 1500 - 100 - 33 - 10, 1500]
    assert not table.state.deeds[MEDITERRANEAN].mortgaged
    assert table.state.deeds[READING].mortgaged and table.state.deeds[READING].owner == 1
    assert table.waiting() == [("roll", 0)]


def test_m4_accepting_and_lifting_with_the_answer_settles_at_once():
    """M4: an acceptance that carries Bea's choice (`lift`) lifts what it names and keeps the
    rest at once; nothing waits."""
    table = ana_offers_two_mortgaged_deeds()
    outcome = table.do("trade_accept", player=1, offer=1, lift=[MEDITERRANEAN])
    charges = [lift_cost(MEDITERRANEAN_VALUE), interest(READING_VALUE)]
    assert paid(outcome) == [(1, 0, 100), *((1, None, amount) for amount in charges)]
    assert received(table) == []


def test_m4_a_deed_mortgaged_after_the_offer_waits_for_the_proposer_s_choice():
    """M4: Bea offers $100 for Park Place, not mortgaged then; Ana mortgages it before she
    accepts. Bea was never asked: she is not charged the 10% at once, her choice waits."""
    table = Table().own(0, PARK_PLACE)
    table.do("trade_offer", player=1, partner=0, give={"cash": 100}, take={"deeds": [PARK_PLACE]})
    table.do("mortgage", player=0, deed=PARK_PLACE)
    outcome = table.do("trade_accept", player=0, offer=1)
    assert paid(outcome) == [(1, 0, 100)]
    assert received(table) == [(1, PARK_PLACE)]
    kept = table.do("keep_mortgaged", player=1, deed=PARK_PLACE)
    assert paid(kept) == [(1, None, interest(US.spaces[PARK_PLACE].mortgage))]


def test_m4_the_banker_s_trade_carries_the_choice_and_settles_at_once():
    """M4: the banker's trade page sends each new owner's choice (`lift`, maybe empty): the
    deed named is lifted, the other kept, both paid to the bank at once; nothing waits."""
    table = Table().own(0, MEDITERRANEAN, READING, mortgaged=[MEDITERRANEAN, READING])
    trade = {"player": 0, "partner": 1, "give": {"deeds": [MEDITERRANEAN, READING]}}
    outcome = table.do("trade", **trade, take={"cash": 100}, lift=[MEDITERRANEAN])
    charges = [lift_cost(MEDITERRANEAN_VALUE), interest(READING_VALUE)]
    assert paid(outcome) == [(1, 0, 100), *((1, None, amount) for amount in charges)]
    assert received(table) == []


def test_m4_a_trade_without_the_choice_leaves_it_waiting():
    """M4: a trade sent without `lift` (through the API) did not ask the new owner."""
    table = Table().own(0, READING, mortgaged=[READING])
    outcome = table.do("trade", player=0, partner=2, give={"deeds": [READING]}, take={"cash": 80})
    assert paid(outcome) == [(2, 0, 80)]
    assert received(table) == [(2, READING)]


def test_m4_a_game_logged_under_rules_3_replays_its_trades_as_they_were_played():
    """Under rules 3 a plain acceptance kept the mortgaged deed and paid the 10% at once, and
    the game went on: a log of rules 3 replays so. Under rules 4 the throw waits for Bea."""
    log = [
        ("land", {"player": 0, "space": MEDITERRANEAN, "choices": [{"kind": "buy"}]}),
        ("mortgage", {"player": 0, "deed": MEDITERRANEAN}),
        ("trade_offer", {"player": 0, "partner": 1, "give": {"deeds": [MEDITERRANEAN]}}),
        ("trade_accept", {"player": 1, "offer": 1}),
        ("roll", {"player": 1, "dice": 4}),
    ]
    log[2][1]["take"] = {"cash": 100}
    state = replay(US, {**setup_of(), "rules": 3}, log)
    price, ten_percent = US.spaces[MEDITERRANEAN].price, interest(MEDITERRANEAN_VALUE)
    assert [p.cash for p in state.players] == [
        1500 - price + MEDITERRANEAN_VALUE + 100,
        1500 - 100 - ten_percent,
        1500,
    ]
    assert state.deeds[MEDITERRANEAN].owner == 1 and state.deeds[MEDITERRANEAN].mortgaged
    with pytest.raises(RuleError) as refusal:
        replay(US, {**setup_of(), "rules": 4}, log)
    assert refusal.value.rule == "M4"
