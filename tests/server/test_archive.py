"""A game exported (setup and log) and imported again is the same game, every action checked
on the way in; a doctored export is refused whole; retention deletes finished and idle games
after the configured time and keeps the others."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from tablebank.models import Action, Game, Player, db

from ..conftest import setup_of


@pytest.fixture
def played(client):
    created = client.post("/api/games", json=setup_of()).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}/actions"
    for action in (
        {"kind": "buy", "player": 0, "deed": 39},
        {"kind": "rent", "player": 1, "deed": 39},
        {"kind": "bank_pay", "player": 2, "amount": 5, "note": "tip"},
        {"kind": "undo"},
        {"kind": "transfer", "from": 2, "to": 1, "amount": 70},
    ):
        assert client.post(url, json=action, headers=headers).status_code == 201
    return created["id"], headers


def view(client, game_id, headers) -> dict:
    found = client.get(f"/api/games/{game_id}", headers=headers).get_json()
    return {k: found[k] for k in ("players", "version")}


def test_an_exported_game_imports_as_the_same_game(client, played):
    game_id, headers = played
    exported = client.get(f"/api/games/{game_id}/export", headers=headers)
    assert exported.status_code == 200
    data = exported.get_json()
    assert [e["kind"] for e in data["log"]] == ["buy", "rent", "bank_pay", "undo", "transfer"]
    assert client.get(f"/api/games/{game_id}/export").status_code == 403  # banker only
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["id"] != game_id
    again = {"X-Banker-Key": copy["banker_key"]}
    assert view(client, copy["id"], again) == view(client, game_id, headers)


def test_a_doctored_export_is_refused_whole(client, app, played):
    game_id, headers = played
    data = client.get(f"/api/games/{game_id}/export", headers=headers).get_json()
    data["log"][2]["payload"]["amount"] = 10**6  # more than the bank may... and then more
    data["log"].append({"kind": "transfer", "payload": {"from": 1, "to": 0, "amount": 99999}})
    with app.app_context():
        before = db.session.query(Game).count(), db.session.query(Action).count()
        db.session.remove()
    refused = client.post("/api/games/import", json=data)
    assert refused.status_code == 400
    assert "Action 6 of the export was refused" in refused.get_json()["error"]
    with app.app_context():
        after = db.session.query(Game).count(), db.session.query(Action).count()
        assert db.session.query(Player).count() == 3
    assert after == before
    for junk in ({"format": "x"}, {"format": "tablebank-game", "setup": setup_of(), "log": 5}):
        assert client.post("/api/games/import", json=junk).status_code == 400


def test_an_import_may_be_larger_than_an_action(client, played):
    game_id, headers = played
    data = client.get(f"/api/games/{game_id}/export", headers=headers).get_json()
    data["log"] += [{"kind": "pass_go", "payload": {"player": n % 3}} for n in range(900)]
    imported = client.post("/api/games/import", json=data)  # about 100 kB
    assert imported.status_code == 201
    assert imported.get_json()["version"] == 905


def age(app, game_id, days: int, ended: bool = False) -> None:
    then = datetime.now(UTC) - timedelta(days=days)
    with app.app_context():
        db.session.execute(update(Action).where(Action.game_id == game_id).values(created_at=then))
        db.session.execute(update(Game).where(Game.id == game_id).values(created_at=then))
        if ended:
            game = db.session.get(Game, game_id)
            game.state = {**game.state, "ended": True}
        db.session.commit()
        db.session.remove()


def test_retention_deletes_finished_and_idle_games_only(client, app):
    games = [client.post("/api/games", json=setup_of()).get_json()["id"] for _ in range(4)]
    finished_old, idle_old, finished_recent, playing = games
    age(app, finished_old, 40, ended=True)  # finished, quiet for 40 days (keep 30)
    age(app, idle_old, 100)  # never finished, untouched for 100 days (keep 90)
    age(app, finished_recent, 5, ended=True)
    age(app, playing, 60)  # a long game, still going
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["prune", "--dry-run"])
    assert "2 game(s) to delete" in listed.output, listed.output
    with app.app_context():
        assert db.session.query(Game).count() == 4
    done = runner.invoke(args=["prune"])
    assert "2 game(s) deleted" in done.output
    with app.app_context():
        kept = {g.id for g in db.session.query(Game)}
        assert kept == {finished_recent, playing}
        assert db.session.query(Player).filter(Player.game_id.in_(games[:2])).count() == 0
