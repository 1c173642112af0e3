"""Who gets what, read from the rule book (docs/RULES.md) without the rules core's code.

`expect(before, edition, kind, payload)` plays an accepted action on `Book`, a plain model of
what money and holdings the game holds (cash, debts, the H1 pot, deeds, buildings, jail
cards, tokens, the choices a landing leaves), and returns the book after it. `differences`
compares it with what the core did: the money between each pair of parties (the bank is one
party), the debts with their creditors, the pot, who holds each deed and card, where each
token stands, what waits. The machine (machine.py) calls both after every accepted action.

Where the rule book leaves a choice to the app, the book follows the decision it records
(the rounding of 10%, the K5 creditor, debts owed to a bankrupt passing to their
creditor).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from tablebank.rules import HOTEL
from tablebank.rules.edition import Card, Edition
from tablebank.rules.state import DEAL, DEBT, RECEIVED, GameState

BANK = None
BOARD, JAIL = 40, 10
BUY, CARD, TAX, THROW = "buy", "card", "tax", "throw"
ANSWERS = {"buy": BUY, "decline": BUY, "card": CARD, "tax": TAX, "throw": THROW}


@dataclass(frozen=True)
class Debt:
    seat: int
    creditor: int | None
    amount: int
    fee: bool = False  # a tax or a fine: into the pot under H1


@dataclass(frozen=True)
class Choice:
    what: str
    seat: int
    space: int
    by_card: bool = False


@dataclass
class Token:
    position: int
    in_jail: bool
    tries: int
    cards: list[str]
    bankrupt: bool


@dataclass
class Book:
    edition: Edition
    before: GameState  # read only: the settings, the offers, the auction
    cash: list[int]
    tokens: list[Token]
    owners: dict[int, int | None]
    mortgaged: set[int]
    levels: dict[int, int]
    debts: list[Debt]
    choices: list[Choice]
    received: list[tuple[int, int]]  # M4: (new owner, mortgaged deed) waiting for their choice
    pot: int
    deal_waits: bool
    ended: bool
    bids: dict[int, int]  # P1: the highest bidder's cash kept for the bid until the close
    flows: Counter = field(default_factory=Counter)  # (a, b) with a < b: net from a to b

    @classmethod
    def of(cls, state: GameState, edition: Edition) -> Book:
        return cls(
            edition=edition,
            before=state,
            cash=[p.cash for p in state.players],
            tokens=[
                Token(p.position, p.in_jail, p.jail_tries, list(p.jail_free), p.bankrupt)
                for p in state.players
            ],
            owners={i: d.owner for i, d in state.deeds.items()},
            mortgaged={i for i, d in state.deeds.items() if d.mortgaged},
            levels={i: d.houses for i, d in state.deeds.items()},
            debts=[
                Debt(p.seat, p.creditor, p.amount, p.fee) for p in state.pending if p.what == DEBT
            ],
            choices=[
                Choice(p.what, p.seat, p.space, p.by_card)
                for p in state.pending
                if p.what in (BUY, CARD, TAX, THROW)
            ],
            received=[(p.seat, p.space) for p in state.pending if p.what == RECEIVED],
            pot=state.pot,
            deal_waits=any(p.what == DEAL for p in state.pending),
            ended=state.ended,
            bids={state.auction.bidder: state.auction.bid}
            if state.auction and state.auction.bidder is not None
            else {},
        )

    # -- money -----------------------------------------------------------------------------

    def pay(self, payer: int | None, payee: int | None, amount: int) -> None:
        if amount <= 0 or payer == payee:
            return
        if payer is not None:
            self.cash[payer] -= amount
        if payee is not None:
            self.cash[payee] += amount
        self.flows[pair(payer, payee)] += amount if key(payer) < key(payee) else -amount

    def owe(self, payer: int, creditor: int | None, amount: int, fee: bool = False) -> None:
        """K1: a payment the rules call for is made when the cash covers it (beside what a
        standing bid keeps, P1) and the payer owes nothing yet; otherwise it waits as a debt
        to that creditor."""
        if amount <= 0:
            return
        if self.cash[payer] - self.bids.get(payer, 0) >= amount and not self.debts_of(payer):
            self.pay(payer, creditor, amount)
            self.into_pot(amount, fee)
        else:
            self.debts.append(Debt(payer, creditor, amount, fee))

    def into_pot(self, amount: int, fee: bool) -> None:
        if fee and self.before.settings.free_parking_jackpot:  # H1
            self.pot += amount

    def debts_of(self, seat: int) -> list[Debt]:
        return [d for d in self.debts if d.seat == seat]

    # -- the board ---------------------------------------------------------------------------

    def space(self, index: int):
        return self.edition.spaces[index]

    def in_play(self) -> list[int]:
        return [seat for seat, t in enumerate(self.tokens) if not t.bankrupt]

    def held_by(self, seat: int) -> list[int]:
        return [i for i, owner in self.owners.items() if owner == seat]

    @property
    def needed(self) -> int:
        """B3: houses a hotel needs; SG2: three in the short game."""
        return 3 if self.before.settings.mode == "short" else 4


def key(party: int | None) -> int:
    return -1 if party is None else party


def pair(a: int | None, b: int | None) -> tuple[int, int]:
    return tuple(sorted((key(a), key(b))))


# -- the turn: G1, G2, J1-J3, R2 ------------------------------------------------------------------


def salary(book: Book, seat: int, on_go: bool = False) -> None:
    """G1; H2: landing exactly on GO pays double."""
    double = on_go and book.before.settings.double_go
    book.pay(BANK, seat, book.edition.salary * (2 if double else 1))


def move_to(book: Book, seat: int, target: int) -> None:
    """A move forward: GO passed or landed on pays the salary (G1)."""
    token = book.tokens[seat]
    if target == 0:
        salary(book, seat, on_go=True)
    elif target < token.position:
        salary(book, seat)
    token.position = target


def to_jail(book: Book, seat: int) -> None:
    """J1, G2: straight to jail, no salary."""
    token = book.tokens[seat]
    token.position, token.in_jail, token.tries = JAIL, True, 0


def roll(book: Book, payload: dict) -> None:
    seat, dice = payload["player"], payload["dice"]
    doubles = bool(payload.get("doubles")) or dice in (2, 12)  # R2
    token = book.tokens[seat]
    if token.in_jail:
        if not doubles and token.tries + 1 < 3:
            token.tries += 1  # J3: stays, one more try counted
            return
        if not doubles:
            book.owe(seat, BANK, book.edition.jail_fine, fee=True)  # J3: the third try
        token.in_jail, token.tries = False, 0
    elif doubles and book.before.doubles == 2:
        to_jail(book, seat)  # R2, J1: the third doubles
        return
    move_to(book, seat, (token.position + dice) % BOARD)
    arrive(book, seat, token.position, dice)
    answer_choices(book, seat, payload)


def land(book: Book, payload: dict) -> None:
    """R1: a landing the banker records; G1 when GO was passed or landed on."""
    seat, index = payload["player"], payload["space"]
    if index == 0:
        salary(book, seat, on_go=True)
    elif payload.get("passed_go"):
        salary(book, seat)
    book.tokens[seat].position = index
    arrive(book, seat, index, None)
    answer_choices(book, seat, payload)


def answer_choices(book: Book, seat: int, payload: dict) -> None:
    for step in payload.get("choices") or []:
        fields = {k: v for k, v in step.items() if k != "kind"}
        answer(book, step["kind"], {**fields, "player": seat})


# -- a landing: P1-P7, T1, T2, C1, J1, H1 ---------------------------------------------------------


def arrive(book: Book, seat: int, index: int, dice: int | None, by_card: str = "") -> None:
    space = book.space(index)
    if space.is_deed:
        on_deed(book, seat, index, dice, by_card)
    elif space.kind == "tax":
        if space.percent and book.before.settings.income_tax_percent:
            book.choices.append(Choice(TAX, seat, index))  # T1: the way is chosen first
        else:
            book.owe(seat, BANK, space.amount, fee=True)  # T2
    elif space.kind in ("chance", "chest"):
        book.choices.append(Choice(CARD, seat, index))
    elif space.kind == "go_to_jail":
        to_jail(book, seat)
    elif space.kind == "parking" and book.pot:
        book.pay(BANK, seat, book.pot)  # H1: the whole pot
        book.pot = 0


def on_deed(book: Book, seat: int, index: int, dice: int | None, by_card: str) -> None:
    owner = book.owners[index]
    if owner is None:
        book.choices.append(Choice(BUY, seat, index))  # P1
    elif owner == seat or index in book.mortgaged:
        return  # own deed; M2: no rent on a mortgaged deed
    elif book.space(index).kind == "utility" and (dice is None or by_card):
        book.choices.append(Choice(THROW, seat, index, by_card=bool(by_card)))  # P6, C2
    else:
        book.owe(seat, owner, rent(book, index, dice, by_card == book.space(index).kind))


def rent(book: Book, index: int, dice: int | None, by_card: bool) -> int:
    """P2-P6; C2: twice a railroad's rent, ten times the dice at a utility, after a card."""
    space, owner = book.space(index), book.owners[index]
    group = book.edition.group_of(index).deeds
    held = sum(book.owners[i] == owner for i in group)
    if space.kind == "street":
        if book.levels[index]:
            return space.rent[book.levels[index]]  # P4
        return space.rent[0] * (2 if held == len(group) else 1)  # P3
    if space.kind == "railroad":
        return space.rent[held - 1] * (2 if by_card else 1)  # P5
    return (10 if by_card else space.rent[held - 1]) * dice  # P6


# -- the answers to a landing's choices -----------------------------------------------------------


def answer(book: Book, kind: str, payload: dict) -> None:
    seat = payload["player"]
    choice = next(c for c in book.choices if c.seat == seat and c.what == ANSWERS[kind])
    book.choices.remove(choice)
    ANSWER[kind](book, seat, choice, payload)


def buy(book: Book, seat: int, choice: Choice, payload: dict) -> None:
    book.pay(seat, BANK, book.space(choice.space).price)  # P1
    book.owners[choice.space] = seat


def decline(book: Book, seat: int, choice: Choice, payload: dict) -> None:
    """P1: to auction (no money until it closes); H3: it stays with the bank."""


def tax(book: Book, seat: int, choice: Choice, payload: dict) -> None:
    """T1: the flat amount, or the share of total worth, rounded up, to the bank."""
    space = book.space(choice.space)
    amount = space.amount
    if payload.get("percent"):
        amount = math.ceil(worth(book, seat) * space.percent / 100)
    book.owe(seat, BANK, amount, fee=True)


def worth(book: Book, seat: int) -> int:
    """T1: cash + printed price of every deed + what was paid for the buildings."""
    held = book.held_by(seat)
    return book.cash[seat] + sum(book.space(i).price + paid_for(book, i) for i in held)


def paid_for(book: Book, index: int) -> int:
    houses, price = book.levels[index], book.edition.group_of(index).house_price or 0
    return price * (book.needed + 1 if houses == HOTEL else houses)


def throw(book: Book, seat: int, choice: Choice, payload: dict) -> None:
    """P6, C2: the utility's rent from the fresh throw, to its owner (none on one's own)."""
    owner = book.owners[choice.space]
    if owner is None or owner == seat or choice.space in book.mortgaged:
        return
    book.owe(seat, owner, rent(book, choice.space, payload["dice"], choice.by_card))


def card(book: Book, seat: int, choice: Choice, payload: dict) -> None:
    drawn = book.edition.cards[payload["card"]]
    EFFECTS[drawn.effect](book, seat, drawn)


ANSWER = {"buy": buy, "decline": decline, "tax": tax, "throw": throw, "card": card}


# -- cards: C2, C3, K5 ----------------------------------------------------------------------------


def collect(book: Book, seat: int, drawn: Card) -> None:
    book.pay(BANK, seat, drawn.amount)


def pay(book: Book, seat: int, drawn: Card) -> None:
    book.owe(seat, BANK, drawn.amount, fee=True)


def others(book: Book, seat: int) -> list[int]:
    return [s for s in book.in_play() if s != seat]


def pay_each(book: Book, seat: int, drawn: Card) -> None:
    """K5: each other player is paid in full, or each is owed in full (nobody first)."""
    payees = others(book, seat)
    if book.cash[seat] < drawn.amount * len(payees) or book.debts_of(seat):
        book.debts.extend(Debt(seat, other, drawn.amount) for other in payees)
        return
    for other in payees:
        book.pay(seat, other, drawn.amount)


def collect_each(book: Book, seat: int, drawn: Card) -> None:
    for other in others(book, seat):
        book.owe(other, seat, drawn.amount)


def repairs(book: Book, seat: int, drawn: Card) -> None:
    levels = [book.levels[i] for i in book.held_by(seat)]
    houses = sum(n for n in levels if n != HOTEL)
    hotels = levels.count(HOTEL)
    book.owe(seat, BANK, houses * drawn.house + hotels * drawn.hotel, fee=True)


def advance(book: Book, seat: int, drawn: Card) -> None:
    move_to(book, seat, drawn.to)
    arrive(book, seat, drawn.to, None)


def back(book: Book, seat: int, drawn: Card) -> None:
    token = book.tokens[seat]
    token.position = (token.position - drawn.spaces) % BOARD
    arrive(book, seat, token.position, None)


def nearest(book: Book, seat: int, drawn: Card) -> None:
    start = book.tokens[seat].position
    ahead = ((start + step) % BOARD for step in range(1, BOARD + 1))
    target = next(i for i in ahead if book.space(i).kind == drawn.kind)
    move_to(book, seat, target)
    arrive(book, seat, target, None, by_card=drawn.kind)


def jail(book: Book, seat: int, drawn: Card) -> None:
    to_jail(book, seat)


def jail_free(book: Book, seat: int, drawn: Card) -> None:
    book.tokens[seat].cards.append(drawn.deck)  # C3


EFFECTS = {
    "collect": collect,
    "pay": pay,
    "pay_each": pay_each,
    "collect_each": collect_each,
    "repairs": repairs,
    "advance": advance,
    "back": back,
    "nearest": nearest,
    "jail": jail,
    "jail_free": jail_free,
}


# -- buildings, mortgages, trades: B1-B6, M1-M4, X1-X3 --------------------------------------------


def street_cost(old: int, new: int, price: int, needed: int) -> int:
    """What the bank charges (+) or pays back (-) to take one street from `old` to `new`: a
    house at its price (B1); a hotel at the price once the street has the houses it needs,
    which go back to the bank (B3); every building sold back at half (B6), a hotel broken
    down first into the houses it needs, a short game's fourth house sold before its hotel."""
    half = price // 2
    if old == new:
        return 0
    if old == HOTEL:
        return -half + street_cost(needed, new, price, needed)
    if new == HOTEL:
        return street_cost(old, needed, price, needed) + price
    return (new - old) * (price if new > old else half)


def set_levels(book: Book, seat: int, streets, new) -> None:
    """Buildings bought from or sold to the bank (B1-B6); the money between seat and bank."""
    price = book.edition.group_of(streets[0]).house_price or 0
    cost = sum(
        street_cost(book.levels[i], n, price, book.needed)
        for i, n in zip(streets, new, strict=True)
    )
    if cost > 0:
        book.pay(seat, BANK, cost)
    else:
        book.pay(BANK, seat, -cost)
    for index, level in zip(streets, new, strict=True):
        book.levels[index] = level


def build(book: Book, payload: dict) -> None:
    streets = book.edition.groups[payload["group"]].deeds
    set_levels(book, payload["player"], streets, [int(n) for n in payload["levels"]])


def mortgage(book: Book, payload: dict) -> None:
    """M1: the group's buildings back to the bank at half, then the mortgage value."""
    seat, index = payload["player"], payload["deed"]
    streets = book.edition.group_of(index).deeds
    set_levels(book, seat, streets, [0] * len(streets))
    book.mortgaged.add(index)
    book.pay(BANK, seat, book.space(index).mortgage)


def lift_cost(book: Book, index: int) -> int:
    value = book.space(index).mortgage
    return value + math.ceil(value / 10)  # M3


def lift(book: Book, payload: dict) -> None:
    """M3; M4: a deed received whose choice waits is lifted at once for the same sum."""
    book.pay(payload["player"], BANK, lift_cost(book, payload["deed"]))
    book.mortgaged.discard(payload["deed"])
    if (payload["player"], payload["deed"]) in book.received:
        book.received.remove((payload["player"], payload["deed"]))


def keep_mortgaged(book: Book, payload: dict) -> None:
    """M4: the new owner keeps the deed mortgaged and owes the bank its 10% now."""
    seat, index = payload["player"], payload["deed"]
    book.received.remove((seat, index))
    book.owe(seat, BANK, math.ceil(book.space(index).mortgage / 10))


def received_mortgaged(book: Book, taker: int, deeds: list[int], lifted, owe: bool = False) -> None:
    """M4: 10% at once for a mortgaged deed received, or its value and 10% to lift it now."""
    for index in sorted(i for i in deeds if i in book.mortgaged):
        if index in lifted:
            book.pay(taker, BANK, lift_cost(book, index))
            book.mortgaged.discard(index)
        elif owe:
            book.owe(taker, BANK, math.ceil(book.space(index).mortgage / 10))
        else:
            book.pay(taker, BANK, math.ceil(book.space(index).mortgage / 10))


def hand_over(book: Book, giver: int, taker: int, side: dict) -> list[int]:
    deeds = [int(i) for i in side.get("deeds") or []]
    for index in deeds:
        book.owners[index] = taker
    for _ in range(int(side.get("jail_free") or 0)):
        book.tokens[taker].cards.append(book.tokens[giver].cards.pop(0))
    book.pay(giver, taker, int(side.get("cash") or 0))
    return deeds


def trade(book: Book, payload: dict, asked: set[int] | None = None) -> None:
    """X1-X3: cash, deeds and cards both ways between the two parties; M4 to the bank, for
    each mortgaged deed whose new owner the trade asked (`asked`; None: all of them, as the
    banker's trade, sending `lift`, asks, and every trade did before rules 4). Each other
    one waits for its new owner's choice, nothing paid for it yet."""
    player, partner = int(payload["player"]), int(payload["partner"])
    lifted = {int(i) for i in payload.get("lift") or []}
    if asked is None and book.before.settings.trade_receiver_chooses and "lift" not in payload:
        asked = set()
    to_partner = hand_over(book, player, partner, payload.get("give") or {})
    to_player = hand_over(book, partner, player, payload.get("take") or {})
    for taker, deeds in ((partner, to_partner), (player, to_player)):
        chosen = [i for i in deeds if asked is None or i in asked]
        received_mortgaged(book, taker, chosen, lifted)
        book.received += [(taker, i) for i in deeds if i not in chosen and i in book.mortgaged]


def trade_accept(book: Book, payload: dict) -> None:
    """M4: each new owner of a mortgaged deed chose lift-now for what they receive: the
    proposer in the offer (for the deeds mortgaged then), the partner in the acceptance
    (when it carries `lift`); since rules 4 the others wait for their new owner's choice."""
    offer = next(o for o in book.before.offers if o.id == payload["offer"]).trade
    gets = {side: [int(i) for i in offer[side].get("deeds", [])] for side in ("give", "take")}
    chosen = [(offer.get("lift") or [], "take"), (payload.get("lift") or [], "give")]
    lifted = [int(i) for lifts, side in chosen for i in lifts if int(i) in gets[side]]
    asked = None
    if book.before.settings.trade_receiver_chooses:
        asked = {int(i) for i in [*(offer.get("lift") or []), *(offer.get("keep") or [])]}
        asked |= set(gets["give"]) if "lift" in payload else set()
    trade(book, {**offer, "lift": lifted}, asked)


# -- debts and bankruptcy: K1-K5, SG3 -------------------------------------------------------------


def pay_debt(book: Book, payload: dict) -> None:
    """K1: every debt of the seat, each to its own creditor."""
    seat = payload["player"]
    for debt in book.debts_of(seat):
        book.debts.remove(debt)
        book.pay(seat, debt.creditor, debt.amount)
        book.into_pot(debt.amount, debt.fee)


def bankrupt(book: Book, payload: dict) -> None:
    """K2 to the one player owed (the bank's part beside it unpaid), K3 to the bank, K5 to
    the bank when several players are owed; SG3 the second bankruptcy of a short game hands
    everything over as it stands."""
    seat = payload["player"]
    players = {d.creditor for d in book.debts_of(seat)} - {BANK}
    creditor = players.pop() if len(players) == 1 else BANK
    second = book.before.settings.mode == "short" and book.before.bankruptcies >= 1
    book.debts = [
        Debt(d.seat, creditor, d.amount, d.fee) if d.creditor == seat else d
        for d in book.debts
        if d.seat != seat
    ]
    book.choices = [c for c in book.choices if c.seat != seat]
    book.received = [(owner, index) for owner, index in book.received if owner != seat]
    ends = second or len(book.in_play()) == 2
    book.bids.pop(seat, None)  # K2, K3: their bid is withdrawn, its cash handed over too
    if creditor is BANK:
        to_bank(book, seat)
    elif second:
        everything_to(book, seat, creditor)
    else:
        asked = "lift" in payload or not book.before.settings.receiver_chooses or ends
        to_player(book, seat, creditor, {int(i) for i in payload.get("lift") or []}, asked)
    token = book.tokens[seat]
    token.bankrupt, token.in_jail, token.tries, token.cards = True, False, 0, []
    if second or len(book.in_play()) == 1:
        end(book)  # SG3, K4


def sell_buildings(book: Book, seat: int) -> None:
    for index in book.held_by(seat):
        if book.levels[index]:
            set_levels(book, seat, [index], [0])


def to_player(book: Book, seat: int, creditor: int, lifted: set[int], asked: bool) -> None:
    """K2: buildings sold at half; that money, the cash, deeds and cards to the creditor; M4:
    the creditor's choice on each mortgaged deed made with it (`asked`), or waiting for them
    (nothing paid for it yet)."""
    sell_buildings(book, seat)
    book.pay(seat, creditor, book.cash[seat])
    deeds = book.held_by(seat)
    for index in deeds:
        book.owners[index] = creditor
    book.tokens[creditor].cards.extend(book.tokens[seat].cards)
    if asked:
        received_mortgaged(book, creditor, deeds, lifted, owe=True)
    else:
        book.received += [(creditor, i) for i in sorted(deeds) if i in book.mortgaged]


def everything_to(book: Book, seat: int, creditor: int) -> None:
    """SG3: everything as it stands, buildings and mortgages included."""
    book.pay(seat, creditor, book.cash[seat])
    for index in book.held_by(seat):
        book.owners[index] = creditor
    book.tokens[creditor].cards.extend(book.tokens[seat].cards)


def to_bank(book: Book, seat: int) -> None:
    """K3: the cash to the bank, the deeds back unbuilt and unmortgaged, the cards to the
    decks. (The buildings sold at half and that money to the bank: nothing net.)"""
    for index in book.held_by(seat):
        book.levels[index] = 0
        book.owners[index] = None
        book.mortgaged.discard(index)
    book.pay(seat, BANK, book.cash[seat])


def end(book: Book, payload: dict | None = None) -> None:
    """K4, SG3, TL1: the game ends; no choice waits any more, but an open debt stays owed
    (SG4 counts it). M4: a mortgaged deed whose new owner has still to choose is kept, its
    10% paid to the bank or owed (before rules 5 the choice was dropped, nothing paid)."""
    book.ended, book.choices, book.deal_waits, book.bids = True, [], False, {}
    if book.before.settings.received_kept_at_end:
        for owner, index in book.received:
            book.owe(owner, BANK, math.ceil(book.space(index).mortgage / 10))
    book.received = []


# -- the rest -------------------------------------------------------------------------------------


def deal(book: Book, payload: dict) -> None:
    """SG1: two deeds to each player, who owes their printed price to the bank at once (K1:
    paid when the cash covers it, else a debt)."""
    for seat, hand in enumerate(payload["hands"]):
        for index in hand:
            book.owners[int(index)] = seat
            book.owe(seat, BANK, book.space(int(index)).price)
    book.deal_waits = False


def auction_close(book: Book, payload: dict) -> None:
    """P1, K3: the winner pays the bid to the bank and takes the deed; B5: a building won
    goes on the street named, or else the first of the winner's where it may stand (none:
    unsold, nothing paid)."""
    lot, book.bids = book.before.auction, {}
    if lot.bidder is None:
        return
    if lot.deed is not None:
        book.pay(lot.bidder, BANK, lot.bid)
        book.owners[lot.deed] = lot.bidder
        return
    streets = (
        [payload["deed"]] if "deed" in payload else streets_taking(book, lot.bidder, lot.building)
    )
    if streets:
        book.pay(lot.bidder, BANK, lot.bid)
        street = streets[0]
        if lot.building == "hotel":  # SG2: a fourth house is sold back at half first (B6)
            price = book.edition.group_of(street).house_price
            book.pay(BANK, lot.bidder, (book.levels[street] - book.needed) * (price // 2))
        book.levels[street] = HOTEL if lot.building == "hotel" else book.levels[street] + 1


def streets_taking(book: Book, seat: int, building: str) -> list[int]:
    """B1-B4: the seat's streets, in board order, where a house (or a hotel) may stand: a
    whole unmortgaged group, built evenly after it; at most 4 houses; a hotel on a street
    with the houses it needs, every street of the group having them."""
    found = []
    for group in book.edition.groups.values():
        streets = group.deeds
        if not group.house_price or any(book.owners[i] != seat for i in streets):
            continue
        if any(i in book.mortgaged for i in streets):
            continue
        for index in streets:
            levels = [book.levels[i] for i in streets]
            at = streets.index(index)
            if building == "house" and levels[at] < 4:
                levels[at] += 1
            elif building == "hotel" and book.needed <= levels[at] < HOTEL:
                levels[at] = HOTEL
            else:
                continue
            heights = [book.needed + 1 if n == HOTEL else n for n in levels]
            if max(heights) - min(heights) <= 1 and min(heights) >= (
                book.needed if HOTEL in levels else 0
            ):
                found.append(index)
    return sorted(found)


def jail_fine(book: Book, payload: dict) -> None:
    seat = payload["player"]
    book.pay(seat, BANK, book.edition.jail_fine)  # J3
    book.into_pot(book.edition.jail_fine, fee=True)
    book.tokens[seat].in_jail, book.tokens[seat].tries = False, 0


def jail_card(book: Book, payload: dict) -> None:
    token = book.tokens[payload["player"]]
    token.cards.pop(0)  # C3: back to its deck
    token.in_jail, token.tries = False, 0


def go_to_jail(book: Book, payload: dict) -> None:
    to_jail(book, payload["player"])


def place(book: Book, payload: dict) -> None:
    book.tokens[payload["player"]].position = payload["space"]


def pass_go(book: Book, payload: dict) -> None:
    salary(book, payload["player"])


def parking_pot(book: Book, payload: dict) -> None:
    book.pay(BANK, payload["player"], book.pot)
    book.pot = 0


def bank_pay(book: Book, payload: dict) -> None:
    book.pay(BANK, payload["player"], payload["amount"])


def bank_collect(book: Book, payload: dict) -> None:
    book.pay(payload["player"], BANK, payload["amount"])


def transfer(book: Book, payload: dict) -> None:
    book.pay(payload["from"], payload["to"], payload["amount"])


def nothing(book: Book, payload: dict) -> None:
    """No money, deed or token moves (whose turn, phones, offers, bids, an auction opened)."""


def choice_answer(kind: str):
    def answered(book: Book, payload: dict) -> None:
        answer(book, kind, payload)

    return answered


KINDS = {
    "roll": roll,
    "land": land,
    **{kind: choice_answer(kind) for kind in ANSWER},
    "build": build,
    "mortgage": mortgage,
    "lift": lift,
    "keep_mortgaged": keep_mortgaged,
    "trade": trade,
    "trade_accept": trade_accept,
    "pay_debt": pay_debt,
    "bankrupt": bankrupt,
    "end_game": end,
    "deal": deal,
    "auction_close": auction_close,
    "jail_fine": jail_fine,
    "jail_card": jail_card,
    "go_to_jail": go_to_jail,
    "place": place,
    "pass_go": pass_go,
    "parking_pot": parking_pot,
    "bank_pay": bank_pay,
    "bank_collect": bank_collect,
    "transfer": transfer,
    **dict.fromkeys(
        ("turn_to", "phone_turns", "trade_offer", "trade_decline", "bid", "auction_open"), nothing
    ),
}


def expect(before: GameState, edition: Edition, kind: str, payload: dict) -> Book:
    """The book after an action the core accepted, worked out from the state before it."""
    book = Book.of(before, edition)
    KINDS[kind](book, payload)
    return book


# -- the comparison -------------------------------------------------------------------------------


def flows_of(movements) -> Counter:
    """The core's movements as net flows between pairs (one paying oneself shows as such)."""
    flows: Counter = Counter()
    for m in movements:
        flows[pair(m.payer, m.payee)] += m.amount if key(m.payer) < key(m.payee) else -m.amount
    return flows


def netted(flows: Counter) -> dict:
    return {parties: amount for parties, amount in flows.items() if amount}


def differences(book: Book, after: GameState, movements) -> list[str]:
    """Where the core's outcome is not what the book says: empty when they agree."""
    names = ["the bank", *(p.name for p in after.players)]
    found = []
    wanted, done = netted(book.flows), netted(flows_of(movements))
    if wanted != done:
        found.append(
            f"money: the rules name {said(wanted, names)}, the core moved {said(done, names)}"
        )
    debts = sorted((d.seat, key(d.creditor), d.amount, d.fee) for d in book.debts)
    held = sorted(
        (p.seat, key(p.creditor), p.amount, p.fee) for p in after.pending if p.what == DEBT
    )
    if debts != held:
        found.append(f"debts (seat, creditor, amount, fee): the rules {debts}, the core {held}")
    choices = [(c.what, c.seat, c.space, c.by_card) for c in book.choices]
    waiting = [(p.what, p.seat, p.space, p.by_card) for p in after.pending if p.what in ANSWER]
    if choices != waiting:
        found.append(f"choices waiting: the rules {choices}, the core {waiting}")
    received = [(p.seat, p.space) for p in after.pending if p.what == RECEIVED]
    if sorted(book.received) != sorted(received):
        found.append(f"M4 choices waiting: the rules {book.received}, the core {received}")
    found += holdings(book, after)
    return found


def holdings(book: Book, after: GameState) -> list[str]:
    found = []
    if book.pot != after.pot:
        found.append(f"H1 pot: the rules {book.pot}, the core {after.pot}")
    for index, deed in after.deeds.items():
        wanted = (book.owners[index], index in book.mortgaged, book.levels[index])
        if wanted != (deed.owner, deed.mortgaged, deed.houses):
            found.append(
                f"deed {index} (owner, mortgaged, level): the rules {wanted}, the core "
                f"{(deed.owner, deed.mortgaged, deed.houses)}"
            )
    for token, p in zip(book.tokens, after.players, strict=True):
        wanted = (token.position, token.in_jail, token.tries, sorted(token.cards), token.bankrupt)
        core = (p.position, p.in_jail, p.jail_tries, sorted(p.jail_free), p.bankrupt)
        if wanted != core:
            found.append(
                f"{p.name} (space, in jail, tries, cards, bankrupt): the rules {wanted}, "
                f"the core {core}"
            )
    if (book.ended, book.deal_waits) != (after.ended, any(p.what == DEAL for p in after.pending)):
        found.append(f"ended, deal waits: the rules {(book.ended, book.deal_waits)}")
    return found


def said(flows: dict, names: list[str]) -> str:
    """{(a, b): net} as "Ana -> Bea 550, the bank -> Ana 200"."""
    parts = []
    for (a, b), amount in sorted(flows.items()):
        payer, payee = (a, b) if amount > 0 else (b, a)
        parts.append(f"{names[payer + 1]} -> {names[payee + 1]} {abs(amount)}")
    return ", ".join(parts) or "nothing"
