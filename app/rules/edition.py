"""Editions: the board, deeds and cards of one printing of the game, checked and parsed from
the data of an edition file (app/edition_files.py reads the files: no I/O in the core)."""

from __future__ import annotations

from dataclasses import dataclass, field

DEED_KINDS = ("street", "railroad", "utility")
SPACE_KINDS = (*DEED_KINDS, "go", "chest", "chance", "tax", "jail", "parking", "go_to_jail")
RENT_LENGTH = {"street": 6, "railroad": 4, "utility": 2}
DECKS = ("chance", "chest")
CARD_FIELDS = {
    "collect": ("amount",),
    "pay": ("amount",),
    "pay_each": ("amount",),
    "collect_each": ("amount",),
    "repairs": ("house", "hotel"),
    "advance": ("to",),
    "back": ("spaces",),
    "nearest": ("kind",),
    "jail": (),
    "jail_free": (),
}
BOARD_SIZE = 40
JAIL = 10


class EditionError(ValueError):
    """A malformed edition file: the message names the file and the fault."""


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    colour: str
    house_price: int | None
    deeds: tuple[int, ...] = ()


@dataclass(frozen=True)
class Space:
    index: int
    kind: str
    name: str
    group: str | None = None
    price: int = 0
    mortgage: int = 0
    rent: tuple[int, ...] = ()
    amount: int = 0
    percent: int | None = None

    @property
    def is_deed(self) -> bool:
        return self.kind in DEED_KINDS


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    text: str
    effect: str
    amount: int = 0
    to: int = 0
    spaces: int = 0
    kind: str = ""
    house: int = 0
    hotel: int = 0


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    language: str
    currency: str
    salary: int
    jail_fine: int
    houses: int
    hotels: int
    groups: dict[str, Group]
    spaces: tuple[Space, ...]
    cards: dict[str, Card] = field(default_factory=dict)

    @property
    def deeds(self) -> list[Space]:
        return [s for s in self.spaces if s.is_deed]

    def deck(self, name: str) -> list[Card]:
        return [c for c in self.cards.values() if c.deck == name]

    def group_of(self, index: int) -> Group:
        return self.groups[self.spaces[index].group]

    def money(self, amount: int) -> str:
        """An amount as the edition prints it: $1,100 or 1.100 €."""
        if self.currency == "€":
            return f"{amount:,} €".replace(",", ".")
        return f"{self.currency}{amount:,}"


def _need(cond: bool, source: str, fault: str) -> None:
    if not cond:
        raise EditionError(f"{source}: {fault}")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_group(raw: dict, source: str) -> Group:
    _need(isinstance(raw, dict) and isinstance(raw.get("id"), str), source, "a group has no id")
    where = f"group {raw['id']!r}"
    for key in ("name", "colour"):
        _need(isinstance(raw.get(key), str), source, f"{where} has no {key}")
    price = raw.get("house_price")
    _need(price is None or _whole(price), source, f"{where} has a bad house_price")
    return Group(raw["id"], raw["name"], raw["colour"], price)


def _parse_space(raw: dict, position: int, groups: dict[str, Group], source: str) -> Space:
    _need(isinstance(raw, dict), source, f"space {position} is not an object")
    where = f"space {position}"
    _need(raw.get("index") == position, source, f"{where} has index {raw.get('index')!r}")
    kind = raw.get("kind")
    _need(kind in SPACE_KINDS, source, f"{where} has unknown kind {kind!r}")
    _need(isinstance(raw.get("name"), str) and raw["name"], source, f"{where} has no name")
    space = Space(position, kind, raw["name"])
    if kind in DEED_KINDS:
        group = raw.get("group")
        _need(group in groups, source, f"{where} ({raw['name']}) has unknown group {group!r}")
        for key in ("price", "mortgage"):
            _need(_whole(raw.get(key)), source, f"{where} ({raw['name']}) has a bad {key}")
        rent = raw.get("rent")
        _need(
            isinstance(rent, list) and len(rent) == RENT_LENGTH[kind] and all(map(_whole, rent)),
            source,
            f"{where} ({raw['name']}) needs a rent table of {RENT_LENGTH[kind]} whole numbers",
        )
        if kind == "street":
            _need(
                groups[group].house_price is not None,
                source,
                f"group {group!r} of {raw['name']} has no house_price",
            )
        space = Space(
            position, kind, raw["name"], group, raw["price"], raw["mortgage"], tuple(rent)
        )
    elif kind == "tax":
        _need(_whole(raw.get("amount")), source, f"{where} ({raw['name']}) has a bad amount")
        percent = raw.get("percent")
        _need(percent is None or _whole(percent), source, f"{where} has a bad percent")
        space = Space(position, kind, raw["name"], amount=raw["amount"], percent=percent)
    return space


def _parse_card(raw: dict, deck: str, source: str) -> Card:
    _need(
        isinstance(raw, dict) and isinstance(raw.get("id"), str), source, f"a {deck} card has no id"
    )
    where = f"card {raw['id']!r}"
    _need(isinstance(raw.get("text"), str), source, f"{where} has no text")
    effect = raw.get("effect")
    _need(effect in CARD_FIELDS, source, f"{where} has unknown effect {effect!r}")
    values = {}
    for key in CARD_FIELDS[effect]:
        value = raw.get(key)
        if key == "kind":
            _need(value in ("railroad", "utility"), source, f"{where} needs kind railroad/utility")
        else:
            _need(_whole(value), source, f"{where} needs a whole number {key}")
        values[key] = value
    if effect == "advance":
        _need(values["to"] < BOARD_SIZE, source, f"{where} advances to no space")
    return Card(raw["id"], deck, raw["text"], effect, **values)


TEXTS = ("id", "name", "language", "currency")
NUMBERS = ("salary", "jail_fine", "houses", "hotels")


def parse_edition(data: object, source: str) -> Edition:
    """Check an edition's data and build it; any fault is an EditionError naming `source`."""
    _need(isinstance(data, dict), source, "the file does not hold a JSON object")
    for key in TEXTS:
        _need(isinstance(data.get(key), str) and data[key], source, f"missing {key}")
    for key in NUMBERS:
        _need(_whole(data.get(key)), source, f"{key} must be a whole number")
    groups = _parse_groups(data.get("groups"), source)
    spaces = _parse_board(data.get("spaces"), groups, source)
    _need(spaces[JAIL].kind == "jail", source, f"space {JAIL} must be the jail")
    return Edition(
        **{key: data[key] for key in (*TEXTS, *NUMBERS)},
        groups=groups,
        spaces=spaces,
        cards=_parse_cards(data.get("cards") or {}, source),
    )


def _parse_groups(raw_groups: object, source: str) -> dict[str, Group]:
    _need(isinstance(raw_groups, list) and raw_groups, source, "missing groups")
    return {g.id: g for g in (_parse_group(raw, source) for raw in raw_groups)}


def _parse_board(raw_spaces: object, groups: dict[str, Group], source: str) -> tuple[Space, ...]:
    """The 40 spaces; each group then learns its deeds (in `groups`, in place)."""
    _need(
        isinstance(raw_spaces, list) and len(raw_spaces) == BOARD_SIZE,
        source,
        f"the board needs {BOARD_SIZE} spaces, found {len(raw_spaces or [])}",
    )
    spaces = tuple(_parse_space(raw, i, groups, source) for i, raw in enumerate(raw_spaces))
    deeds = [s for s in spaces if s.is_deed]
    _need(len(deeds) == 28, source, f"the board needs 28 deeds, found {len(deeds)}")
    for gid, group in groups.items():
        members = tuple(s.index for s in deeds if s.group == gid)
        _need(len(members) >= 1, source, f"group {gid!r} has no deeds")
        groups[gid] = Group(group.id, group.name, group.colour, group.house_price, members)
    return spaces


def _parse_cards(raw_cards: object, source: str) -> dict[str, Card]:
    _need(isinstance(raw_cards, dict), source, "cards must be an object of decks")
    cards: dict[str, Card] = {}
    for deck, raw_deck in raw_cards.items():
        _need(deck in DECKS, source, f"unknown deck {deck!r}")
        _need(isinstance(raw_deck, list), source, f"deck {deck!r} must be a list")
        for raw in raw_deck:
            card = _parse_card(raw, deck, source)
            _need(card.id not in cards, source, f"card id {card.id!r} appears twice")
            cards[card.id] = card
    return cards
