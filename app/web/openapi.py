"""The OpenAPI 3.1 document of the JSON API, built from the same limits the rules core checks."""

from __future__ import annotations

from ..rules.actions import MAX_AMOUNT, MAX_NAME, MAX_NOTE
from ..rules.state import MODES

SEAT = {"type": "integer", "minimum": 0, "maximum": 7}
AMOUNT = {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT}
SPACE = {"type": "integer", "minimum": 0, "maximum": 39}
DICE = {"type": "integer", "minimum": 2, "maximum": 12}
FLAG = {"type": "boolean"}
NOTE = {"type": "string", "maxLength": MAX_NOTE}
LEVELS = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 5}}
DEEDS = {"type": "array", "items": SPACE}
SIDE = {
    "type": "object",
    "properties": {
        "cash": {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT},
        "deeds": DEEDS,
        "jail_free": {"type": "integer", "minimum": 0, "maximum": 2},
    },
}

# Each action: (its fields, which of them are required, what it does).
ACTIONS: dict[str, tuple[dict, list[str], str]] = {
    "buy": ({"player": SEAT, "deed": SPACE, "passed_go": FLAG}, ["player", "deed"], "P1"),
    "decline": ({"player": SEAT, "deed": SPACE, "passed_go": FLAG}, ["player", "deed"], "P1"),
    "rent": (
        {"player": SEAT, "deed": SPACE, "dice": DICE, "by_card": FLAG, "passed_go": FLAG},
        ["player", "deed"],
        "P2-P7; dice needed on a utility",
    ),
    "tax": (
        {"player": SEAT, "space": SPACE, "percent": FLAG, "passed_go": FLAG},
        ["player", "space"],
        "T1, T2",
    ),
    "card": (
        {"player": SEAT, "card": {"type": "string"}, "space": SPACE, "passed_go": FLAG},
        ["player", "card"],
        "C1-C3",
    ),
    "visit": ({"player": SEAT, "space": SPACE, "passed_go": FLAG}, ["player", "space"], "J2"),
    "go_to_jail": ({"player": SEAT}, ["player"], "J1, G2"),
    "pass_go": ({"player": SEAT}, ["player"], "G1"),
    "jail_fine": ({"player": SEAT}, ["player"], "J3"),
    "jail_card": ({"player": SEAT}, ["player"], "J3, C3"),
    "jail_doubles": ({"player": SEAT}, ["player"], "J3"),
    "bank_pay": ({"player": SEAT, "amount": AMOUNT, "note": NOTE}, ["player", "amount"], "S2"),
    "bank_collect": ({"player": SEAT, "amount": AMOUNT, "note": NOTE}, ["player", "amount"], ""),
    "transfer": (
        {"from": SEAT, "to": SEAT, "amount": AMOUNT, "note": NOTE},
        ["from", "to", "amount"],
        "",
    ),
    "build": (
        {"player": SEAT, "group": {"type": "string"}, "levels": LEVELS},
        ["player", "group", "levels"],
        "B1-B7: every street's level, 0-4 houses or 5 for a hotel",
    ),
    "mortgage": ({"player": SEAT, "deed": SPACE}, ["player", "deed"], "M1"),
    "lift": ({"player": SEAT, "deed": SPACE}, ["player", "deed"], "M3"),
    "trade": (
        {"player": SEAT, "partner": SEAT, "give": SIDE, "take": SIDE, "lift": DEEDS},
        ["player", "partner"],
        "X1-X3, M4",
    ),
    "auction_open": (
        {"deed": SPACE, "building": {"enum": ["house", "hotel"]}},
        [],
        "P1, B5",
    ),
    "bid": ({"player": SEAT, "amount": AMOUNT}, ["player", "amount"], "P1"),
    "auction_close": ({"deed": SPACE}, [], "P1; deed places a building won"),
    "bankrupt": (
        {"player": SEAT, "owed": AMOUNT, "creditor": SEAT, "lift": DEEDS},
        ["player", "owed"],
        "K1-K3, SG3; no creditor: the bank",
    ),
    "deal": (
        {"hands": {"type": "array", "items": DEEDS, "maxItems": 8}},
        ["hands"],
        "SG1, TL1",
    ),
    "parking_pot": ({"player": SEAT}, ["player"], "H1"),
    "end_game": ({}, [], "TL1"),
    "undo": ({}, [], "takes back the latest action still in force"),
}

ERROR = {
    "type": "object",
    "required": ["error", "rule"],
    "properties": {
        "error": {"type": "string", "description": "what went wrong, in plain words"},
        "rule": {"type": "string", "description": "rule id (K1, P1...) or input/stale/..."},
    },
}


def action_schema(kind: str) -> dict:
    fields, required, summary = ACTIONS[kind]
    return {
        "type": "object",
        "description": summary,
        "required": ["kind", *required],
        "properties": {
            "kind": {"const": kind},
            "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 64},
            "expected_version": {"type": "integer", "minimum": 0},
            **fields,
        },
    }


API_PAGE, API_PAGE_MAX = 100, 500


def errors(*codes: int) -> dict:
    words = {
        400: "bad input",
        403: "not the banker of this game",
        404: "no such game",
        409: "another device acted first",
        422: "refused by a rule",
    }
    return {
        str(code): {
            "description": words[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in codes
    }


def json_body(ref: str) -> dict:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


def ok(description: str, ref: str | None = None, status: str = "200") -> dict:
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}
    return {status: {"description": description, **({"content": content} if ref else {})}}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
BANKER = [{"banker": []}]


def setup_schema() -> dict:
    player = {
        "type": "object",
        "required": ["name", "colour"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
            "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
        },
    }
    return {
        "type": "object",
        "required": ["edition", "players"],
        "properties": {
            "edition": {"type": "string", "description": "us-classic, us-2008, uk or es"},
            "players": {"type": "array", "minItems": 2, "maxItems": 8, "items": player},
            "starting_cash": AMOUNT,
            "mode": {"enum": list(MODES)},
            "ends_at": {"type": "string", "description": "ISO time, time-limited game"},
            "free_parking_jackpot": FLAG,
            "double_go": FLAG,
            "no_auctions": FLAG,
            "income_tax_percent": FLAG,
        },
    }


def openapi_document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tablebank",
            "version": "1",
            "description": "The bank of a board game. Every action is logged and undoable.",
        },
        "paths": {
            "/api/editions": {"get": {"summary": "Editions", "responses": ok("the editions")}},
            "/api/editions/{edition_id}": {
                "get": {
                    "summary": "One edition's board and cards",
                    "parameters": [
                        {
                            "name": "edition_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {**ok("the edition"), **errors(404)},
                }
            },
            "/api/games": {
                "post": {
                    "summary": "Start a game; the answer holds the banker_key",
                    "requestBody": json_body("Setup"),
                    "responses": {**ok("the game", "Game", "201"), **errors(400, 422)},
                }
            },
            "/api/games/{game_id}": {
                "get": {
                    "summary": "The state of a game",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "responses": {**ok("the game", "Game"), **errors(403, 404)},
                }
            },
            "/api/games/{game_id}/actions": {
                "get": {
                    "summary": "The actions, newest first, undone ones marked, a page at a time "
                    "(a Link header with rel=next names the next, older page)",
                    "parameters": [
                        GAME_ID,
                        {
                            "name": "before",
                            "in": "query",
                            "description": "only actions with a lower seq than this",
                            "schema": {"type": "integer"},
                        },
                        {
                            "name": "limit",
                            "in": "query",
                            "description": f"at most this many (default {API_PAGE})",
                            "schema": {"type": "integer", "minimum": 1, "maximum": API_PAGE_MAX},
                        },
                    ],
                    "security": BANKER,
                    "responses": {**ok("the history"), **errors(403, 404)},
                },
                "post": {
                    "summary": "Do an action",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "requestBody": json_body("Action"),
                    "responses": {
                        **ok("repeated idempotency key: the first result"),
                        **ok("done", None, "201"),
                        **errors(400, 403, 404, 409, 422),
                    },
                },
            },
            "/api/games/{game_id}/preview": {
                "post": {
                    "summary": "What an action would do, without doing it",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "requestBody": json_body("Action"),
                    "responses": {**ok("the sentence"), **errors(400, 403, 404, 422)},
                }
            },
            "/api/openapi.json": {"get": {"summary": "This document", "responses": ok("it")}},
        },
        "components": {
            "securitySchemes": {
                "banker": {"type": "apiKey", "in": "header", "name": "X-Banker-Key"}
            },
            "schemas": {
                "Error": ERROR,
                "Setup": setup_schema(),
                "Game": {"type": "object", "required": ["id", "version", "players"]},
                "Action": {
                    "oneOf": [{"$ref": f"#/components/schemas/action_{k}"} for k in ACTIONS],
                    "discriminator": {
                        "propertyName": "kind",
                        "mapping": {k: f"#/components/schemas/action_{k}" for k in ACTIONS},
                    },
                },
                **{f"action_{k}": action_schema(k) for k in ACTIONS},
            },
        },
    }
