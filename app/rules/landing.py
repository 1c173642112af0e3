"""What a landing calls for, worked out from the board: the core, never the client, decides.

`arrive(act, player, index, dice)` puts the token on a space and does what the space calls
for: rent to the owner (P2-P7), a flat tax (T2), jail (J1), the Free Parking pot (H1). Where
the rules leave the player a choice, the choice waits in `state.pending` for that player:
buy or decline (P1), the card drawn at the table (C1), the income tax's way (T1), a fresh
throw for "nearest utility" (C2). The kinds below answer those choices; a card's move lands
again, on the same rules. A payment the cash does not cover becomes a debt (`Act.owe`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .actions import TURNS, Act, action, flag
from .edition import BOARD_SIZE, JAIL, Card, Edition, Space
from .errors import RuleError
from .rent import rent_due
from .state import BUY, CARD, HOTEL, TAX, THROW, GameState, Pending, PlayerState
from .wealth import total_worth
from .words import N_


def arrive(act: Act, player: PlayerState, index: int, dice: int | None, by_card: str = "") -> None:
    """The player stands on space `index`: its own action is done, or waits for a choice.
    `dice` is the throw that moved them (None when no throw is known: a card's move, a
    landing the banker records); `by_card` is a "nearest" card's kind (its rents, C2)."""
    player.position = index
    space = act.edition.spaces[index]
    if space.is_deed:
        land_on_deed(act, player, index, dice, by_card)
    elif space.kind == "tax":
        land_on_tax(act, player, index)
    elif space.kind in ("chance", "chest"):
        act.state.pending.append(Pending(CARD, player.seat, index))
    elif space.kind == "go_to_jail":
        send_to_jail(act, player)
    elif space.kind == "parking" and act.state.pot:
        take_pot(act, player)


def land_on_deed(act: Act, player: PlayerState, index: int, dice: int | None, by_card: str):
    """P1: the bank's deed waits for buy or decline; P2-P7: the owner's rent, at once."""
    deed, space = act.state.deeds[index], act.edition.spaces[index]
    if deed.owner is None:
        act.state.pending.append(Pending(BUY, player.seat, index))
    elif no_rent(act, player, index):
        return
    elif space.kind == "utility" and (dice is None or by_card):
        pending = Pending(THROW, player.seat, index, by_card=bool(by_card))
        act.state.pending.append(pending)  # P6: the rent waits for the dice total
    else:
        pay_rent(act, player, index, dice, by_card == space.kind)


def no_rent(act: Act, player: PlayerState, index: int) -> bool:
    """P2, M2: no rent on one's own deed or a mortgaged one (says so); True: none is due."""
    deed, name = act.state.deeds[index], act.edition.spaces[index].name
    if deed.owner == player.seat:
        act.say("{deed} is {player}'s own", deed=name, player=player.name)
    elif deed.mortgaged:
        act.say("{deed} is mortgaged: no rent", deed=name)
    elif deed.owner is None:
        act.say("{deed} belongs to the bank: no rent", deed=name)
    else:
        return False
    return True


def pay_rent(act: Act, player: PlayerState, index: int, dice: int | None, by_card: bool):
    if no_rent(act, player, index):  # the deed may have changed hands before a fresh throw
        return
    owner = act.state.players[act.state.deeds[index].owner]
    amount = rent_due(act.state, act.edition, index, dice, by_card)
    words = (
        N_("{player} pays {owner} {amount:money} rent for {deed}"),
        N_("{player} owes {owner} {amount:money} rent for {deed}"),
    )
    name = act.edition.spaces[index].name
    act.owe(player, owner, amount, words, player=player.name, owner=owner.name, deed=name)


def income_tax_choice(state: GameState, edition: Edition, index: int) -> bool:
    """T1: the 10% way is there to choose where the edition prints it and the game allows it."""
    return bool(edition.spaces[index].percent and state.settings.income_tax_percent)


def land_on_tax(act: Act, player: PlayerState, index: int) -> None:
    """T2, T1: a flat tax is paid at once; with the 10% option the player chooses first."""
    if income_tax_choice(act.state, act.edition, index):
        act.state.pending.append(Pending(TAX, player.seat, index))
        return
    pay_tax(act, player, index, act.edition.spaces[index].amount)


def pay_tax(act: Act, player: PlayerState, index: int, amount: int) -> None:
    words = (N_("{player} pays {amount:money} {tax}"), N_("{player} owes {amount:money} {tax}"))
    tax = act.edition.spaces[index].name
    act.owe(player, None, amount, words, fee=True, player=player.name, tax=tax)


def send_to_jail(act: Act, player: PlayerState) -> None:
    """J1, G2: straight to jail, no salary; the player's turn ends there."""
    player.position, player.in_jail, player.jail_tries = JAIL, True, 0
    act.say("{player} goes to jail", player=player.name)
    if act.state.turn == player.seat:
        act.state.moved, act.state.again = True, False


def take_pot(act: Act, player: PlayerState) -> None:
    """H1: the Free Parking pot goes to the player, all of it."""
    jackpot, act.state.pot = act.state.pot, 0
    act.pay(None, player, jackpot)
    act.say(
        "{player} takes the Free Parking pot of {amount:money}", player=player.name, amount=jackpot
    )


@action("parking_pot", label=N_("Take the pot"), rules="H1", needs=("player",))
def parking_pot(act: Act) -> None:
    """H1: the pot paid out by hand (a landing on Free Parking takes it by itself)."""
    player = act.player()
    if not act.state.settings.free_parking_jackpot:
        raise RuleError("H1", "This game has no Free Parking jackpot")
    if not act.state.pot:
        raise RuleError("H1", "The Free Parking pot is empty")
    take_pot(act, player)


def move_forward(act: Act, player: PlayerState, target: int) -> None:
    """G1: a move forward to `target` pays the salary when it passes or lands on GO (H2)."""
    if target == 0:
        act.salary(player, landed_on_go=True)
    elif target < player.position:
        act.salary(player)
    player.position = target


# -- the choices a landing leaves --------------------------------------------------------


def waiting_choice(act: Act, what: str) -> tuple[PlayerState, Pending]:
    """The player of the payload and the choice of this kind that waits for them, or a
    refusal saying what the board called for instead."""
    player = act.player()
    found = act.state.waiting(what, player.seat)
    if not found:
        raise RuleError("R1", "Nothing of that kind waits for {player}", player=player)
    return player, found[0]


def resolve(act: Act, item: Pending) -> None:
    act.state.pending.remove(item)


def landed_deed(act: Act) -> tuple[PlayerState, Space]:
    """P1: the player and the bank's deed they landed on, the buy-or-decline answered."""
    player, item = waiting_choice(act, BUY)
    deed = act.deed()
    if deed.index != item.space:
        landed = act.edition.spaces[item.space].name
        raise RuleError("P1", "{player} landed on {deed}", player=player, deed=landed)
    resolve(act, item)
    return player, deed


@action("buy", label=N_("Buy"), rules="P1", needs=("player", "deed"), phone=TURNS)
def buy(act: Act) -> None:
    """P1: the deed landed on, at its printed price."""
    player, deed = landed_deed(act)
    act.clear_of_debt(player)
    act.pay(player, None, deed.price)
    act.state.deeds[deed.index].owner = player.seat
    act.say(
        "{player} buys {deed} for {price:money}",
        player=player.name,
        deed=deed.name,
        price=deed.price,
    )


@action(
    "tax", label=N_("Pay the tax"), rules="T1, T2", needs=("player",), may=("percent",), phone=TURNS
)
def tax(act: Act) -> None:
    """T1: the income tax's way, chosen before the worth is counted: the flat amount, or
    (`percent`) the edition's share of total worth, rounded up."""
    player, item = waiting_choice(act, TAX)
    space = act.edition.spaces[item.space]
    amount = space.amount
    if flag(act.payload, "percent"):
        worth = total_worth(act.state, act.edition, player.seat)
        amount = math.ceil(worth * space.percent / 100)
    resolve(act, item)
    pay_tax(act, player, item.space, amount)


@action(
    "throw",
    label=N_("Dice for the rent"),
    rules="P6, C2: the dice total of a fresh throw",
    needs=("player", "dice"),
    phone=TURNS,
)
def throw(act: Act) -> None:
    """P6, C2: the utility's rent, from a fresh throw (10x after a "nearest utility" card)."""
    player, item = waiting_choice(act, THROW)
    dice = act.dice()
    resolve(act, item)
    act.say("{player} throws {dice}", player=player.name, dice=dice)
    pay_rent(act, player, item.space, dice, item.by_card)


# -- cards -------------------------------------------------------------------------------


@action("card", label=N_("Card"), rules="C1-C3", needs=("player", "card"), phone=TURNS)
def card(act: Act) -> None:
    """C1-C3: the card drawn at the table, its effect worked out from the board."""
    player, item = waiting_choice(act, CARD)
    drawn = act.edition.cards.get(act.text("card"))
    space = act.edition.spaces[item.space]
    if drawn is None or drawn.deck != space.kind:
        raise RuleError("C1", "That card is not drawn on {space}", space=space.name)
    resolve(act, item)
    act.say("{player} draws “{card}”", player=player.name, card=drawn.text)
    remember_draw(act.state, act.edition, drawn)
    CARD_EFFECTS[drawn.effect](act, player, drawn)


def _collect(act: Act, player: PlayerState, card: Card) -> None:
    act.pay(None, player, card.amount)
    act.say("collects {amount:money}", amount=card.amount)


def _pay(act: Act, player: PlayerState, card: Card) -> None:
    words = (N_("pays the bank {amount:money}"), N_("owes the bank {amount:money}"))
    act.owe(player, None, card.amount, words, fee=True)


def _others(act: Act, player: PlayerState) -> list[PlayerState]:
    return [p for p in act.state.in_play() if p is not player]


def _pay_each(act: Act, player: PlayerState, card: Card) -> None:
    others = _others(act, player)
    count = {"amount": card.amount, "count": len(others)}
    one = {"amount": card.amount, "player": others[0].name} if len(others) == 1 else None
    if player.cash < card.amount * len(others):
        for other in others:  # K1: nobody is paid before everyone can be
            act.add_debt(player, other, card.amount)
        if one:
            act.say("owes {player} {amount:money}", **one)
        else:
            act.say("owes {amount:money} to each of {count:players}", **count)
        act.say_short(player)
        return
    for other in others:
        act.pay(player, other, card.amount)
    if one:
        act.say("pays {player} {amount:money}", **one)
    else:
        act.say("pays {amount:money} to each of {count:players}", **count)


def _collect_each(act: Act, player: PlayerState, card: Card) -> None:
    others = _others(act, player)
    if len(others) == 1:
        act.say("collects {amount:money} from {player}", amount=card.amount, player=others[0].name)
    else:
        act.say(
            "collects {amount:money} from each of {count:players}",
            amount=card.amount,
            count=len(others),
        )
    for other in others:
        words = ("", N_("{player} owes {creditor} {amount:money}"))
        act.owe(other, player, card.amount, words, player=other.name, creditor=player.name)


def _repairs(act: Act, player: PlayerState, card: Card) -> None:
    built = [act.state.deeds[i].houses for i in act.state.held_by(player.seat)]
    hotels = sum(h == HOTEL for h in built)
    houses = sum(h for h in built if h < HOTEL)
    amount = houses * card.house + hotels * card.hotel
    words = (
        N_("pays {amount:money} for {houses:houses} and {hotels:hotels}"),
        N_("owes {amount:money} for {houses:houses} and {hotels:hotels}"),
    )
    act.owe(player, None, amount, words, fee=True, houses=houses, hotels=hotels)


def _card_move(act: Act, player: PlayerState, target: int, by_card: str = "") -> None:
    """A card's move forward (G1 on the way), then the landing there (C2)."""
    move_forward(act, player, target)
    act.say("moves to {space}", space=act.edition.spaces[target].name)
    arrive(act, player, target, None, by_card)


def _advance(act: Act, player: PlayerState, card: Card) -> None:
    _card_move(act, player, card.to)


def _back(act: Act, player: PlayerState, card: Card) -> None:
    target = (player.position - card.spaces) % BOARD_SIZE
    act.say("goes back to {space}", space=act.edition.spaces[target].name)
    arrive(act, player, target, None)


def _nearest(act: Act, player: PlayerState, card: Card) -> None:
    ahead = [(player.position + step) % BOARD_SIZE for step in range(1, BOARD_SIZE + 1)]
    target = next(i for i in ahead if act.edition.spaces[i].kind == card.kind)
    _card_move(act, player, target, by_card=card.kind)


def _jail(act: Act, player: PlayerState, card: Card) -> None:
    send_to_jail(act, player)


def _jail_free(act: Act, player: PlayerState, card: Card) -> None:
    holder = next((p for p in act.state.players if card.deck in p.jail_free), None)
    if holder is not None:
        raise RuleError(
            "C3", "{player} already holds that Get Out of Jail Free card", player=holder
        )
    player.jail_free.append(card.deck)
    act.say("keeps the card until it is used")


CARD_EFFECTS: dict[str, Callable[[Act, PlayerState, Card], None]] = {
    "collect": _collect,
    "pay": _pay,
    "pay_each": _pay_each,
    "collect_each": _collect_each,
    "repairs": _repairs,
    "advance": _advance,
    "back": _back,
    "nearest": _nearest,
    "jail": _jail,
    "jail_free": _jail_free,
}


def likely_cards(state: GameState, edition: Edition, deck: str) -> tuple[list[Card], list[Card]]:
    """A deck goes round: the cards drawn since it was last gone through are at the bottom.
    Returns (the others, those drawn lately, oldest first); a Get Out of Jail Free card that
    a player holds is out of the deck (C3), and twin cards are shown once."""
    drawn = state.drawn.get(deck, [])
    held = any(deck in p.jail_free for p in state.players)
    cards = [c for c in edition.deck(deck) if not (held and c.effect == "jail_free")]
    fresh, lately, seen = [], {}, set()
    for card in cards:
        if card.text in seen:
            continue
        twins = [c for c in cards if c.text == card.text]
        undrawn = next((c for c in twins if c.id not in drawn), None)
        seen.add(card.text)
        if undrawn is not None:
            fresh.append(undrawn)
        else:
            lately[max(drawn.index(c.id) for c in twins)] = card
    return fresh, [lately[i] for i in sorted(lately)]


def remember_draw(state: GameState, edition: Edition, card: Card) -> None:
    """C1: a drawn card goes to the bottom; once the deck is gone through it starts again."""
    drawn = [i for i in state.drawn.get(card.deck, []) if i != card.id] + [card.id]
    if len(drawn) >= len(edition.deck(card.deck)):
        drawn = []
    state.drawn = {**state.drawn, card.deck: drawn}
