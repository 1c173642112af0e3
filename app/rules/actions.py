"""Banker actions. Each one checks the rule book, then moves money and deeds on a copy.

`apply(state, edition, kind, payload)` returns an Outcome (the new state, what happened in
plain words, the money that moved) or raises RuleError and changes nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .edition import BOARD_SIZE, JAIL, Card, Edition, Space
from .errors import RuleError
from .fields import FIELDS, MAX_AMOUNT, MAX_NOTE
from .landing import remember_draw
from .rent import rent_due
from .state import HOTEL, MODES, DeedState, GameState, PlayerState, Settings
from .wealth import raisable, total_worth
from .words import N_, Phrase, sentence

MAX_NAME = 24
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
SEAT_WORDS = {
    "player": Phrase("The player"),
    "from": Phrase("The payer"),
    "to": Phrase("The payee"),
    "partner": Phrase("The partner"),
    "creditor": Phrase("The creditor"),
}


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
    next_space: int | None = None  # a card moved the player: that space's own action follows
    lines: list = field(default_factory=list)  # [template, values] pairs, for translation
    by_card: bool = False  # P5, P6: the move to next_space was a "nearest" card's (its rents)


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
        self.next_space: int | None = None
        self.by_card = False  # next_space is a "nearest" card's: its own rents (P5, P6)
        self.moved = False  # a roll already moved the player and paid the salary (R1)

    def part(self, payload: dict) -> Act:
        """A step of this action with fields of its own (the deed auctioned next, the offer's
        terms, a roll's landing): it works on the same state, and what it says and pays is
        this action's."""
        step = Act.__new__(Act)
        step.__dict__.update(self.__dict__)
        step.payload, step.next_space, step.by_card = payload, None, False
        return step

    def money(self, amount: int) -> str:
        return self.edition.money(amount)

    def player(self, key: str = "player") -> PlayerState:
        what = SEAT_WORDS.get(key, SEAT_WORDS["player"])
        seat = whole_number(self.payload.get(key), what, 0, len(self.state.players) - 1)
        found = self.state.players[seat]
        if found.bankrupt:
            raise RuleError("K2", "{player} is bankrupt and out of the game", player=found.name)
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

    def say(self, template: str, **params: object) -> None:
        """Add to what the action did, as a template and its values (see words.py)."""
        self.lines.append((template, params))

    def pay(self, payer: PlayerState | None, payee: PlayerState | None, amount: int) -> None:
        """Move money; a player never goes below zero (K1). None is the bank (S2)."""
        if amount <= 0:
            return
        if payer is not None:
            if payer.cash < amount:
                raise self.shortfall(payer, amount, payee)
            payer.cash -= amount
        if payee is not None:
            payee.cash += amount
        seat = lambda p: None if p is None else p.seat  # noqa: E731
        self.movements.append(Movement(seat(payer), seat(payee), amount))

    def shortfall(self, payer: PlayerState, amount: int, payee=None) -> RuleError:
        """K1, with the figures the way out needs: who, how much, to whom (None: the bank)."""
        short = amount - payer.cash
        could = raisable(self.state, self.edition, payer.seat)
        return RuleError(
            "K1",
            "{name} cannot pay {amount:money}: {shortfall:money} short. Cash {cash:money}; "
            "could raise {raisable:money} in all by selling buildings and mortgaging.",
            name=payer.name,
            player=payer.seat,
            amount=amount,
            shortfall=short,
            cash=payer.cash,
            raisable=could,
            creditor=None if payee is None else payee.seat,
        )

    def pay_bank_fee(self, payer: PlayerState, amount: int) -> None:
        """Taxes and fines: paid to the bank, or into the Free Parking pot under H1."""
        self.pay(payer, None, amount)
        if self.state.settings.free_parking_jackpot:
            self.state.pot += amount

    def salary(self, player: PlayerState, landed_on_go: bool = False) -> None:
        """G1; H2 pays double for landing exactly on GO."""
        double = landed_on_go and self.state.settings.double_go
        amount = self.edition.salary * (2 if double else 1)
        self.pay(None, player, amount)
        self.say("{player} collects {amount:money} salary", player=player.name, amount=amount)

    def arrive(self, player: PlayerState, space: Space) -> None:
        """A landing by dice: salary when passing GO (G1), then the player stands there."""
        if player.in_jail:
            raise RuleError(
                "J3",
                "{player} is in jail: record how they get out first "
                "(doubles, a Get Out of Jail Free card or the fine)",
                player=player.name,
            )
        if self.moved:
            pass  # the roll paid the salary on its way (G1)
        elif space.index == 0:
            self.salary(player, landed_on_go=True)
        elif flag(self.payload, "passed_go"):
            self.salary(player)
        player.position = space.index

    def owner(self, space: Space) -> PlayerState | None:
        seat = self.state.deeds[space.index].owner
        return None if seat is None else self.state.players[seat]


Handler = Callable[[Act], None]


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
    own_seat: str | None = None  # a player's own phone may do it, this field set to their seat


KINDS: dict[str, Kind] = {}


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
) -> Callable[[Handler], Handler]:
    """Declare an action kind with its handler: the fields it needs and those it may take,
    by name (each name's schema is in fields.FIELDS; see Kind for the rest)."""
    fields = {key: FIELDS[key] for key in (*needs, *may)}

    def register(handler: Handler) -> Handler:
        declare(Kind(name, handler, label, rules, fields, tuple(needs), own_seat))
        return handler

    return register


def apply(state: GameState, edition: Edition, kind: str, payload: dict) -> Outcome:
    if state.ended:
        raise RuleError("K4", "This game has ended")
    declared = KINDS.get(kind) if isinstance(kind, str) else None
    handler = declared.handler if declared else None
    if handler is None:
        raise RuleError("input", "Unknown action {kind}", kind=repr(kind))
    try:
        act = Act(state, edition, payload)
        handler(act)
    except RuleError as refusal:
        refusal.money = edition.money
        raise
    text = sentence(act.lines, edition.money)
    lines = [[template, params] for template, params in act.lines]
    return Outcome(act.state, text, act.movements, act.next_space, lines, act.by_card)


# -- setting up ----------------------------------------------------------------------------


def _setup_player(seat: int, raw: object, cash: int) -> PlayerState:
    if not isinstance(raw, dict):
        raise RuleError("input", "Player {number} needs a name and a colour", number=seat + 1)
    name = raw.get("name")
    name = " ".join(name.split()) if isinstance(name, str) else ""
    if not 1 <= len(name) <= MAX_NAME:
        raise RuleError(
            "input",
            "Player {number} needs a name of 1 to {most} characters",
            number=seat + 1,
            most=MAX_NAME,
        )
    colour = raw.get("colour")
    if not isinstance(colour, str) or not COLOUR.match(colour):
        raise RuleError("input", "{player} needs a colour like #e03131", player=name)
    return PlayerState(seat=seat, name=name, colour=colour.lower(), cash=cash)


def valid_time(value: object) -> bool:
    try:
        return isinstance(value, str) and datetime.fromisoformat(value) is not None
    except ValueError:
        return False


def zone_of(setup: dict) -> str | None:
    """The banker's time zone (IANA name, from the browser), None when not given."""
    name = setup.get("time_zone") or None
    if name is None:
        return None
    try:
        if not isinstance(name, str) or len(name) > 64:
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise RuleError("input", "Unknown time zone {zone}", zone=str(name)[:64]) from None
    return name


def end_time_utc(ends_at: str, zone: str | None) -> str:
    """TL1: the agreed end as UTC. A time without an offset is the banker's local time in
    `zone` (UTC when no zone is given); one with an offset means what it says."""
    when = datetime.fromisoformat(ends_at)
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(zone) if zone else UTC)
    return when.astimezone(UTC).isoformat()


def income_tax_option(edition: Edition, setup: dict) -> bool:
    """T1: the 10% choice is on where the edition prints it, unless the setup says no: the
    same default for the new-game page (ticked) and the API (field left out)."""
    if "income_tax_percent" in setup:
        return flag(setup, "income_tax_percent")
    return any(space.percent for space in edition.spaces)


def new_game(edition: Edition, setup: dict) -> GameState:
    """S1-S4: the players with their starting cash, every deed with the bank, the full supply."""
    if not isinstance(setup, dict):
        raise RuleError("input", "A new game is a JSON object")
    cash = whole_number(setup.get("starting_cash", 1500), "The starting cash")
    mode = setup.get("mode", "classic")
    if mode not in MODES:
        raise RuleError("input", "The mode must be one of {modes}", modes=", ".join(MODES))
    ends_at = setup.get("ends_at")
    if mode == "timed" and not valid_time(ends_at):
        raise RuleError("TL1", "A time-limited game needs its end time, like 2026-11-22T21:30")
    raw_players = setup.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 8:
        raise RuleError("S1", "A game has 2 to 8 players")
    players = [_setup_player(seat, raw, cash) for seat, raw in enumerate(raw_players)]
    names = [p.name.casefold() for p in players]
    if len(set(names)) < len(names):
        raise RuleError("input", "Two players have the same name")
    settings = Settings(
        starting_cash=cash,
        mode=mode,
        ends_at=end_time_utc(ends_at, zone_of(setup)) if mode == "timed" else None,
        time_zone=zone_of(setup),
        free_parking_jackpot=flag(setup, "free_parking_jackpot"),
        double_go=flag(setup, "double_go"),
        no_auctions=flag(setup, "no_auctions"),
        income_tax_percent=income_tax_option(edition, setup),
    )
    return GameState(
        edition=edition.id,
        settings=settings,
        players=players,
        deeds={d.index: DeedState() for d in edition.deeds},
        houses=edition.houses,
        hotels=edition.hotels,
    )


# -- landing on a space --------------------------------------------------------------------


@action("buy", label=N_("Buy"), rules="P1", needs=("player", "deed"), may=("passed_go",))
def buy(act: Act) -> None:
    """P1: an unowned deed at its printed price."""
    player, deed = act.player(), act.deed()
    if act.owner(deed) is not None:
        raise RuleError(
            "P1", "{deed} already belongs to {owner}", deed=deed.name, owner=act.owner(deed).name
        )
    if act.state.auctioning(deed.index):
        raise RuleError("P1", "{deed} is being auctioned", deed=deed.name)
    if deed.index in act.state.to_auction:
        raise RuleError("K3", "{deed} is being auctioned", deed=deed.name)  # waits its turn
    act.arrive(player, deed)
    act.pay(player, None, deed.price)
    act.state.deeds[deed.index].owner = player.seat
    act.say(
        "{player} buys {deed} for {price:money}",
        player=player.name,
        deed=deed.name,
        price=deed.price,
    )


@action(
    "rent",
    label=N_("Pay rent"),
    rules="P2-P7, C2; dice needed on a utility",
    needs=("player", "deed"),
    may=("dice", "by_card", "passed_go"),
)
def rent(act: Act) -> None:
    """P2-P7, and the nearest railroad / utility cards (C2) with `by_card`."""
    player, deed = act.player(), act.deed()
    owner = act.owner(deed)
    if owner is None:
        raise RuleError("P1", "{deed} belongs to the bank: buy it or decline it", deed=deed.name)
    if owner is player:
        raise RuleError(
            "P2", "{deed} is {player}'s own deed: no rent", deed=deed.name, player=player.name
        )
    if act.state.deeds[deed.index].mortgaged:
        raise RuleError("M2", "{deed} is mortgaged: no rent", deed=deed.name)
    by_card = flag(act.payload, "by_card")
    dice = act.dice() if deed.kind == "utility" else None
    act.arrive(player, deed)
    amount = rent_due(act.state, act.edition, deed.index, dice, by_card)
    act.pay(player, owner, amount)
    act.say(
        "{player} pays {owner} {amount:money} rent for {deed}",
        player=player.name,
        owner=owner.name,
        amount=amount,
        deed=deed.name,
    )


@action(
    "tax",
    label=N_("Pay the tax"),
    rules="T1, T2",
    needs=("player", "space"),
    may=("percent", "passed_go"),
)
def tax(act: Act) -> None:
    """T1 (with its 10% option, chosen before the worth is counted) and T2."""
    player, space = act.player(), act.space()
    if space.kind != "tax":
        raise RuleError("input", "{space} is not a tax", space=space.name)
    act.arrive(player, space)
    amount = space.amount
    if flag(act.payload, "percent"):
        if space.percent is None or not act.state.settings.income_tax_percent:
            raise RuleError("T1", "{space} has no percentage option in this game", space=space.name)
        worth = total_worth(act.state, act.edition, player.seat)
        amount = math.ceil(worth * space.percent / 100)
    act.pay_bank_fee(player, amount)
    act.say("{player} pays {amount:money} {tax}", player=player.name, amount=amount, tax=space.name)


@action("go_to_jail", label=N_("Go to jail"), rules="J1, G2", needs=("player",))
def go_to_jail(act: Act) -> None:
    """J1, G2: straight to jail, no salary; a player already there stays."""
    player = act.player()
    if player.in_jail:
        raise RuleError("J1", "{player} is already in jail", player=player.name)
    send_to_jail(act, player)


def send_to_jail(act: Act, player: PlayerState) -> None:
    player.position, player.in_jail, player.jail_tries = JAIL, True, 0
    act.say("{player} goes to jail", player=player.name)


@action(
    "visit", label=N_("Just landing"), rules="J2, H1", needs=("player", "space"), may=("passed_go",)
)
def visit(act: Act) -> None:
    """A landing where nothing is owed: GO, just visiting (J2), Free Parking (H1), own deed."""
    player, space = act.player(), act.space()
    _refuse_if_due(act, player, space)
    act.arrive(player, space)
    act.say("{player} lands on {space}", player=player.name, space=space.name)
    if space.kind == "parking" and act.state.pot:
        jackpot = take_pot(act, player)
        act.say("takes the Free Parking pot of {amount:money}", amount=jackpot)


def take_pot(act: Act, player: PlayerState) -> int:
    """H1: the Free Parking pot goes to the player, all of it; returns how much."""
    jackpot, act.state.pot = act.state.pot, 0
    act.pay(None, player, jackpot)
    return jackpot


def _refuse_if_due(act: Act, player: PlayerState, space: Space) -> None:
    """Landing with nothing to do is refused where the space calls for an action."""
    if space.kind == "tax":
        raise RuleError("T1", "{space} is due: use the tax action", space=space.name)
    if space.kind == "go_to_jail":
        raise RuleError("J1", "{space}: use the go to jail action", space=space.name)
    if space.is_deed:
        owner = act.owner(space)
        if owner is None:
            raise RuleError("P1", "{space} is for sale: buy it or decline it", space=space.name)
        if owner is not player and not act.state.deeds[space.index].mortgaged:
            raise RuleError(
                "P2", "Rent is due to {owner} for {space}", owner=owner.name, space=space.name
            )


@action("pass_go", label=N_("Collect salary"), rules="G1", needs=("player",))
def pass_go(act: Act) -> None:
    """G1."""
    act.salary(act.player())


# -- cards ---------------------------------------------------------------------------------


def _card(act: Act) -> Card:
    card = act.edition.cards.get(act.text("card"))
    if card is None:
        raise RuleError("input", "Unknown card")
    return card


@action(
    "card", label=N_("Card"), rules="C1-C3", needs=("player", "card"), may=("space", "passed_go")
)
def card(act: Act) -> None:
    """C1-C3: a drawn card's effect, computed from the board."""
    player, drawn = act.player(), _card(act)
    if "space" in act.payload:
        space = act.space()
        if space.kind != drawn.deck:
            raise RuleError("C1", "That card is not drawn on {space}", space=space.name)
        act.arrive(player, space)
    elif player.in_jail:
        raise RuleError("J3", "{player} is in jail", player=player.name)
    act.say("{player} draws “{card}”", player=player.name, card=drawn.text)
    remember_draw(act.state, act.edition, drawn)
    CARD_EFFECTS[drawn.effect](act, player, drawn)


def _collect(act: Act, player: PlayerState, card: Card) -> None:
    act.pay(None, player, card.amount)
    act.say("collects {amount:money}", amount=card.amount)


def _pay(act: Act, player: PlayerState, card: Card) -> None:
    act.pay_bank_fee(player, card.amount)
    act.say("pays the bank {amount:money}", amount=card.amount)


def _others(act: Act, player: PlayerState) -> list[PlayerState]:
    return [p for p in act.state.in_play() if p is not player]


def _pay_each(act: Act, player: PlayerState, card: Card) -> None:
    others = _others(act, player)
    if player.cash < card.amount * len(others):
        raise act.shortfall(player, card.amount * len(others))
    for other in others:
        act.pay(player, other, card.amount)
    act.say("pays {amount:money} to each of {count:players}", amount=card.amount, count=len(others))


def _collect_each(act: Act, player: PlayerState, card: Card) -> None:
    others = _others(act, player)
    for other in others:
        act.pay(other, player, card.amount)
    act.say(
        "collects {amount:money} from each of {count:players}",
        amount=card.amount,
        count=len(others),
    )


def _repairs(act: Act, player: PlayerState, card: Card) -> None:
    built = [act.state.deeds[i].houses for i in act.state.held_by(player.seat)]
    hotels = sum(h == HOTEL for h in built)
    houses = sum(h for h in built if h < HOTEL)
    amount = houses * card.house + hotels * card.hotel
    act.pay_bank_fee(player, amount)
    act.say(
        "pays {amount:money} for {houses:houses} and {hotels:hotels}",
        amount=amount,
        houses=houses,
        hotels=hotels,
    )


def _move_to(act: Act, player: PlayerState, target: int) -> None:
    """A card move forward: salary when it passes or lands on GO (G1)."""
    if target == 0:
        act.salary(player, landed_on_go=True)
    elif target < player.position:
        act.salary(player)
    player.position = target
    act.say("moves to {space}", space=act.edition.spaces[target].name)
    if target != 0:
        act.next_space = target


def _advance(act: Act, player: PlayerState, card: Card) -> None:
    _move_to(act, player, card.to)


def _back(act: Act, player: PlayerState, card: Card) -> None:
    player.position = (player.position - card.spaces) % BOARD_SIZE
    act.next_space = player.position
    act.say("goes back to {space}", space=act.edition.spaces[player.position].name)


def _nearest(act: Act, player: PlayerState, card: Card) -> None:
    ahead = [(player.position + step) % BOARD_SIZE for step in range(1, BOARD_SIZE + 1)]
    target = next(i for i in ahead if act.edition.spaces[i].kind == card.kind)
    _move_to(act, player, target)
    act.by_card = act.next_space is not None


def _jail(act: Act, player: PlayerState, card: Card) -> None:
    send_to_jail(act, player)


def _jail_free(act: Act, player: PlayerState, card: Card) -> None:
    holder = next((p for p in act.state.players if card.deck in p.jail_free), None)
    if holder is not None:
        raise RuleError(
            "C3", "{player} already holds that Get Out of Jail Free card", player=holder.name
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


# -- jail ------------------------------------------------------------------------------------


def _jailed(act: Act) -> PlayerState:
    player = act.player()
    if not player.in_jail:
        raise RuleError("J3", "{player} is not in jail", player=player.name)
    player.in_jail, player.jail_tries = False, 0
    return player


@action("jail_fine", label=N_("Pay the fine"), rules="J3", needs=("player",))
def jail_fine(act: Act) -> None:
    """J3: pay the fine and leave jail."""
    player = _jailed(act)
    act.pay_bank_fee(player, act.edition.jail_fine)
    act.say(
        "{player} pays the {fine:money} fine and leaves jail",
        player=player.name,
        fine=act.edition.jail_fine,
    )


@action("jail_card", label=N_("Use Get Out of Jail Free"), rules="J3, C3", needs=("player",))
def jail_card(act: Act) -> None:
    """J3, C3: a Get Out of Jail Free card, back to its deck once used."""
    player = _jailed(act)
    if not player.jail_free:
        raise RuleError("C3", "{player} holds no Get Out of Jail Free card", player=player.name)
    player.jail_free.pop(0)
    act.say("{player} uses a Get Out of Jail Free card and leaves jail", player=player.name)


@action("jail_doubles", label=N_("Doubles: leave jail"), rules="J3", needs=("player",))
def jail_doubles(act: Act) -> None:
    """J3: doubles thrown in jail, out at no cost (the landing is its own action)."""
    player = _jailed(act)
    act.say("{player} throws doubles and leaves jail", player=player.name)


# -- money between the bank and the players ---------------------------------------------------


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
    own_seat="player",
)
def bank_collect(act: Act) -> None:
    player, amount = act.player(), act.amount()
    act.pay(player, None, amount)
    say_with_note(act, "{player} pays the bank {amount:money}", player=player.name, amount=amount)


@action(
    "transfer",
    label=N_("Pay"),
    rules="K1, X2",
    needs=("from", "to", "amount"),
    may=("note",),
    own_seat="from",
)
def transfer(act: Act) -> None:
    payer, payee, amount = act.player("from"), act.player("to"), act.amount()
    if payer is payee:
        raise RuleError("input", "A player cannot pay themselves")
    act.pay(payer, payee, amount)
    say_with_note(
        act,
        "{payer} pays {payee} {amount:money}",
        payer=payer.name,
        payee=payee.name,
        amount=amount,
    )
