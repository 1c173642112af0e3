"""Rules core, M4 with K2: the creditor who receives a bankrupt's mortgaged deeds chooses, deed
by deed, to lift each now (the mortgage value and the 10%) or keep it mortgaged (the 10%).
A bankruptcy that does not carry that choice (declared on the debtor's own phone, which may
not choose for the creditor) leaves it waiting for the creditor, as a landing's choice waits:
the figures come from the deed, and the money goes to the bank."""

from __future__ import annotations

from tablebank.rules.property import interest, lift_cost

from ..support import BOARDWALK, MEDITERRANEAN, ORIENTAL, US, Table, paid

VALUE = US.spaces[MEDITERRANEAN].mortgage  # 30 on the US board
TEN_PERCENT = interest(VALUE)  # 3


def bea_bankrupt_to_cal(cal_cash: int = 1500, **payload) -> Table:
    """Bea, holding Mediterranean Avenue mortgaged and no cash, lands on Cal's Boardwalk and
    gives up: Cal, the creditor, receives the mortgaged deed."""
    table = Table().own(2, BOARDWALK).own(1, MEDITERRANEAN, mortgaged=[MEDITERRANEAN])
    table.put(1, cash=0).put(2, cash=cal_cash).throws_onto(1, BOARDWALK, 5)
    table.do("bankrupt", player=1, **payload)
    return table


def test_m4_a_bankruptcy_without_the_creditor_s_choice_leaves_it_waiting_for_the_creditor():
    """M4: nobody chose for Cal, so nothing is paid for the deed yet and the game waits for
    Cal's choice on Mediterranean Avenue: lift it now or keep it mortgaged, with the figures
    from the deed; the next throw waits too (the choice is made as the deed changes hands)."""
    table = bea_bankrupt_to_cal()
    assert paid(table.outcome) == []
    assert "Cal chooses whether to lift Mediterranean Avenue now" in table.outcome.text
    deed = table.state.deeds[MEDITERRANEAN]
    assert deed.owner == 2 and deed.mortgaged
    (wait,) = table.waits()
    assert (wait.what, wait.seat, wait.space) == ("received", 2, MEDITERRANEAN)
    assert wait.figures == {"mortgage": VALUE, "interest": TEN_PERCENT, "lift": VALUE + 3}
    offered = [(m.kind, m.fields) for m in wait.moves]
    choice = {"player": 2, "deed": MEDITERRANEAN}
    assert offered == [("lift", choice), ("keep_mortgaged", choice)]
    refusal = table.refused("roll", player=2, dice=7)
    assert refusal.rule == "M4" and "Cal first chooses" in refusal.message


def test_m4_keeping_it_mortgaged_pays_the_bank_the_10_percent_and_the_turn_goes_on():
    table = bea_bankrupt_to_cal()
    outcome = table.do("keep_mortgaged", player=2, deed=MEDITERRANEAN)
    assert paid(outcome) == [(2, None, TEN_PERCENT)]  # to the bank
    assert outcome.text == "Cal pays $3 interest and keeps Mediterranean Avenue mortgaged"
    assert table.state.deeds[MEDITERRANEAN].mortgaged
    assert table.waiting() == [("roll", 2)]


def test_m4_lifting_it_now_pays_the_bank_the_value_and_the_10_percent_once():
    """M4: lifted at the same moment, the deed costs 110% in all, not the 10% and then M3's
    value plus 10% again."""
    table = bea_bankrupt_to_cal()
    outcome = table.do("lift", player=2, deed=MEDITERRANEAN)
    assert paid(outcome) == [(2, None, lift_cost(VALUE))] == [(2, None, VALUE + TEN_PERCENT)]
    assert outcome.text == "Cal lifts Mediterranean Avenue now for $33"
    assert not table.state.deeds[MEDITERRANEAN].mortgaged
    assert table.waiting() == [("roll", 2)]
    assert table.refused("keep_mortgaged", player=2, deed=MEDITERRANEAN).rule == "M4"


def test_m4_a_creditor_who_cannot_afford_to_lift_is_offered_only_to_keep_it_mortgaged():
    """M4, K1: with $10, Cal cannot lift it now ($33): the core offers only keeping it, and
    a lift sent all the same is refused; with $2 the 10% itself is owed to the bank."""
    table = bea_bankrupt_to_cal(cal_cash=10)  # Bea had no cash: Cal gains nothing but the deed
    (wait,) = table.waits()
    assert [m.kind for m in wait.moves] == ["keep_mortgaged"]
    assert table.refused("lift", player=2, deed=MEDITERRANEAN).rule == "K1"
    poorer = bea_bankrupt_to_cal(cal_cash=2)
    outcome = poorer.do("keep_mortgaged", player=2, deed=MEDITERRANEAN)
    assert paid(outcome) == [] and [(d.creditor, d.amount) for d in poorer.state.debts_of(2)] == [
        (None, TEN_PERCENT)
    ]
    assert poorer.waiting() == [("debt", 2)]


def test_m4_the_banker_s_choice_made_with_the_bankruptcy_is_settled_at_once():
    """M4: the banker asked Cal at the table (the bankruptcy page sends `lift`): lifted, or
    kept (an empty list), at once, and nothing waits."""
    lifted = bea_bankrupt_to_cal(lift=[MEDITERRANEAN])
    assert (2, None, VALUE + TEN_PERCENT) in paid(lifted.outcome)
    kept = bea_bankrupt_to_cal(lift=[])
    assert (2, None, TEN_PERCENT) in paid(kept.outcome)
    assert lifted.waiting() == kept.waiting() == [("roll", 2)]


def test_m4_a_deed_whose_choice_waits_does_not_change_hands_first():
    table = bea_bankrupt_to_cal().own(0, ORIENTAL)
    refusal = table.refused(
        "trade", player=2, partner=0, give={"deeds": [MEDITERRANEAN]}, take={"deeds": [ORIENTAL]}
    )
    assert refusal.rule == "M4"


def test_m4_a_game_logged_under_rules_2_replays_its_bankruptcies_as_they_were_played():
    """A log of rules 2 (before this choice waited) keeps every mortgaged deed at once when
    the bankruptcy does not carry `lift`, so it replays to the state it was saved with."""
    table = Table(rules=2)
    assert not table.state.settings.receiver_chooses
    table.own(2, BOARDWALK).own(1, MEDITERRANEAN, mortgaged=[MEDITERRANEAN])
    table.put(1, cash=0).throws_onto(1, BOARDWALK, 5)
    outcome = table.do("bankrupt", player=1)
    assert (2, None, TEN_PERCENT) in paid(outcome)
    assert table.waiting() == [("roll", 2)]
