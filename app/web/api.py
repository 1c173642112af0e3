"""The JSON API: the same door and the same errors as the pages, described by OpenAPI."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, Response, jsonify, request, stream_with_context, url_for
from werkzeug.exceptions import HTTPException

from .. import archive, bank
from ..inputs import parse_json
from ..rules import KINDS, RuleError
from . import new_games
from .args import arg
from .openapi import API_PAGE, API_PAGE_MAX, openapi_document
from .present import game_view, history_page

bp = Blueprint("api", __name__, url_prefix="/api")

STATUS = {"input": 400, "not_found": 404, "stale": 409, "integrity": 409, "busy": 429}


@bp.errorhandler(RuleError)
def refused(error: RuleError):
    status = STATUS.get(error.rule, 422)
    return jsonify(error.to_dict()), status, {"Retry-After": "60"} if status == 429 else {}


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return jsonify({"error": error.description, "rule": "http"}), error.code


def body() -> dict:
    """The request's JSON object, within bounds (app/inputs.py); anything else is a 400."""
    data = parse_json(request.get_data(cache=True)) if request.is_json else None
    if not isinstance(data, dict):
        raise RuleError("input", "The request body must be a JSON object")
    return data


def split_action(data: dict) -> tuple[str, dict]:
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise RuleError("input", f"Unknown action {kind!r}")
    meta = ("kind", "idempotency_key", "expected_version")
    return kind, {k: v for k, v in data.items() if k not in meta}


def expected_version(data: dict) -> int | None:
    value = data.get("expected_version")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RuleError("input", "expected_version must be a whole number")
    return value


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.get("/editions")
def editions():
    listed = [
        {"id": e.id, "name": e.name, "language": e.language, "currency": e.currency}
        for e in bank.editions().values()
    ]
    return jsonify(listed)


@bp.get("/editions/<edition_id>")
def edition(edition_id: str):
    found = bank.editions().get(edition_id)
    if found is None:
        raise RuleError("not_found", "There is no such edition")
    return jsonify(
        {
            "id": found.id,
            "name": found.name,
            "currency": found.currency,
            "groups": [asdict(g) for g in found.groups.values()],
            "spaces": [asdict(s) for s in found.spaces],
            "cards": [asdict(c) for c in found.cards.values()],
        }
    )


@bp.post("/games")
def create_game():
    game = new_games.create_game(body())
    return jsonify({**game_view(game), "banker_key": game.banker_key}), 201


@bp.post("/games/import")
def import_game():
    """A new game from an export: checked whole (checksum, every action done again by the
    rules core), then written at once (app/archive.py)."""
    if not request.is_json:
        raise RuleError("input", "The request body must be a JSON object")
    game = archive.import_game(request.get_data(cache=False))  # parsed off the event loop
    return jsonify({**game_view(game), "banker_key": game.banker_key}), 201


@bp.get("/games/<game_id>/export")
def export_game(game_id: str):
    """The game as JSON, streamed: setup, whole log, final state and checksum."""
    lines = archive.export_lines(bank.find(game_id))
    answer = Response(stream_with_context(lines), mimetype="application/json")
    answer.headers["Content-Disposition"] = f'attachment; filename="tablebank-{game_id}.json"'
    return answer


@bp.get("/games/<game_id>")
def game(game_id: str):
    return jsonify(game_view(bank.find(game_id)))


@bp.get("/games/<game_id>/actions")
def actions(game_id: str):
    """A page of the history; the Link header names the next, older page."""
    limit = min(max(arg("limit") or API_PAGE, 1), API_PAGE_MAX)
    entries, older = history_page(bank.find(game_id), arg("before"), limit=limit)
    answer = jsonify(entries)
    if older is not None:
        after = url_for("api.actions", game_id=game_id, before=older, limit=limit)
        answer.headers["Link"] = f'<{after}>; rel="next"'
    return answer


@bp.post("/games/<game_id>/preview")
def preview(game_id: str):
    kind, payload = split_action(body())
    outcome = bank.preview(bank.find(game_id), kind, payload)
    return jsonify(
        {
            "text": outcome.text,
            "movements": [asdict(m) for m in outcome.movements],
        }
    )


@bp.post("/games/<game_id>/actions")
def act(game_id: str):
    data = body()
    kind, payload = split_action(data)
    done = bank.perform(
        game_id,
        kind,
        payload,
        actor="api",
        key=data.get("idempotency_key"),
        expected_version=expected_version(data),
    )
    result = {
        "seq": done.action.seq,
        "text": done.action.text,
        "repeated": done.repeated,
        "movements": movements_of(done),
        "game": game_view(done.game),
    }
    return jsonify(result), 200 if done.repeated else 201


def movements_of(done) -> list[dict]:
    """Who paid whom: the action's own, or, for a repeated idempotency key, those the first
    result logged (the same answer again, for a client that lost the first)."""
    if done.outcome:
        return [asdict(m) for m in done.outcome.movements]
    return [
        dict(zip(("payer", "payee", "amount"), m, strict=True)) for m in done.action.movements or []
    ]
