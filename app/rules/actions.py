"""The action being worked out (`Act`) and the declaration of each kind of action.

Each kind is declared once, beside its handler (`@action(...)`): its fields, its rule ids,
the words of its button, and whether a player's own phone may send it. `play.apply` runs
a handler on a copy of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .edition import BOARD_SIZE, Edition, Space
from .errors import RuleError
from .fields import FIELDS, MAX_AMOUNT, MAX_NOTE, SEATS
from .state import DEBT, GameState, Pending, PlayerState
from .wealth import raisable
from .words import N_, Phrase, logged

SEAT_WORDS = dict(  # each seat field, as a message names it
    zip(
        SEATS,
        (Phrase("The player"), Phrase("The payer"), Phrase("The payee"), Phrase("The partner")),
        strict=True,
    )
)


@dataclass(frozen=True)
class Movement:
    """Money moved by an action; a seat of None is the bank."""

    payer: int | None
    payee: int | None
    amount: int


@dataclass
class Outcome:
    state: GameState
    text: str
    movements: list[Movement] = field(default_factory=list)
    lines: list = field(default_factory=list)  # [template, values] pairs, for translation
    # the seats it concerns beyond those its payload names and its money moved (an offer's
    # two sides, when one of them answers it): whose history shows it
    parties: frozenset[int] = frozenset()


# -- reading a payload ------------------------------------------------------------------


def whole_number(value: object, what: str, low: int = 1, high: int = MAX_AMOUNT) -> int:
    """An int from JSON or a form field; anything else is refused with a message."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("input", "{what} must be a whole number", what=Phrase(what))
    if not low <= value <= high:
        raise RuleError(
            "input",
            "{what} must be between {low:,} and {high:,}",
            what=Phrase(what),
            low=low,
            high=high,
        )
    return value


def flag(payload: dict, key: str) -> bool:
    value = payload.get(key, False)
    if isinstance(value, str):
        return value.lower() in ("1", "true", "on", "yes")
    if not isinstance(value, bool):
        raise RuleError("input", "{key} must be true or false", key=key)
    return value


def note(payload: dict) -> str:
    text = payload.get("note") or ""
    if not isinstance(text, str) or len(text) > MAX_NOTE:
        raise RuleError("input", "A note is text of at most {most} characters", most=MAX_NOTE)
    return " ".join(text.split())


class Act:
    """One action being worked out: a copy of the state, the payload, and what it did."""

    def __init__(self, state: GameState, edition: Edition, payload: dict) -> None:
        if not isinstance(payload, dict):
            raise RuleError("input", "An action is a JSON object")
        self.state = state.copy()
        self.edition = edition
        self.payload = payload
        self.lines: list[tuple[str, dict]] = []
        self.movements: list[Movement] = []
        self.parties: set[int] = set()

    def part(self, payload: dict) -> Act:
        """A step of this action with fields of its own (the deed auctioned next, the offer's
        terms, a choice a roll carries): it works on the same state, and what it says and
        pays is this action's."""
        step = Act.__new__(Act)
        step.__dict__.update(self.__dict__)
        step.payload = payload
        return step

    def money(self, amount: int) -> str:
        return self.edition.money(amount)

    def player(self, key: str = "player") -> PlayerState:
        what = SEAT_WORDS.get(key, SEAT_WORDS["player"])
        seat = whole_number(self.payload.get(key), what, 0, len(self.state.players) - 1)
        found = self.state.players[seat]
        if found.bankrupt:
            raise RuleError("K2", "{player} is bankrupt and out of the game", player=found)
        return found

    def amount(self, key: str = "amount") -> int:
        return whole_number(self.payload.get(key), "The amount")

    def dice(self) -> int:
        return whole_number(self.payload.get("dice"), "The dice total", 2, 12)

    def space(self, key: str = "space") -> Space:
        index = whole_number(self.payload.get(key), "The space", 0, BOARD_SIZE - 1)
        return self.edition.spaces[index]

    def deed(self, key: str = "deed") -> Space:
        space = self.space(key)
        if not space.is_deed:
            raise RuleError("input", "{space} is not a deed", space=space.name)
        return space

    def text(self, key: str) -> str:
        """A name from the payload (a card id, a group id); anything but text is no name."""
        value = self.payload.get(key)
        return value if isinstance(value, str) else ""

    def concern(self, *seats: int) -> None:
        """The action concerns these seats too, though its payload does not name them."""
        self.parties.update(seats)

    def say(self, template: str, **params: object) -> None:
        """Add to what the action did, as a template and its values (see words.py)."""
        self.lines.append((template, logged(params)))

    def pay(self, payer: PlayerState | None, payee: PlayerState | None, amount: int) -> None:
        """Move money; a player never goes below zero (K1). None is the bank (S2). The
        highest bidder keeps the cash their bid needs until the auction closes (P1)."""
        if amount <= 0:
            return
        if payer is not None:
            if payer.cash < amount:
                raise self.shortfall(payer, amount, payee)
            if payer.cash - amount < self.bid_of(payer):
                raise RuleError(
                    "P1",
                    "{player}'s bid of {bid:money} stands: that cash is kept for it",
                    player=payer,
                    bid=self.bid_of(payer),
                )
            payer.cash -= amount
        if payee is not None:
            payee.cash += amount
        seat = lambda p: None if p is None else p.seat  # noqa: E731
        self.movements.append(Movement(seat(payer), seat(payee), amount))

    def owe(
        self,
        payer: PlayerState,
        payee: PlayerState | None,
        amount: int,
        words: tuple[str, str],
        fee: bool = False,
        **params: object,
    ) -> None:
        """A payment the rules call for (rent, a tax, a card, a fine): paid now when the cash
        covers it, else it waits as the payer's debt (K1) and the action goes on. `words`:
        the sentence when paid and when owed (with `params`); `fee`: a tax or fine, which
        goes into the Free Parking pot under H1."""
        if amount <= 0:
            return
        params = {"amount": amount, **params}
        spare = payer.cash - self.bid_of(payer)
        if spare >= amount and not self.state.debts_of(payer.seat):
            self.pay(payer, payee, amount)
            if fee and self.state.settings.free_parking_jackpot:
                self.state.pot += amount
            if words[0]:
                self.say(words[0], **params)
            return
        self.add_debt(payer, payee, amount, fee)
        self.say(words[1], **params)
        self.say_short(payer)

    def bid_of(self, player: PlayerState) -> int:
        """The highest bid of an open auction when it is this player's (P1), else 0."""
        auction = self.state.auction
        return auction.bid if auction and auction.bidder == player.seat else 0

    def add_debt(
        self, payer: PlayerState, payee: PlayerState | None, amount: int, fee: bool = False
    ) -> None:
        creditor = None if payee is None else payee.seat
        if creditor is not None:  # a debt owed to a player concerns them: their own history
            self.concern(creditor)
        self.state.pending.append(
            Pending(DEBT, payer.seat, amount=amount, creditor=creditor, fee=fee)
        )

    def say_short(self, payer: PlayerState) -> None:
        """How far the payer falls short: the debt waits to be raised, or, once the game has
        ended, counts against them in the standings (SG4)."""
        short = self.state.owed_by(payer.seat) - payer.cash
        words = (
            N_("{player} is {short:money} short: the debt counts against them in the standings")
            if self.state.ended
            else N_("{player} is {short:money} short: the debt waits until the money is raised")
        )
        self.say(words, player=payer.name, short=short)

    def shortfall(self, payer: PlayerState, amount: int, payee=None) -> RuleError:
        """K1, with the figures the way out needs: who, how much, to whom (None: the bank)."""
        short = amount - payer.cash
        could = raisable(self.state, self.edition, payer.seat)
        return RuleError(
            "K1",
            "{name} cannot pay {amount:money}: {shortfall:money} short. Cash {cash:money}; "
            "could raise {raisable:money} in all by selling buildings and mortgaging.",
            player=payer,
            amount=amount,
            shortfall=short,
            cash=payer.cash,
            raisable=could,
            creditor=None if payee is None else payee.seat,
        )

    def pay_bank_fee(self, payer: PlayerState, amount: int) -> None:
        """A fee paid at once (the fine to leave jail): to the bank, or the pot under H1."""
        self.pay(payer, None, amount)
        if self.state.settings.free_parking_jackpot:
            self.state.pot += amount

    def salary(self, player: PlayerState, landed_on_go: bool = False) -> None:
        """G1; H2 pays double for landing exactly on GO."""
        double = landed_on_go and self.state.settings.double_go
        amount = self.edition.salary * (2 if double else 1)
        self.pay(None, player, amount)
        self.say("{player} collects {amount:money} salary", player=player.name, amount=amount)

    def owner(self, space: Space) -> PlayerState | None:
        seat = self.state.deeds[space.index].owner
        return None if seat is None else self.state.players[seat]

    def clear_of_debt(self, player: PlayerState) -> None:
        """K1: a player with a debt spends nothing on anything else until it is paid."""
        owed = self.state.owed_by(player.seat)
        if owed:
            raise RuleError(
                "K1",
                "{player} owes {amount:money}: pay the debt first",
                player=player,
                amount=owed,
            )


Handler = Callable[[Act], None]

ALWAYS, TURNS = "always", "turns"  # a phone may send the kind always, or with phone turns on


@dataclass(frozen=True)
class Kind:
    """One kind of action, declared once where its handler is written. The API's OpenAPI
    document, what a player's own phone may do, and the words a page shows for a refused
    action are all drawn from these declarations."""

    name: str
    handler: Handler | None  # None: the bank does it itself (undo)
    label: str  # what the button says when the action cannot be previewed
    rules: str  # the rule ids it applies, and a word on its fields
    fields: dict[str, dict]  # JSON Schema of each field it reads
    required: tuple[str, ...] = ()
    own_seat: str | None = None  # a player's own phone may send it, this field set to their seat
    phone: str | None = None  # ALWAYS, or TURNS: only while phones take their own turns (R1)
    others: tuple[str, ...] = ()  # fields another party chooses: never from the sender's phone
    # Whether a payload drawn at an earlier version still says all it does (a bid naming its
    # lot): the game's having moved on since does not refuse it; the rules judge it as it is.
    still_current: Callable[[dict], bool] | None = None


KINDS: dict[str, Kind] = {}


def sent_by_own_phone(kind: Kind, payload: dict) -> dict:
    """The payload as a player's own phone may send it: a field that is another party's
    choice (`others`) is refused."""
    chosen = [name for name in kind.others if name in payload]
    if chosen:
        raise RuleError(
            "input",
            "{field} is another player's choice, not this phone's",
            field=chosen[0],
        )
    return payload


def declare(kind: Kind) -> Kind:
    if kind.name in KINDS:
        raise ValueError(f"action kind {kind.name!r} declared twice")
    KINDS[kind.name] = kind
    return kind


def action(
    name: str,
    label: str,
    rules: str,
    needs: tuple[str, ...] = (),
    may: tuple[str, ...] = (),
    own_seat: str | None = None,
    phone: str | None = None,
    others: tuple[str, ...] = (),
    still_current: Callable[[dict], bool] | None = None,
) -> Callable[[Handler], Handler]:
    """Declare an action kind with its handler: the fields it needs and those it may take,
    by name (each name's schema is in fields.FIELDS), and who may send it from a phone: the
    seat in `own_seat` is the phone's own, `phone` says when (ALWAYS or TURNS), and `others`
    names the fields that are another party's choice, which that phone may not send;
    `still_current(payload)` says when a payload sent from a page drawn before the game moved
    on is worked out all the same."""
    fields = {key: FIELDS[key] for key in (*needs, *may)}
    if phone is not None and own_seat is None:
        own_seat = "player"

    def register(handler: Handler) -> Handler:
        needed = tuple(needs)
        declare(
            Kind(
                name, handler, label, rules, fields, needed, own_seat, phone, others, still_current
            )
        )
        return handler

    return register
