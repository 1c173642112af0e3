"""A turn in two taps: the dice pad's panel, the landing worked out, the way out of a debt.

Pages only: every figure comes from the rules core (`landing.calls_for`, a preview of the
`roll` action), every change goes through the bank's one door.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import session, url_for
from flask_babel import gettext as _

from .. import bank
from ..models import Game
from ..rules import Outcome, RuleError
from ..rules.edition import BOARD_SIZE, Edition
from ..rules.landing import Call, calls_for
from ..rules.state import GameState, PlayerState
from ..rules.turn import JAIL_TRIES, next_in_play, whose_turn  # noqa: F401
from .banker import Option, offer

PRESETS = (10, 20, 50, 100, 150, 200, 300, 500)  # quick money, one tap each
OWED = "owed"  # the session's payment waiting for the money to be raised, per game
DEBTS = ("rent", "tax", "card", "roll", "transfer", "bank_collect", "jail_fine")


@dataclass
class CardChoice:
    """A card as a short button: its title line, what it does to the player's cash."""

    option: Option
    title: str
    net: int
    lately: bool


def turn_panel(game: Game) -> dict | None:
    """Whose turn it is, where they stand, and (in jail) the ways out before the roll."""
    state, edition = bank.state_of(game), bank.edition_of(game)
    player = whose_turn(state)
    if player is None or state.ended or state.auction:
        return None
    jail = []
    if player.in_jail:
        jail = [offer(game, k, {"player": player.seat}) for k in ("jail_fine", "jail_card")]
    upcoming = state.players[next_in_play(state, player.seat)]
    return {
        "player": player,
        "space": edition.spaces[player.position],
        "doubles": state.doubles,
        "jail": jail,
        "tries": player.jail_tries,
        "most_tries": JAIL_TRIES,
        "next": offer(
            game,
            "turn_to",
            {"player": upcoming.seat},
            _("Next: %(player)s", player=upcoming.name),
            "secondary",
        ),
        "phones": state.settings.phone_turns,
    }


def landing_of(state: GameState, player: PlayerState, dice: int, doubles: bool):
    """Where the roll takes the player, or None when it does not move them (J1, J3)."""
    stays = player.in_jail and not doubles and player.jail_tries + 1 < JAIL_TRIES
    third = not player.in_jail and doubles and state.doubles == 2
    if stays or third:
        return None
    return (player.position + dice) % BOARD_SIZE


def turn_options(game: Game, player: PlayerState, dice: int, doubles: bool) -> dict:
    """The roll with each action the landing calls for, previewed: one tap does it."""
    state, edition = bank.state_of(game), bank.edition_of(game)
    base = {"player": player.seat, "dice": dice, "doubles": doubles}
    target = landing_of(state, player, dice, doubles)
    if target is None:
        return {"space": None, "options": [offer(game, "roll", base)], "cards": []}
    space = edition.spaces[target]
    calls = calls_for(state, edition, player.seat, space, dice=dice)
    if space.kind in ("chance", "chest"):
        cards = [card_choice(game, edition, base, call) for call in calls]
        return {"space": space, "options": [], "cards": cards}
    options = [roll_option(game, base, call) for call in calls]
    return {"space": space, "options": options, "cards": []}


def step_of(call: Call) -> dict:
    return {"kind": call.kind, **{k: v for k, v in call.fields.items() if v is not False}}


def roll_option(game: Game, base: dict, call: Call) -> Option:
    payload = {**base, "land": step_of(call)}
    label = ""
    if call.percent:
        label = _(
            "Pay %(percent)s%% of total worth (worked out after choosing)", percent=call.percent
        )
    return offer(game, "roll", payload, label, call.style)


def card_choice(game: Game, edition: Edition, base: dict, call: Call) -> CardChoice:
    """C1, C2: the card, and where it sends the player the action there, in one tap."""
    payload = {**base, "land": step_of(call)}
    card = edition.cards[call.fields["card"]]
    net = 0
    try:
        outcome = bank.preview(game, "roll", payload)
        if outcome.next_space is not None:
            follow = follow_up(outcome, edition, base["player"])
            if follow is not None:
                payload["then"] = step_of(follow)
                outcome = bank.preview(game, "roll", payload)
        net = net_for(outcome, base["player"])
    except RuleError:
        pass  # the option below says why, in words
    option = offer(game, "roll", payload)
    title = card.text.split(";")[0].split("(")[0].strip()
    return CardChoice(option, title, net, call.lately)


def follow_up(outcome: Outcome, edition: Edition, seat: int) -> Call | None:
    """The one action the card's space calls for, when it needs no choice and no new dice."""
    space = edition.spaces[outcome.next_space]
    calls = calls_for(outcome.state, edition, seat, space, by_card=outcome.by_card)
    if len(calls) != 1 or calls[0].needs_dice:
        return None
    return calls[0]


def net_for(outcome, seat: int) -> int:
    """What an action does to one player's cash, salary included."""
    gained = sum(m.amount for m in outcome.movements if m.payee == seat)
    return gained - sum(m.amount for m in outcome.movements if m.payer == seat)


def money_move(seat: int, to: str, amount: object) -> tuple[str, dict]:
    """Quick money: the action for a payer, a payee ("bank", "from_bank" or a seat)."""
    if to == "bank":
        return "bank_collect", {"player": seat, "amount": amount}
    if to == "from_bank":
        return "bank_pay", {"player": seat, "amount": amount}
    return "transfer", {"from": seat, "to": to, "amount": amount}


# -- from "cannot pay" to the way out --------------------------------------------------------


def remember_debt(game: Game, kind: str, payload: dict, figures: dict) -> None:
    """K1: keep the refused payment, so that "now pay" is one tap once the money is raised."""
    if kind not in DEBTS or "amount" not in figures:
        return
    owed = dict(session.get(OWED, {}))
    owed[game.id] = {
        "kind": kind,
        "payload": payload,
        "player": figures.get("player"),
        "amount": figures["amount"],
        "creditor": figures.get("creditor"),
    }
    session[OWED] = owed


def settle_debt(game_id: str, done) -> None:
    """The waiting payment was made (or the debtor went bankrupt): nothing waits any more."""
    debt = session.get(OWED, {}).get(game_id)
    paid = debt and (done.kind, done.payload) == (debt["kind"], debt["payload"])
    if paid or (debt and done.kind == "bankrupt"):
        forget_debt(game_id)


def forget_debt(game_id: str) -> None:
    owed = dict(session.get(OWED, {}))
    if owed.pop(game_id, None) is not None:
        session[OWED] = owed


def debt_panel(game: Game) -> dict | None:
    """The payment waiting on this game: who owes whom how much, the ways to raise it, and
    the payment itself, as one tap (refused in words while the cash is still short)."""
    debt = session.get(OWED, {}).get(game.id)
    if not debt:
        return None
    state = bank.state_of(game)
    seat = debt.get("player")
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        return None
    pay = offer(game, debt["kind"], debt["payload"])
    if pay.error and pay.rule != "K1":
        forget_debt(game.id)  # the turn moved on, or the payment no longer applies
        return None
    creditor = debt.get("creditor")
    return {
        "player": state.players[seat],
        "amount": debt["amount"],
        "creditor": None if creditor is None else state.players[creditor],
        "pay": pay,
        "ways": ways_out(game, seat, debt["amount"], creditor),
    }


def ways_out(game: Game, seat: int, amount: int, creditor: int | None) -> list[tuple[str, str]]:
    """K1: mortgage, sell buildings, trade, bankruptcy, with the debt filled in."""
    owed_to = "" if creditor is None else str(creditor)
    trade = {"player": seat} if creditor is None else {"player": seat, "partner": creditor}
    return [
        (_("Mortgage"), url_for("property.mortgages", game_id=game.id, player=seat)),
        (_("Sell buildings"), url_for("property.build", game_id=game.id, player=seat)),
        (_("Trade"), url_for("property.trade", game_id=game.id, **trade)),
        (
            _("Bankruptcy"),
            url_for(
                "endgame.bankrupt", game_id=game.id, player=seat, owed=amount, creditor=owed_to
            ),
        ),
    ]


def owe_link(game: Game, option: Option) -> str:
    """A refused payment's link that keeps it waiting, then shows the ways out."""
    payload = json.dumps(option.payload, separators=(",", ":"))
    return url_for("banker.owe", game_id=game.id, kind=option.kind, payload=payload)
