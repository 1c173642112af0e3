"""The upgrade to keyed seals and clean text (migration b7d2e4f6a8c1), on a database written
by the version before: a game that already holds text no page could show (a player named
"\\udfff", a note with a noncharacter) serves its pages again and replays to its snapshot; a
game whose old plain seal matched is sealed with the key and goes on; one whose old seal did
not match stays read-only until the host repairs it; a game sealed before seals were kept is
sealed."""

from __future__ import annotations

import hashlib
import json

import pytest
from flask_migrate import upgrade
from tablebank import create_app, integrity, logbook
from tablebank.bank import edition_of
from tablebank.models import Action, Game, Player, db
from tablebank.rules import apply, new_game
from tablebank.rules.setup import RULES

from ..support import US, setup_of

BEFORE = "a3f5c7e9b2d4"  # the head before keyed seals
SECRET = "the host's secret"
KEY = "b" * 22
SHOWN_ON = {
    "badname1": "/g/badname1/",
    "badnote1": "/g/badnote1/history",
    "earlier1": "/g/earlier1/",
}


def plain_sha256(state: dict) -> str:
    normal = json.dumps(json.loads(json.dumps(state)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(normal.encode()).hexdigest()


def old_game(game_id: str, names, actions, seal: str, rules: int | None = RULES) -> None:
    """A game as the version before wrote it, log indexes included; sealed the old way
    ("plain"), with a seal that does not match ("wrong") or with none ("none"); logged under
    these rules, or (None) the earlier ones, which kept no mark in the setup."""
    us = US
    setup = {**setup_of(names), **({"rules": rules} if rules else {})}
    state = new_game(us, setup)
    game = Game(id=game_id, edition=us.id, setup=setup, version=0, state=state.to_dict())
    game.banker_key, game.table_token = KEY, f"t{game_id}".ljust(22, "t")
    game.players = [Player(seat=p.seat) for p in state.players]
    db.session.add(game)
    db.session.flush()  # the game's row before its log's
    for seq, (kind, payload) in enumerate(actions, start=1):
        outcome = apply(state, us, kind, payload)
        movements = [[m.payer, m.payee, m.amount] for m in outcome.movements]
        row = Action(game_id=game_id, seq=seq, kind=kind, payload=payload, actor="banker",
                     text=outcome.text, movements=movements, lines=outcome.lines)  # fmt: skip
        game.version = seq
        logbook.record(game, row, outcome.state, us)
        db.session.add(row)
        state = outcome.state
    game.state = state.to_dict()
    game.state_sum = {"plain": plain_sha256(game.state), "wrong": "0" * 64, "none": None}[seal]


@pytest.fixture
def upgraded(tmp_path, database_url):
    url = database_url(tmp_path)
    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET}
    old = create_app({**settings, "UPGRADE_ON_START": False})
    with old.app_context():
        upgrade(revision=BEFORE)
        pay = {"player": 1, "amount": 5, "note": "a\uffffb"}
        old_game("badname1", ("Ana", "\udfff"), [("pass_go", {"player": 0})], "plain")
        old_game("badnote1", ("Ana", "Bea"), [("bank_pay", pay)], "plain")
        old_game("plain001", ("Ana", "Bea"), [("bank_pay", {"player": 0, "amount": 9})], "plain")
        old_game("earlier1", ("\udfff", "Bea"), [("pass_go", {"player": 1})], "plain", None)
        old_game("wrong001", ("Ana", "Bea"), [("pass_go", {"player": 1})], "wrong")
        old_game("never001", ("Ana", "Bea"), [], "none")
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    new = create_app(settings)  # upgrades to the head
    yield new
    with new.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_game_holding_text_no_page_could_show_serves_its_pages_again(upgraded):
    client = upgraded.test_client()
    headers = {"X-Banker-Key": KEY}
    for game_id in ("badname1", "badnote1", "earlier1"):
        with upgraded.app_context():
            game = db.session.get(Game, game_id)
            assert integrity.intact(game)
            if game_id != "earlier1":  # a log of the earlier rules is not replayed
                assert logbook.replayed_state(game, edition_of(game)).to_dict() == game.state
            token = game.players[1].token
            db.session.remove()
        for url in (f"/g/{game_id}/?key={KEY}", f"/g/{game_id}/history", f"/p/{token}"):
            page = client.get(url, follow_redirects=True)
            assert page.status_code == 200 and "shown read-only" not in page.text, url
        assert "\ufffd" in client.get(SHOWN_ON[game_id]).text  # U+FFFD where it was
        assert client.get(f"/api/games/{game_id}/export", headers=headers).status_code == 200
        undo = client.post(f"/api/games/{game_id}/actions", json={"kind": "undo"}, headers=headers)
        assert undo.status_code == 201, undo.get_json()  # its checkpoint was mended too
        again = {"kind": "pass_go", "player": 1}
        assert client.post(f"/api/games/{game_id}/actions", json=again, headers=headers)
    with upgraded.app_context():
        assert db.session.get(Game, "badname1").state["players"][1]["name"] == "\ufffd"
        row = db.session.query(Action).filter_by(game_id="badnote1", seq=1).one()
        assert row.payload["note"] == "a\ufffdb" and "a\ufffdb" in row.text


def test_seals_are_keyed_where_the_old_seal_matched_or_was_never_kept(upgraded):
    client = upgraded.test_client()
    headers = {"X-Banker-Key": KEY}
    with upgraded.app_context():
        intact = {g.id: integrity.intact(g) for g in db.session.query(Game)}
        db.session.remove()
    assert intact == {
        "badname1": True,
        "badnote1": True,
        "earlier1": True,
        "plain001": True,
        "wrong001": False,
        "never001": True,
    }
    salary = {"kind": "pass_go", "player": 1}
    done = client.post("/api/games/plain001/actions", json=salary, headers=headers)
    assert done.status_code == 201
    refused = client.post("/api/games/wrong001/actions", json=salary, headers=headers)
    assert refused.status_code == 409
    assert "shown read-only" in client.get(f"/g/wrong001/?key={KEY}", follow_redirects=True).text
    runner = upgraded.test_cli_runner()
    repaired = runner.invoke(args=["repair", "wrong001"]).output
    assert "wrong001: matched its log, sealed" in repaired  # only its seal was wrong
    assert "0 damaged" in runner.invoke(args=["check"]).output
