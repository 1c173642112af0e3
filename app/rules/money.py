"""Money the table moves by hand: the bank pays or collects, a player pays another (S2, X2).

These are payments a person asks for, so one the cash does not cover is refused (K1) and
nothing changes; a payment the rules call for (rent, a tax, a card) becomes a debt instead
(`Act.owe`, debts.py).
"""

from __future__ import annotations

from .actions import ALWAYS, Act, action, note
from .errors import RuleError
from .words import N_


def say_with_note(act: Act, sentence: tuple[str, str], **params: object) -> None:
    """`sentence`: the words without a note and with it ({note}), each written out whole
    where it is marked (N_), so that the catalogues have both to translate."""
    text = note(act.payload)
    if text:
        act.say(sentence[1], **params, note=text)
    else:
        act.say(sentence[0], **params)


@action(
    "bank_pay", label=N_("The bank pays"), rules="S2", needs=("player", "amount"), may=("note",)
)
def bank_pay(act: Act) -> None:
    """The bank pays a player (S2: the bank never goes broke)."""
    player, amount = act.player(), act.amount()
    act.pay(None, player, amount)
    said = (
        N_("the bank pays {player} {amount:money}"),
        N_("the bank pays {player} {amount:money} ({note})"),
    )
    say_with_note(act, said, player=player.name, amount=amount)


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
    said = (
        N_("{player} pays the bank {amount:money}"),
        N_("{player} pays the bank {amount:money} ({note})"),
    )
    say_with_note(act, said, player=player.name, amount=amount)


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
    said = (
        N_("{payer} pays {payee} {amount:money}"),
        N_("{payer} pays {payee} {amount:money} ({note})"),
    )
    say_with_note(
        act,
        said,
        payer=payer.name,
        payee=payee.name,
        amount=amount,
    )
