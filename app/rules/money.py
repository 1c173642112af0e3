"""Money the table moves by hand: the bank pays or collects, a player pays another (S2, X2).

These are payments a person asks for, so one the cash does not cover is refused (K1) and
nothing changes; a payment the rules call for (rent, a tax, a card) becomes a debt instead
(`Act.owe`, debts.py).
"""

from __future__ import annotations

from .actions import ALWAYS, Act, action, note
from .errors import RuleError
from .words import N_


def say_with_note(act: Act, template: str, **params: object) -> None:
    text = note(act.payload)
    if text:
        template, params = template + " ({note})", {**params, "note": text}
    act.say(template, **params)


@action(
    "bank_pay", label=N_("The bank pays"), rules="S2", needs=("player", "amount"), may=("note",)
)
def bank_pay(act: Act) -> None:
    """The bank pays a player (S2: the bank never goes broke)."""
    player, amount = act.player(), act.amount()
    act.pay(None, player, amount)
    say_with_note(act, "the bank pays {player} {amount:money}", player=player.name, amount=amount)


@action(
    "bank_collect",
    label=N_("Pay the bank"),
    rules="K1",
    needs=("player", "amount"),
    may=("note",),
    phone=ALWAYS,
)
def bank_collect(act: Act) -> None:
    player, amount = act.player(), act.amount()
    act.clear_of_debt(player)
    act.pay(player, None, amount)
    say_with_note(act, "{player} pays the bank {amount:money}", player=player.name, amount=amount)


@action(
    "transfer",
    label=N_("Pay"),
    rules="K1, X2",
    needs=("from", "to", "amount"),
    may=("note",),
    own_seat="from",
    phone=ALWAYS,
)
def transfer(act: Act) -> None:
    payer, payee, amount = act.player("from"), act.player("to"), act.amount()
    if payer is payee:
        raise RuleError("input", "A player cannot pay themselves")
    act.clear_of_debt(payer)
    act.pay(payer, payee, amount)
    say_with_note(
        act,
        "{payer} pays {payee} {amount:money}",
        payer=payer.name,
        payee=payee.name,
        amount=amount,
    )
