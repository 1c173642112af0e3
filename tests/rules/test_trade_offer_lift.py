"""Rules core: M4 on a trade put to a phone: each new owner of a mortgaged deed chooses to
lift it now, and the one who accepts cannot choose it for the one who proposed."""

from __future__ import annotations

from tablebank.rules.property import interest, lift_cost

from ..support import PARK_PLACE, US, Table, paid

MORTGAGE = US.spaces[PARK_PLACE].mortgage  # 175: lifting costs 193, the interest 18


def offered(table: Table, **trade) -> int:
    table.do("trade_offer", **trade)
    return table.state.offers[-1].id


def test_m4_the_accepter_cannot_make_the_proposer_lift_a_deed_it_receives():
    """Bea offers Ana $100 for her mortgaged Park Place; Ana accepts and asks to lift it:
    Bea, the new owner, pays the 10% only and the deed stays mortgaged (M4 is her choice)."""
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    offer = offered(table, player=1, partner=0, give={"cash": 100}, take={"deeds": [PARK_PLACE]})
    outcome = table.do("trade_accept", player=0, offer=offer, lift=[PARK_PLACE])
    assert paid(outcome) == [(1, 0, 100), (1, None, interest(MORTGAGE))]
    assert table.cash(1) == 1500 - 100 - 18
    deed = table.state.deeds[PARK_PLACE]
    assert deed.owner == 1 and deed.mortgaged


def test_m4_the_accepter_may_lift_a_deed_it_receives_at_once():
    """Ana offers her mortgaged Park Place to Bea for $100; Bea accepts and lifts it now:
    110% in all (value plus the 10%)."""
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    offer = offered(table, player=0, partner=1, give={"deeds": [PARK_PLACE]}, take={"cash": 100})
    outcome = table.do("trade_accept", player=1, offer=offer, lift=[PARK_PLACE])
    assert paid(outcome) == [(1, 0, 100), (1, None, lift_cost(MORTGAGE))]
    assert not table.state.deeds[PARK_PLACE].mortgaged


def test_m4_the_proposer_may_lift_a_deed_it_receives_at_once():
    """Bea offers Ana $100 for her mortgaged Park Place and chooses, in her offer, to lift it
    at once: when Ana accepts, Bea pays the value and the 10% (110% in all), not the 10% now
    and the 110% again later. Before, a phone's offer dropped the choice."""
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    offer = offered(
        table,
        player=1,
        partner=0,
        give={"cash": 100},
        take={"deeds": [PARK_PLACE]},
        lift=[PARK_PLACE],
    )
    outcome = table.do("trade_accept", player=0, offer=offer)
    assert paid(outcome) == [(1, 0, 100), (1, None, lift_cost(MORTGAGE))]
    assert table.cash(1) == 1500 - 100 - 193
    deed = table.state.deeds[PARK_PLACE]
    assert deed.owner == 1 and not deed.mortgaged


def test_m4_the_proposer_cannot_make_the_accepter_lift_a_deed_it_receives():
    """Ana offers her mortgaged Park Place to Bea for $100 and asks for it to be lifted: that
    is Bea's choice. Accepting plainly, she pays nothing for it yet: her choice waits."""
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    offer = offered(
        table,
        player=0,
        partner=1,
        give={"deeds": [PARK_PLACE]},
        take={"cash": 100},
        lift=[PARK_PLACE],
    )
    outcome = table.do("trade_accept", player=1, offer=offer)
    assert paid(outcome) == [(1, 0, 100)]
    assert table.state.deeds[PARK_PLACE].mortgaged
    assert [(w.what, w.seat, w.space) for w in table.waits()] == [("received", 1, PARK_PLACE)]


def test_m4_an_offer_to_lift_what_the_proposer_cannot_pay_is_refused():
    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE]).put(1, cash=250)
    trade = {"player": 1, "partner": 0, "give": {"cash": 100}, "take": {"deeds": [PARK_PLACE]}}
    refused = table.refused("trade_offer", **trade, lift=[PARK_PLACE])
    assert refused.rule == "K1" and refused.params["amount"] == 100 + lift_cost(MORTGAGE)
    assert table.refused("trade_offer", **trade, lift="37").rule == "input"
    table.do("trade_offer", **trade)  # 100 and the 10% alone: 118, within her 250
    assert len(table.state.offers) == 1
