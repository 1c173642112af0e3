"""The OpenAPI 3.1 document of the JSON API, built from the same limits the rules core checks."""

from __future__ import annotations

from ..rules import KINDS
from ..rules.actions import MAX_NAME
from ..rules.fields import AMOUNT, FLAG
from ..rules.state import MODES

ERROR = {
    "type": "object",
    "required": ["error", "rule"],
    "properties": {
        "error": {"type": "string", "description": "what went wrong, in plain words"},
        "rule": {"type": "string", "description": "rule id (K1, P1...) or input/stale/..."},
    },
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


def errors(*codes: int) -> dict:
    words = {
        400: "bad input",
        403: "not the banker of this game",
        404: "no such game",
        409: "another device acted first",
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


SETUP_PLAYER = {
    "type": "object",
    "required": ["name", "colour"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
        "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
    },
}


def setup_schema() -> dict:
    return {
        "type": "object",
        "required": ["edition", "players"],
        "properties": {
            "edition": {
                "type": "string",
                "maxLength": 32,
                "description": "us-classic, us-2008, uk or es",
            },
            "players": {"type": "array", "minItems": 2, "maxItems": 8, "items": SETUP_PLAYER},
            "starting_cash": AMOUNT,
            "mode": {"enum": list(MODES)},
            "ends_at": {
                "type": "string",
                "maxLength": 40,
                "description": "TL1: ISO time of the end, with its offset, or local to "
                "time_zone (UTC when neither); stored and shown as UTC",
            },
            "time_zone": {
                "type": "string",
                "maxLength": 64,
                "description": "IANA name, e.g. America/New_York",
            },
            "free_parking_jackpot": FLAG,
            "double_go": FLAG,
            "no_auctions": FLAG,
            "income_tax_percent": {
                **FLAG,
                "description": "T1: income tax may be paid as a percentage of total worth; "
                "left out, the edition's own rule (on where the edition prints it)",
            },
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
                    "responses": {**ok("the game", "Game", "201"), **errors(400, 422, 429)},
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
                "Export": {
                    "type": "object",
                    "required": ["format", "version", "setup", "log", "final", "checksum"],
                    "properties": {
                        "format": {"const": "tablebank-game"},
                        "version": {
                            "const": 2,
                            "description": "1 (no times, final state or checksum) is imported "
                            "only by the host: flask --app tablebank import --unchecked",
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
