"""Each action kind is declared once, in the rules core, next to its handler; the API's
OpenAPI document, a player's phone's permissions and the pages' labels come from there."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po
from tablebank.models import Game, db
from tablebank.paths import ROOT
from tablebank.rules import KINDS, UNDO
from tablebank.rules.fields import CHOICE_KINDS, SEAT, STEP

from ..support import setup_of

CATALOGS = ROOT / "app" / "translations"


def translated(language: str) -> dict[str, str]:
    with open(CATALOGS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return {m.id: m.string for m in read_po(po) if m.id and m.string and not m.fuzzy}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_is_declared_in_full(name):
    kind = KINDS[name]
    assert kind.name == name
    assert (kind.handler is None) == (name == UNDO), "only undo is done by the bank itself"
    assert kind.label and kind.rules
    assert set(kind.required) <= set(kind.fields)
    for field, schema in kind.fields.items():
        assert isinstance(schema, dict) and schema, f"{name}.{field} has no schema"
    if kind.own_seat is not None:
        assert kind.fields[kind.own_seat] == SEAT
    for language in ("es", "ja"):
        assert kind.label in translated(language), f"{name}: {kind.label!r} in {language}"


def test_the_openapi_document_describes_every_kind(client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    mapping = schemas["Action"]["discriminator"]["mapping"]
    assert set(mapping) == set(KINDS)
    for name, kind in KINDS.items():
        body = schemas[f"action_{name}"]
        assert body["properties"]["kind"] == {"const": name}
        assert set(kind.fields) <= set(body["properties"])
        assert set(body["required"]) == {"kind", *kind.required}


@pytest.mark.parametrize("phone_turns", [False, True])
def test_r1_a_players_phone_may_do_only_the_kinds_declared_for_their_own_seat(
    client, app, phone_turns
):
    """R1: always their own money, bids, debts and answers to trades; with phone turns on,
    everything their own seat may do (roll, choices, buildings, mortgages, bankruptcy, and
    the close of an auction on their turn, with no banker at the table)."""
    made = client.post("/api/games", json=setup_of(phone_turns=phone_turns)).get_json()
    with app.app_context():
        token = db.session.get(Game, made["id"]).players[0].token
    always = {"transfer", "bank_collect", "bid", "pay_debt", "trade_accept", "trade_decline"}
    turns = {"roll", "buy", "decline", "card", "tax", "throw", "jail_fine", "jail_card"}
    turns |= {"build", "mortgage", "lift", "trade_offer", "bankrupt", "auction_close"}
    turns |= {"keep_mortgaged"}
    assert {name for name, kind in KINDS.items() if kind.phone == "always"} == always
    assert {name for name, kind in KINDS.items() if kind.phone == "turns"} == turns
    own = always | turns if phone_turns else always
    for name in KINDS:
        answer = client.post(f"/p/{token}/do", data={"kind": name, "player": "0"})
        if name in own:
            assert answer.status_code == 302, name  # tried, and answered with words
        else:
            assert answer.status_code == 403, name


def test_a_refused_action_shows_its_declared_label_not_its_code(client, app):
    """The build page's building auction, refused while another auction runs (P1)."""
    made = client.post("/api/games", json=setup_of()).get_json()
    headers = {"X-Banker-Key": made["banker_key"]}
    declined = {"kind": "roll", "player": 0, "dice": 6, "choices": [{"kind": "decline"}]}
    assert client.post(f"/api/games/{made['id']}/actions", json=declined, headers=headers)
    with app.test_request_context():
        from tablebank.web.pages import previewed

        game = db.session.get(Game, made["id"])
        refused = previewed(game, "auction_open", {"building": "house"})
    assert refused.error and refused.text == "Auction"


@pytest.mark.parametrize("name", CHOICE_KINDS)
def test_r1_a_roll_carries_every_field_of_its_landings_choices(name):
    """R1: a roll's choices keep each field the answering kind takes (the API stores only
    the fields its schema names)."""
    taken = set(KINDS[name].fields) - {"player"}
    assert taken <= set(STEP["properties"]), f"{name}: {taken - set(STEP['properties'])}"
