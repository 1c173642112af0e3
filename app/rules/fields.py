"""The fields of the actions, as JSON Schema: what each action kind accepts.

One description serves the API's OpenAPI document and the check of what is stored; the
rules core itself still checks every value it reads (whole_number, flag, note).

A field's name means the same in every action (FIELDS), so a kind declares its fields by
name: `@action("mortgage", ..., needs=("player", "deed"))`.
"""

from __future__ import annotations

from .edition import BOARD_SIZE
from .state import CHOICES as LANDING_CHOICES
from .state import DECLINE, HOTEL, MAX_PLAYERS

MAX_AMOUNT = 1_000_000
MAX_NOTE = 80

SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
AMOUNT = {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT}
SPACE = {"type": "integer", "minimum": 0, "maximum": BOARD_SIZE - 1}
DICE = {"type": "integer", "minimum": 2, "maximum": 12}
FLAG = {"type": "boolean"}
NOTE = {"type": "string", "maxLength": MAX_NOTE}
NAME = {"type": "string", "maxLength": 32}  # a card or a colour group, by its id
LEVEL = {"type": "integer", "minimum": 0, "maximum": HOTEL}
LEVELS = {"type": "array", "items": LEVEL, "maxItems": 4}  # a group has at most 4 deeds
DEEDS = {"type": "array", "items": SPACE, "maxItems": BOARD_SIZE}
SIDE = {
    "type": "object",
    "properties": {
        "cash": {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT},
        "deeds": DEEDS,
        "jail_free": {"type": "integer", "minimum": 0, "maximum": 2},
    },
}
OFFER = {"type": "integer", "minimum": 1}
BUILDING = {"enum": ["house", "hotel"]}
HANDS = {"type": "array", "items": DEEDS, "maxItems": MAX_PLAYERS}

CHOICE_KINDS = (*LANDING_CHOICES, DECLINE)
# A choice a roll carries, answering what its landing leaves to choose: its kind and the
# fields those kinds take (the player is the roller's; a buy's deed is the one landed on).
STEP = {
    "type": "object",
    "properties": {
        "kind": {"enum": list(CHOICE_KINDS)},
        "deed": SPACE,
        "dice": DICE,
        "percent": FLAG,
        "card": NAME,
    },
    "required": ["kind"],
}
CHOICES = {"type": "array", "items": STEP, "maxItems": 4}

SEATS = ("player", "from", "to", "partner")
FIELDS = {
    **{seat: SEAT for seat in SEATS},
    "deed": SPACE,
    "space": SPACE,
    "amount": AMOUNT,
    "note": NOTE,
    "dice": DICE,
    **{yes_or_no: FLAG for yes_or_no in ("passed_go", "percent", "doubles", "allow")},
    "card": NAME,
    "group": NAME,
    "levels": LEVELS,
    "lift": DEEDS,
    "give": SIDE,
    "take": SIDE,
    "offer": OFFER,
    "building": BUILDING,
    "hands": HANDS,
    "choices": CHOICES,
}
