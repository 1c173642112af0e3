"""The fields of the actions, as JSON Schema: what each action kind accepts.

One description serves the API's OpenAPI document and the check of what is stored; the
rules core itself still checks every value it reads (whole_number, flag, note).

A field's name means the same in every action (FIELDS), so a kind declares its fields by
name: `@action("mortgage", ..., needs=("player", "deed"))`.
"""

from __future__ import annotations

MAX_AMOUNT = 1_000_000
MAX_NOTE = 80

SEAT = {"type": "integer", "minimum": 0, "maximum": 7}
AMOUNT = {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT}
SPACE = {"type": "integer", "minimum": 0, "maximum": 39}
DICE = {"type": "integer", "minimum": 2, "maximum": 12}
FLAG = {"type": "boolean"}
NOTE = {"type": "string", "maxLength": MAX_NOTE}
NAME = {"type": "string", "maxLength": 32}  # a card or a colour group, by its id
LEVELS = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 5}, "maxItems": 4}
DEEDS = {"type": "array", "items": SPACE, "maxItems": 28}
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
HANDS = {"type": "array", "items": DEEDS, "maxItems": 8}

LANDING_KINDS = ("buy", "decline", "rent", "tax", "visit", "card", "go_to_jail")
# The landing's own action inside a roll: its kind and the fields those kinds take (the
# player is the roller's; passed_go is the roll's own).
STEP = {
    "type": "object",
    "properties": {
        "kind": {"enum": list(LANDING_KINDS)},
        "deed": SPACE,
        "space": SPACE,
        "dice": DICE,
        "by_card": FLAG,
        "percent": FLAG,
        "card": NAME,
    },
    "required": ["kind"],
}

SEATS = ("player", "from", "to", "partner", "creditor")
FIELDS = {
    **{seat: SEAT for seat in SEATS},
    "deed": SPACE,
    "space": SPACE,
    "amount": AMOUNT,
    "owed": AMOUNT,
    "note": NOTE,
    "dice": DICE,
    **{yes_or_no: FLAG for yes_or_no in ("passed_go", "by_card", "percent", "doubles", "allow")},
    "card": NAME,
    "group": NAME,
    "levels": LEVELS,
    "lift": DEEDS,
    "give": SIDE,
    "take": SIDE,
    "offer": OFFER,
    "building": BUILDING,
    "hands": HANDS,
    "land": STEP,
    "then": STEP,
}
