"""The state of one game: what the bank holds and what each player holds. Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field, is_dataclass, replace

HOTEL = 5  # a hotel counts as five houses (B2)
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # S1
MODES = ("classic", "short", "timed")


def plain(value):
    """`dataclasses.asdict` for this module's plain data (fields, lists, dicts, scalars), a
    few times quicker: every action stores a snapshot, so this is on the banker's tap."""
    if is_dataclass(value):
        return {name: plain(item) for name, item in vars(value).items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


@dataclass
class Settings:
    starting_cash: int = 1500
    mode: str = "classic"
    ends_at: str | None = None  # ISO time in UTC, time-limited game (TL1)
    time_zone: str | None = None  # the banker's (IANA name), for times shown without JS
    free_parking_jackpot: bool = False  # H1
    double_go: bool = False  # H2
    no_auctions: bool = False  # H3
    income_tax_percent: bool = True  # T1 option, where the edition allows it
    phone_turns: bool = False  # players' phones may take their own turn (R1)
    # M4: the new owner of a mortgaged deed a bankruptcy hands over, not asked with it, chooses
    # after (RECEIVED waits). Off for a game logged under rules 2, whose log replays without it.
    receiver_chooses: bool = False
    # M4: the same for a trade that does not carry the new owner's choice (a phone's "Accept", a
    # deed mortgaged after the offer named it). Off for a game logged under rules 2 or 3.
    trade_receiver_chooses: bool = False
    # M4: a choice still waiting when the game ends (TL1, SG3, K4, the banker's word) is kept
    # mortgaged, its 10% paid or owed. Off for a game logged under rules 2 to 4 (dropped then).
    received_kept_at_end: bool = False

    @property
    def houses_for_hotel(self) -> int:
        return 3 if self.mode == "short" else 4  # B3, SG2


@dataclass
class PlayerState:
    seat: int
    name: str
    colour: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_free: list[str] = field(default_factory=list)  # decks of the cards held (C3)
    bankrupt: bool = False
    jail_tries: int = 0  # failed rolls for doubles since sent to jail (J3)


@dataclass
class DeedState:
    owner: int | None = None
    houses: int = 0  # 0-4 houses, HOTEL for a hotel
    mortgaged: bool = False


@dataclass
class Auction:
    """The lot on sale: a deed (P1, K3) or a building the bank is short of (B5), with the
    highest bid so far and who made it."""

    building: str | None  # "house" or "hotel" on sale (B5); None for a deed
    deed: int | None  # the deed on sale; None for a building
    minimum: int  # the lowest first bid: 1, or the lowest house price for a building (B5)
    bid: int = 0
    bidder: int | None = None  # None: no bid yet


# What a game can wait for (Pending.what): the seat named must act before the turn goes on.
BUY = "buy"  # an unowned deed landed on: buy it or decline it (P1)
CARD = "card"  # a Chance or Community Chest space: the card drawn at the table (C1)
TAX = "tax"  # income tax with its 10% option: the way chosen before the worth is counted (T1)
THROW = "throw"  # "nearest utility": a fresh throw of the dice for the rent (C2, P6)
DEBT = "debt"  # a payment the rules call for and the cash does not cover (K1)
DEAL = "deal"  # a short or time-limited game: the deeds are dealt before the first roll (SG1)
RECEIVED = "received"  # a mortgaged deed received: its new owner lifts it now or keeps it (M4)
CHOICES = (BUY, CARD, TAX, THROW)  # a landing's choices, which a roll may carry
DECLINE = "decline"  # the other answer to BUY


@dataclass
class Pending:
    """One thing the game waits for, and who must act on it (None: the banker, for the deal)."""

    what: str
    seat: int | None
    space: int | None = None  # the deed, the deck's space, the tax, the utility, the deed received
    amount: int = 0  # a debt: what is owed
    creditor: int | None = None  # a debt: the player owed; None is the bank
    fee: bool = False  # a debt to the bank that goes into the Free Parking pot (H1)
    by_card: bool = False  # the rent after a "nearest" card: railroad twice, utility 10x (C2)


@dataclass(frozen=True)
class TradeOffer:
    """A trade put to the partner's own phone, open until they accept or decline it."""

    id: int
    trade: dict  # the trade action's fields as offered: player, partner, give, take

    def offered_to(self, seat: int) -> bool:
        return str(self.trade["partner"]) == str(seat)  # a seat as sent: a number or form text

    def offered_by(self, seat: int) -> bool:
        return str(self.trade["player"]) == str(seat)  # the proposer, as sent

    def received(self) -> list[int]:
        """The deeds the partner would receive (as offered: numbers or form text)."""
        return [
            int(i) for i in (self.trade.get("give") or {}).get("deeds") or [] if str(i).isdigit()
        ]

    def concerns(self, seat: int) -> bool:
        return self.offered_by(seat) or self.offered_to(seat)


@dataclass
class GameState:
    edition: str
    settings: Settings
    players: list[PlayerState]
    deeds: dict[int, DeedState]
    houses: int  # the bank's supply (S3)
    hotels: int
    pot: int = 0  # Free Parking jackpot (H1)
    ended: bool = False
    auction: Auction | None = None  # the lot on sale, the highest bid and bidder (P1, B5, K3)
    to_auction: list[int] = field(default_factory=list)  # deeds waiting for their auction (K3)
    bankruptcies: int = 0  # SG3: the second one ends a short game
    offers: list[TradeOffer] = field(default_factory=list)  # waiting for the partner's yes
    offers_made: int = 0
    turn: int = 0  # the seat whose turn it is, bankrupt seats skipped when read (R1)
    doubles: int = 0  # doubles thrown in a row this turn (R2)
    drawn: dict[str, list[str]] = field(default_factory=dict)  # each deck's latest cards (C1)
    pending: list[Pending] = field(default_factory=list)  # what the game waits for, in order
    moved: bool = False  # the player whose turn it is has moved: it passes once nothing waits
    again: bool = False  # that move was a throw of doubles: the same player throws again (R2)

    def copy(self) -> GameState:
        return replace(
            self,
            settings=replace(self.settings),
            players=[replace(p, jail_free=list(p.jail_free)) for p in self.players],
            deeds={i: replace(d) for i, d in self.deeds.items()},
            auction=replace(self.auction) if self.auction else None,
            to_auction=list(self.to_auction),
            offers=list(self.offers),
            drawn={deck: list(ids) for deck, ids in self.drawn.items()},
            pending=[replace(item) for item in self.pending],
        )

    def to_dict(self) -> dict:
        """The snapshot as JSON data, as it is stored (the auction and the offers as objects
        with the same keys they always had)."""
        data = plain(self)
        data["deeds"] = {str(i): d for i, d in data["deeds"].items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        return cls(
            edition=data["edition"],
            settings=Settings(**data["settings"]),
            players=[PlayerState(**p) for p in data["players"]],
            deeds={int(i): DeedState(**d) for i, d in data["deeds"].items()},
            houses=data["houses"],
            hotels=data["hotels"],
            pot=data["pot"],
            ended=data["ended"],
            auction=Auction(**data["auction"]) if data.get("auction") else None,
            to_auction=data.get("to_auction", []),
            bankruptcies=data.get("bankruptcies", 0),
            offers=[TradeOffer(**offer) for offer in data.get("offers", [])],
            offers_made=data.get("offers_made", 0),
            turn=data.get("turn", 0),
            doubles=data.get("doubles", 0),
            drawn=data.get("drawn", {}),
            pending=[Pending(**item) for item in data.get("pending", [])],
            moved=data.get("moved", False),
            again=data.get("again", False),
        )

    def in_play(self) -> list[PlayerState]:
        return [p for p in self.players if not p.bankrupt]

    def auctioning(self, index: int) -> bool:
        """The deed is the lot of the open auction (P1)."""
        return self.auction is not None and self.auction.deed == index

    def held_by(self, seat: int) -> list[int]:
        return [i for i, d in self.deeds.items() if d.owner == seat]

    def waiting(self, what: str, seat: int | None = None) -> list[Pending]:
        """The pending items of one kind, for one seat when it is given."""
        return [p for p in self.pending if p.what == what and (seat is None or p.seat == seat)]

    def debts_of(self, seat: int) -> list[Pending]:
        return self.waiting(DEBT, seat)

    def owed_by(self, seat: int) -> int:
        return sum(debt.amount for debt in self.debts_of(seat))

    def busy(self) -> bool:
        """Something waits (a choice, a debt, the deal) or an auction runs: no turn moves on."""
        return bool(self.pending or self.auction or self.to_auction)
