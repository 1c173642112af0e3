"""What the game waits for, and what a seat may do now: the one answer every page, phone and
the API draw their buttons from.

`waits(state, edition)` lists what the game waits for, in order (the deal, a landing's
choice, a mortgaged deed's new owner's choice to lift it now, a debt, an auction, else the
next throw), each with the seat that must act, its figures and its moves.
`moves_for(state, edition, seat)` is everything one seat may do now. A move is an action
kind with its fields filled in, except what only the table can say (`asks`: the dice, an
amount, building levels); a page still previews it through `apply`, which may refuse it in
words (short of cash, say).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .auctions import lowest_bid, may_bid
from .debts import debt_figures, debtors
from .edition import Edition
from .landing import likely_cards
from .property import interest, lift_cost, may_lift_now, whole_groups
from .state import BUY, CARD, CHOICES, DEAL, DEBT, RECEIVED, TAX, GameState, Pending
from .turn import whose_turn

ROLL, AUCTION = "roll", "auction"  # what a wait is when nothing is pending


@dataclass(frozen=True)
class Move:
    kind: str
    fields: dict
    asks: tuple[str, ...] = ()  # what the table still has to say: "dice", "amount", "levels"
    lately: bool = False  # C1: a card drawn lately, less likely to come up next


@dataclass(frozen=True)
class Wait:
    """One thing the game waits for: who must act (None: the banker, or anyone for an
    auction), where, its figures, and the moves that answer it."""

    what: str
    seat: int | None
    space: int | None = None
    figures: dict = field(default_factory=dict)
    moves: tuple[Move, ...] = ()


def waits(state: GameState, edition: Edition) -> list[Wait]:
    """What the game waits for now, first things first; empty once the game has ended."""
    if state.ended:
        return []
    found = [choice_wait(state, edition, item) for item in state.pending if item.what != DEBT]
    found += [debt_wait(state, edition, seat) for seat in debtors(state)]
    if state.auction:
        found.append(auction_wait(state, edition))
    if not found:
        found.append(roll_wait(state))
    return found


def choice_wait(state: GameState, edition: Edition, item: Pending) -> Wait:
    if item.what == DEAL:
        return Wait(DEAL, None, moves=(Move("deal", {}, asks=("hands",)),))
    who = {"player": item.seat}
    figures = {}
    if item.what == BUY:
        figures = {"price": edition.spaces[item.space].price}
        deed = {**who, "deed": item.space}
        options = (Move("buy", deed), Move("decline", deed))
    elif item.what == CARD:
        options = card_moves(state, edition, item)
    elif item.what == TAX:
        space = edition.spaces[item.space]
        figures = {"amount": space.amount, "percent": space.percent}
        options = (Move("tax", who), Move("tax", {**who, "percent": True}))
    elif item.what == RECEIVED:
        return received_wait(state, edition, item)
    else:  # THROW
        figures = {"by_card": item.by_card}
        options = (Move("throw", who, asks=("dice",)),)
    return Wait(item.what, item.seat, item.space, figures, options)


def received_wait(state: GameState, edition: Edition, item: Pending) -> Wait:
    """M4: a mortgaged deed received, for its new owner: lift it now for the value and the 10%
    (when their cash covers it), or keep it mortgaged, paying the 10% (owed if it cannot)."""
    mortgage = edition.spaces[item.space].mortgage
    figures = {"mortgage": mortgage, "interest": interest(mortgage), "lift": lift_cost(mortgage)}
    deed = {"player": item.seat, "deed": item.space}
    lifting = (Move("lift", deed),) if may_lift_now(state, edition, item.seat, item.space) else ()
    return Wait(RECEIVED, item.seat, item.space, figures, (*lifting, Move("keep_mortgaged", deed)))


def card_moves(state: GameState, edition: Edition, item: Pending) -> tuple[Move, ...]:
    """C1: each card of the deck once, the likely ones first."""
    fresh, lately = likely_cards(state, edition, edition.spaces[item.space].kind)
    who = {"player": item.seat}
    return (
        *(Move("card", {**who, "card": c.id}) for c in fresh),
        *(Move("card", {**who, "card": c.id}, lately=True) for c in lately),
    )


def debt_wait(state: GameState, edition: Edition, seat: int) -> Wait:
    """K1: the debt with one set of figures (owed, cash, could raise), paid or given up."""
    debt = debt_figures(state, edition, seat)
    figures = {
        "owed": debt.owed,
        "cash": debt.cash,
        "raisable": debt.raisable,
        "short": debt.short,
        "creditor": debt.creditor,
        "creditors": sorted({d.creditor for d in state.debts_of(seat)}, key=str),
    }
    who = {"player": seat}
    return Wait(DEBT, seat, figures=figures, moves=(Move("pay_debt", who), Move("bankrupt", who)))


def auction_wait(state: GameState, edition: Edition) -> Wait:
    """P1, B5, K3: anyone still in the game bids, then the auction is closed."""
    auction = state.auction
    figures = {"bid": auction.bid, "bidder": auction.bidder, "lowest": lowest_bid(auction)}
    bids = tuple(
        Move("bid", {"player": p.seat}, asks=("amount",))
        for p in state.in_play()
        if may_bid(state, edition, p)
    )
    closer = whose_turn(state)  # with no banker, the phone of the player whose turn it is
    close = Move("auction_close", {"player": closer.seat} if closer else {})
    return Wait(AUCTION, None, auction.deed, figures, (*bids, close))


def roll_wait(state: GameState) -> Wait:
    """R1, J3: the next throw, by the player whose turn it is (out of jail first, maybe)."""
    player = whose_turn(state)
    who = {"player": player.seat}
    options = [Move("roll", who, asks=("dice", "doubles"))]
    if player.in_jail:
        options.append(Move("jail_fine", who))
        if player.jail_free:
            options.append(Move("jail_card", who))
    figures = {"doubles": state.doubles, "in_jail": player.in_jail, "tries": player.jail_tries}
    return Wait(ROLL, player.seat, player.position, figures, tuple(options))


def moves_for(state: GameState, edition: Edition, seat: int) -> list[Move]:
    """Everything one seat may do now: its part of what the game waits for, the trades put
    to it or by it, and its deeds and buildings (any time, B1, M1, M3)."""
    if state.ended or state.players[seat].bankrupt:
        return []
    found = [m for w in waits(state, edition) for m in w.moves if m.fields.get("player") == seat]
    return found + offer_moves(state, seat) + property_moves(state, edition, seat)


def offer_moves(state: GameState, seat: int) -> list[Move]:
    found = []
    for offer in state.offers:
        who = {"player": seat, "offer": offer.id}
        if offer.offered_to(seat):
            found.append(Move("trade_accept", who))
        if offer.concerns(seat):
            found.append(Move("trade_decline", who))
    return found


def property_moves(state: GameState, edition: Edition, seat: int) -> list[Move]:
    """M1, M3: mortgage or lift each deed held; B1: build on each colour group held whole."""
    who = {"player": seat}
    found = []
    for index in state.held_by(seat):
        kind = "lift" if state.deeds[index].mortgaged else "mortgage"
        found.append(Move(kind, {**who, "deed": index}))
    for group in whole_groups(state, edition, seat):
        found.append(Move("build", {**who, "group": group.id}, asks=("levels",)))
    return found


def choice_steps(state: GameState, edition: Edition, seat: int) -> list[dict]:
    """The answers to the first choice that waits for `seat`, as steps a roll may carry
    ({"kind": "buy"}, {"kind": "card", "card": ...}): after a roll is previewed without
    choices, these are what one more tap may add to it."""
    for wait in waits(state, edition):
        if wait.seat == seat and wait.what in CHOICES:
            return [step_of(move) for move in wait.moves]
    return []


def step_of(move: Move) -> dict:
    return {"kind": move.kind, **{k: v for k, v in move.fields.items() if k != "player"}}
