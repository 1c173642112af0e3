"""The OpenAPI 3.1 document of the JSON API, built from the same limits the rules core checks."""

from __future__ import annotations

from ..rules import KINDS
from ..rules.setup import SETUP

ERROR = {
    "type": "object",
    "description": "A refusal, with the figures its words give (K1: amount, shortfall, cash, "
    "raisable, creditor: a seat, null the bank)",
    "required": ["error", "rule"],
    "properties": {
        "error": {"type": "string", "description": "what went wrong, in plain words"},
        "rule": {"type": "string", "description": "rule id (K1, P1...) or input/stale/..."},
        "player": {
            "type": "integer",
            "description": "the seat of the player it is about, as a request names a player",
        },
        "name": {"type": "string", "description": "that player's name"},
    },
    "dependentRequired": {"player": ["name"]},
}


def action_schema(name: str) -> dict:
    """An action kind's request body, from its declaration in the rules core."""
    kind = KINDS[name]
    return {
        "type": "object",
        "description": kind.rules,
        "required": ["kind", *kind.required],
        "properties": {
            "kind": {"const": name},
            "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 64},
            "expected_version": {"type": "integer", "minimum": 0},
            **kind.fields,
        },
    }


API_PAGE, API_PAGE_MAX = 100, 500


def errors(*codes: int, missing: str = "game") -> dict:
    words = {
        400: "bad input",
        403: "not the banker of this game",
        404: f"no such {missing}",
        409: "another device acted first",
        413: "the request body is too large",
        422: "refused by a rule",
        429: "too many at once: try again after Retry-After seconds",
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


WAIT = {
    "type": "object",
    "description": "What the game waits for: a landing's choice (buy, card, tax, throw), a "
    "mortgaged deed received whose new owner chooses to lift it now or keep it mortgaged "
    "(received, M4), a debt (K1), the deal (SG1), an auction (P1), or else the next roll; "
    "seat null: the banker, or anyone for an auction",
    "required": ["what", "seat", "figures", "actions"],
    "properties": {
        "what": {
            "enum": ["roll", "buy", "card", "tax", "throw", "received", "debt", "deal", "auction"]
        },
        "seat": {"type": ["integer", "null"]},
        "space": {"type": ["integer", "null"]},
        "figures": {
            "type": "object",
            "description": "buy: price; tax: amount, percent; received: mortgage, interest "
            "(the 10% kept costs), lift (lifted now: value and 10%; its action is offered only "
            "when the cash covers it); debt: owed, cash, raisable, short, creditor (null: the "
            "bank, or several players), creditors; auction: bid, bidder, lowest; roll: "
            "doubles, in_jail, tries",
        },
        "actions": {
            "type": "array",
            "description": "the actions that answer it: kind, fields filled in, and asks (the "
            "fields only the table can give: dice, amount, levels, hands)",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "fields": {"type": "object"},
                    "asks": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}
SEAT_OR_BANK = {"type": ["integer", "null"], "description": "a seat; null: the bank"}
MOVEMENT = {
    "type": "object",
    "description": "money an action moved: who paid whom, how much",
    "required": ["payer", "payee", "amount"],
    "properties": {"payer": SEAT_OR_BANK, "payee": SEAT_OR_BANK, "amount": {"type": "integer"}},
}
PLAYER = {
    "type": "object",
    "required": ["seat", "name", "colour", "cash", "position", "in_jail", "jail_free"]
    + ["bankrupt", "deeds", "total_worth", "raisable", "score"],
    "properties": {
        "seat": {"type": "integer"},
        "name": {"type": "string"},
        "colour": {"type": "string"},
        "cash": {"type": "integer"},
        "position": {"type": "integer", "description": "the space the token stands on"},
        "in_jail": {"type": "boolean"},
        "jail_free": {"type": "integer", "description": "Get Out of Jail Free cards held"},
        "bankrupt": {"type": "boolean"},
        "deeds": {"type": "array", "items": {"type": "integer"}, "description": "spaces held"},
        "total_worth": {"type": "integer", "description": "T1"},
        "raisable": {
            "type": "integer",
            "description": "K1: cash, mortgages and half the buildings' price",
        },
        "score": {"type": "integer", "description": "SG4"},
    },
}
DEED = {
    "type": "object",
    "required": ["space", "name", "group", "kind", "owner", "houses", "hotel", "mortgaged"],
    "properties": {
        "space": {"type": "integer"},
        "name": {"type": "string"},
        "group": {"type": "string"},
        "kind": {"enum": ["street", "railroad", "utility"]},
        "owner": SEAT_OR_BANK,
        "houses": {"type": "integer"},
        "hotel": {"type": "boolean"},
        "mortgaged": {"type": "boolean"},
    },
}
GAME = {
    "type": "object",
    "required": ["id", "version", "players", "turn", "pending", "offers"]
    + ["edition", "currency", "deeds", "ended", "winners"],
    "properties": {
        "id": {"type": "string"},
        "edition": {"type": "string"},
        "currency": {"type": "string"},
        "version": {"type": "integer"},
        "players": {"type": "array", "items": PLAYER},
        "deeds": {"type": "array", "items": DEED},
        "ended": {"type": "boolean"},
        "winners": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "K4, SG4: the seats that won an ended game (several on a tie)",
        },
        "turn": {
            "type": "object",
            "description": "R1, R2: whose turn it is, the doubles thrown in a row, and whether "
            "that player has moved (the turn passes once nothing waits)",
            "properties": {
                "seat": {"type": "integer"},
                "doubles": {"type": "integer"},
                "moved": {"type": "boolean"},
            },
        },
        "pending": {"type": "array", "items": WAIT, "description": "first things first"},
        "offers": {
            "type": "array",
            "description": "trades offered and waiting for the partner's answer",
            "items": {"type": "object"},
        },
    },
}


DONE = {
    "type": "object",
    "required": ["seq", "text", "repeated", "movements", "game"],
    "properties": {
        "seq": {"type": "integer", "description": "the action's number in the game's log"},
        "text": {"type": "string", "description": "what was done, in words"},
        "repeated": {"type": "boolean", "description": "an idempotency key already used"},
        "movements": {"type": "array", "items": MOVEMENT},
        "game": {"$ref": "#/components/schemas/Game"},
    },
}
PREVIEW = {
    "type": "object",
    "required": ["text", "movements"],
    "properties": {"text": {"type": "string"}, "movements": {"type": "array", "items": MOVEMENT}},
}
ENTRY = {
    "type": "object",
    "required": ["seq", "kind", "payload", "actor", "text", "at", "undone", "movements"],
    "properties": {
        "seq": {"type": "integer"},
        "kind": {"enum": list(KINDS)},
        "payload": {"type": "object"},
        "actor": {"type": "string"},
        "text": {"type": "string"},
        "at": {"type": "string", "format": "date-time"},
        "undone": {"type": "boolean"},
        "movements": {
            "type": "array",
            "description": "[payer, payee, amount] each; a seat, or null for the bank",
            "items": {
                "type": "array",
                "prefixItems": [SEAT_OR_BANK, SEAT_OR_BANK, {"type": "integer"}],
                "minItems": 3,
                "maxItems": 3,
            },
        },
    },
}
EDITIONS = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id", "name", "language", "currency"],
        "properties": {k: {"type": "string"} for k in ("id", "name", "language", "currency")},
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
            "/api/editions": {
                "get": {"summary": "Editions", "responses": ok("the editions", "Editions")}
            },
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
                    "responses": {**ok("the edition"), **errors(404, missing="edition")},
                }
            },
            "/api/games": {
                "post": {
                    "summary": "Start a game; the answer holds the banker_key",
                    "requestBody": json_body("Setup"),
                    "responses": {
                        **ok("the game", "Game", "201"),
                        **errors(400, 413, 422, 429),
                    },
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
                    "responses": {**ok("the history", "History"), **errors(403, 404)},
                },
                "post": {
                    "summary": "Do an action",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "requestBody": json_body("Action"),
                    "responses": {
                        **ok("repeated idempotency key: the first result", "Done"),
                        **ok("done", "Done", "201"),
                        **errors(400, 403, 404, 409, 413, 422),
                    },
                },
            },
            "/api/games/{game_id}/preview": {
                "post": {
                    "summary": "What an action would do, without doing it",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "requestBody": json_body("Action"),
                    "responses": {
                        **ok("the sentence", "Preview"),
                        **errors(400, 403, 404, 413, 422),
                    },
                }
            },
            "/api/games/{game_id}/export": {
                "get": {
                    "summary": "The game as JSON, streamed: its setup, its whole log with "
                    "times, its final state and a checksum",
                    "parameters": [GAME_ID],
                    "security": BANKER,
                    "responses": {**ok("the export", "Export"), **errors(403, 404)},
                }
            },
            "/api/games/import": {
                "post": {
                    "summary": "A new game from an export, its checksum checked and every "
                    "action done again; the answer holds the new game's banker_key. One import "
                    "at a time per server process (429 with Retry-After otherwise)",
                    "requestBody": json_body("Export"),
                    "responses": {
                        **ok("the game", "Game", "201"),
                        **errors(400, 413, 422, 429),
                    },
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
                "Setup": SETUP,
                "Game": GAME,
                "Done": DONE,
                "Preview": PREVIEW,
                "Entry": ENTRY,
                "History": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}},
                "Editions": EDITIONS,
                "Export": {
                    "type": "object",
                    "required": ["format", "version", "setup", "log", "final", "checksum"],
                    "properties": {
                        "format": {"const": "tablebank-game"},
                        "version": {
                            "const": 2,
                            "description": "1 (no times, final state or checksum) came from "
                            "games logged under the earlier rules and is refused",
                        },
                        "edition": {"type": "string"},
                        "created_at": {"type": "string", "format": "date-time"},
                        "setup": {"$ref": "#/components/schemas/Setup"},
                        "log": {
                            "type": "array",
                            "description": "every action in order, undos included; an export "
                            "has no ceiling, an import takes at most 20,000",
                            "items": {
                                "type": "object",
                                "required": ["seq", "kind", "payload", "actor", "at"],
                                "properties": {
                                    "seq": {"type": "integer", "minimum": 1},
                                    "kind": {"enum": list(KINDS)},
                                    "payload": {"type": "object"},
                                    "actor": {"type": "string", "maxLength": 16},
                                    "at": {"type": "string", "format": "date-time"},
                                },
                            },
                        },
                        "final": {
                            "type": "object",
                            "description": "the snapshot after the last action",
                            "properties": {
                                "version": {"type": "integer"},
                                "state": {"type": "object"},
                            },
                        },
                        "checksum": {
                            "type": "string",
                            "description": "sha256: of the canonical JSON (sorted keys, no "
                            "spaces, ASCII) of the header, each log entry and the final state, "
                            "one line each: an edited archive is refused",
                        },
                    },
                },
                "Action": {
                    "oneOf": [{"$ref": f"#/components/schemas/action_{k}"} for k in KINDS],
                    "discriminator": {
                        "propertyName": "kind",
                        "mapping": {k: f"#/components/schemas/action_{k}" for k in KINDS},
                    },
                },
                **{f"action_{k}": action_schema(k) for k in KINDS},
            },
        },
    }
