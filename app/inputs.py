"""Bounded input: what may come into a game from the API, a form or a phone, read one way.

- JSON bodies and form payloads are parsed by `parse_json`: no NaN or Infinity, no number of
  more than DIGITS digits, no nesting deeper than DEPTH; anything else is a RuleError("input").
- An action's fields and a game's setup are checked against the JSON Schema the OpenAPI
  document publishes (`app/rules/fields.py`, the kinds' declarations, `rules/setup.py: SETUP`),
  and only the fields that schema names are kept, so nothing else is ever stored.
- Forms and query strings send text: a field the schema says is a whole number is read from
  plain ASCII digits (at most DIGITS), a flag from on/1/true/yes; anything else stays as it came
  and is refused by the schema with the field's name.
- Every string, wherever it comes from (a JSON key or value, a form field, a query argument,
  an archive), is text a page can show: valid Unicode without lone surrogates, control
  characters or noncharacters, at most TEXT_MAX characters and MARKS_MAX combining marks on
  one letter, and it is kept in NFC (`clean_text`). Anything else is a RuleError("input").
- A player's name shows at least one character (`visible`): not only spaces, zero-width or
  other invisible characters, or combining marks.

A missing field is left to the rules core, which says what it needs in its own words.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache

from .rules import KINDS, RuleError
from .rules.actions import SEAT_WORDS
from .rules.setup import SETUP
from .rules.words import N_, Phrase

DIGITS = 12  # a whole number in a form or query string has at most this many digits
JSON_DIGITS = 24  # in JSON: longer than any bound, so the schema says which bound it broke
DEPTH = 8  # the deepest legitimate body (a setup, a trade, dealt hands) is 4 levels deep
TEXT_MAX = 4000  # characters in one string; the longest real one, a form's payload, is < 500
MARKS_MAX = 8  # combining marks on one letter: Vietnamese uses 2, Tibetan stacks a few more
TRUE_WORDS = ("1", "true", "on", "yes")
FALSE_WORDS = ("0", "false", "off", "no", "")

LABELS = {  # the rules core's own words for a field, so the message reads the same
    **SEAT_WORDS,
    "amount": Phrase("The amount"),
    "dice": Phrase("The dice total"),
    "space": Phrase("The space"),
    "deed": Phrase("The space"),
    "deeds": Phrase("A deed"),
    "lift": Phrase("A deed"),
    "hands": Phrase("A deed"),
    "levels": Phrase("A building level"),
    "cash": Phrase("The cash in a trade"),
    "offer": Phrase("The offer"),
    "starting_cash": Phrase("The starting cash"),
}


# Characters no text of a game holds: C0 and C1 controls but tab, line feed and carriage
# return; lone surrogates (JSON's "\ud800", which no page can even encode); noncharacters.
FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000))
    + "]"
)


# Bidirectional embeddings, overrides and isolates: a right-to-left override (U+202E) at the
# start of a player's name turns the rest of every sentence that names them around ("Ana pays
# Bea $50" shows "Ana pays 05$ aeB"). Hebrew and Arabic names need none of them.
DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")
TOO_LONG = N_("The field {field} is too long (at most {most:,} characters)")


def text_fault(text: str) -> tuple[str, dict] | None:
    """Why a string cannot be taken, as a message template and its values; None if it can."""
    if FORBIDDEN.search(text):
        return (
            N_(
                "The field {field} holds a character that is not allowed (a control "
                "character, half of a character or a noncharacter)"
            ),
            {},
        )
    if not text.isascii() and DIRECTION.search(text):
        return (
            N_(
                "The field {field} holds a character that is not allowed (a direction "
                "override, which would turn the text after it around)"
            ),
            {},
        )
    if len(text) > TEXT_MAX:
        return TOO_LONG, {"most": TEXT_MAX}
    if not text.isascii() and _longest_marks(text) > MARKS_MAX:
        return (
            N_("The field {field} has too many marks on one letter (at most {most})"),
            {"most": MARKS_MAX},
        )
    return None


def _longest_marks(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        longest = max(longest, run)
    return longest


def clean_text(text: str, field: str) -> str:
    """The string in NFC, or RuleError("input") naming the field (never echoing the text)."""
    fault = text_fault(text)
    if fault is not None:
        template, values = fault
        raise RuleError("input", template, field=field[:60], **values)
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def clean_texts(value: object, path: str = "") -> object:
    """A parsed JSON value (or form fields) with every key and string checked and in NFC."""
    if isinstance(value, str):
        return clean_text(value, path or "body")
    if isinstance(value, list):
        return [
            clean_texts(item, f"{path}.{n}" if path else str(n)) for n, item in enumerate(value)
        ]
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            key = clean_text(key, f"{path} (a name in it)" if path else "(a field's name)")
            kept[key] = clean_texts(item, f"{path}.{key}" if path else key)
        return kept
    return value


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number in JSON")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > JSON_DIGITS:
        raise ValueError("number too long")
    return int(text)


def depth(value: object) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar is 0)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, at = level.pop()
        children: Iterable = ()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, at)
        if deepest > DEPTH:
            return deepest
        level.extend((child, at + 1) for child in children)
    return deepest


def parse_json(
    data: bytes | str,
    deepest: int = DEPTH,
    texts: bool = True,
    broken: Callable[[], RuleError] | None = None,
) -> object:
    """A JSON document within bounds, its text clean (`clean_texts`, unless the caller does
    that itself), else RuleError("input") with a message in words (`broken`: the caller's own
    words for a document that is not JSON at all)."""
    try:
        value = json.loads(data, parse_constant=_refuse_constant, parse_int=_bounded_int)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        if broken is not None:
            raise broken() from None
        raise RuleError(
            "input", "The request body is not valid JSON (numbers of at most 24 digits)"
        ) from None
    if depth(value) > deepest:
        raise RuleError("input", "The request body is nested too deeply") from None
    return clean_texts(value) if texts else value


# -- schema ------------------------------------------------------------------------------


@cache
def strict():
    """Draft 2020-12 where a whole number is an int, never 5.0 or True (JSON Schema would
    count 5.0 as an integer). jsonschema is imported on the first check, not at start: the
    first page needs none of it."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool)
        ),
    )


@cache
def action_validator(kind: str):
    return strict()({"type": "object", "properties": KINDS[kind].fields})


@cache
def setup_validator():
    return strict()(SETUP)


def _coerced(value: object, schema: dict) -> object:
    """Form text read as the schema's type when it plainly is one; else unchanged."""
    kind = schema.get("type")
    if isinstance(value, str):
        text = value.strip()
        if kind == "integer" and 0 < len(text) <= DIGITS and text.isascii() and text.isdigit():
            return int(text)
        if kind == "boolean" and text.lower() in TRUE_WORDS + FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        if kind == "array" and len(text) <= 200 and isinstance(schema.get("items"), dict):
            parts = [part.strip() for part in text.split(",")] if text else []
            return [_coerced(part, schema["items"]) for part in parts]  # "1,1,2" from a form
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_coerced(item, schema["items"]) for item in value]
    if isinstance(value, dict) and "properties" in schema:
        return _known(value, schema["properties"], required=())
    return value


def _known(fields: dict, properties: dict, required: Iterable[str]) -> dict:
    """Only the fields the schema names, form text read as numbers and flags; an empty
    optional field is no field."""
    kept = {}
    for name, value in fields.items():
        schema = properties.get(name)
        if schema is None:
            continue
        if value is None or (value == "" and name not in required and "type" in schema):
            continue
        kept[name] = _coerced(value, schema)
    return kept


def _check(validator, value: dict) -> None:
    errors = [e for e in validator.iter_errors(value) if e.validator != "required"]
    if not errors:
        return
    error = min(errors, key=lambda e: (len(e.absolute_path), str(list(e.absolute_path))))
    path = [p for p in error.absolute_path if isinstance(p, str)]
    field = ".".join(path) or "body"
    name = path[-1] if path else ""
    schema = error.schema if isinstance(error.schema, dict) else {}
    what = LABELS.get(name) or LABELS.get(path[0] if path else "")
    if error.validator in ("minimum", "maximum") and what is not None:
        low, high = schema.get("minimum", 0), schema.get("maximum", 10**DIGITS - 1)
        raise RuleError(
            "input", "{what} must be between {low:,} and {high:,}", what=what, low=low, high=high
        )
    if error.validator == "type" and schema.get("type") == "integer" and what is not None:
        raise RuleError("input", "{what} must be a whole number", what=what)
    if error.validator == "type" and schema.get("type") == "boolean":
        raise RuleError("input", "{key} must be true or false", key=field)
    if path == ["players"] and error.validator in ("minItems", "maxItems"):
        raise RuleError("S1", "A game has 2 to 8 players")
    refusal = _length_refused(error, path, field, schema)
    if refusal is not None:
        raise refusal
    raise RuleError("input", "The field {field} is not valid", field=field)


def clean_payload(kind: object, payload: object) -> dict:
    """An action's fields as they will be stored: known fields only, within the schema."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise RuleError("input", "Unknown action {kind}", kind=repr(kind)[:40])
    if not isinstance(payload, dict):
        raise RuleError("input", "The request body must be a JSON object")
    declared = KINDS[kind]
    kept = clean_texts(_known(payload, declared.fields, declared.required))
    _check(action_validator(kind), kept)
    return kept


def clean_setup(setup: object) -> dict:
    """A new game's setup as it will be stored: known settings only, within the schema, each
    player's name one can see."""
    if not isinstance(setup, dict):
        raise RuleError("input", "A new game is a JSON object")
    schema = setup_validator().schema
    kept = clean_texts(_known(setup, schema["properties"], schema["required"]))
    _check(setup_validator(), kept)
    for number, player in enumerate(kept.get("players", []), start=1):
        if not visible(player.get("name", "")):  # the schema made each an object, not named
            raise RuleError(
                "input", "Player {number} needs a name with a character one can see", number=number
            )
    return kept


def _length_refused(error, path: list[str], field: str, schema: dict) -> RuleError | None:
    """A text too long (or a name too short) for its field, in the words the field's own
    check uses; None for any other fault."""
    seats = [p for p in error.absolute_path if isinstance(p, int)]
    most = schema.get("maxLength", TEXT_MAX)
    if error.validator in ("minLength", "maxLength") and path == ["players", "name"] and seats:
        return RuleError(
            "input",
            "Player {number} needs a name of 1 to {most} characters",
            number=seats[0] + 1,
            most=most,
        )
    if error.validator == "maxLength":
        return RuleError("input", TOO_LONG, field=field, most=most)
    return None


# Letters and signs that show nothing: the Hangul fillers and the blank Braille pattern.
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(text: str) -> bool:
    """Whether the text shows anything: a character that is neither a space, a control or
    format character (a zero-width space, a word joiner, a byte order mark...), a combining
    mark (shown only on a letter), unassigned or private, nor one of the blank letters."""
    return any(
        not unicodedata.category(char).startswith(("Z", "C", "M")) and char not in BLANK
        for char in text
    )
