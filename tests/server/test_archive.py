"""A game exported (setup, log with its times, final state, checksum) and imported again is
the same game, exported the same, timed games included; an archive edited after it was made is
refused with words, and one made whole again is still checked by every rule; imports are
bounded (size, one at a time, time) and write all or nothing; retention deletes finished and
idle games after the configured time and keeps the others."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from tablebank import archive
from tablebank.models import Action, Game, Player, db
from tablebank.rules import RuleError, replay

from ..support import ALL_EDITIONS, BOARDWALK, MEDITERRANEAN, setup_of
from ..tables import clock_at


@pytest.fixture
def played(client):
    created = client.post("/api/games", json=setup_of()).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}/actions"
    for action in (
        {"kind": "pass_go", "player": 0},
        {"kind": "bank_collect", "player": 1, "amount": 50, "note": "fine"},
        {"kind": "bank_pay", "player": 2, "amount": 5, "note": "tip"},
        {"kind": "undo"},
        {"kind": "transfer", "from": 2, "to": 1, "amount": 70},
    ):
        assert client.post(url, json=action, headers=headers).status_code == 201
    return created["id"], headers


def view(client, game_id, headers) -> dict:
    found = client.get(f"/api/games/{game_id}", headers=headers).get_json()
    return {k: found[k] for k in ("players", "version")}


def export_of(client, game_id, headers) -> dict:
    answer = client.get(f"/api/games/{game_id}/export", headers=headers)
    assert answer.status_code == 200 and answer.is_streamed
    return json.loads(answer.get_data())


def counts(app) -> tuple[int, int, int]:
    with app.app_context():
        found = tuple(db.session.query(t).count() for t in (Game, Action, Player))
        db.session.remove()
    return found


def sealed(data: dict) -> dict:
    """What someone who knows the format does after an edit: the checksum made again."""
    checksum = archive.Checksum()
    header = archive._header(data["edition"], data["created_at"], data["setup"])
    for part in (header, *data["log"], data["final"]):
        checksum.add(archive.canonical(part))
    return {**data, "checksum": checksum.text()}


def forged(data: dict) -> dict:
    """An edited archive made whole again: the final state its log gives, and the checksum."""
    edition = ALL_EDITIONS[data["setup"]["edition"]]
    state = replay(edition, data["setup"], [(e["kind"], e["payload"]) for e in data["log"]])
    final = {"version": len(data["log"]), "state": json.loads(json.dumps(state.to_dict()))}
    return sealed({**data, "final": final})


def test_an_exported_game_imports_as_the_same_game_and_exports_the_same(client, app, played):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    assert data["format"] == "tablebank-game" and data["version"] == 2
    assert data["checksum"].startswith("sha256:") and data["final"]["version"] == 5
    kinds = [e["kind"] for e in data["log"]]
    assert kinds == ["pass_go", "bank_collect", "bank_pay", "undo", "transfer"]
    assert client.get(f"/api/games/{game_id}/export").status_code == 403  # banker only
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["id"] != game_id
    again = {"X-Banker-Key": copy["banker_key"]}
    assert view(client, copy["id"], again) == view(client, game_id, headers)
    assert export_of(client, copy["id"], again) == data  # times, log and state: equal
    history = client.get(f"/api/games/{copy['id']}/actions", headers=again).get_json()
    original = client.get(f"/api/games/{game_id}/actions", headers=headers).get_json()
    assert history == original  # the same sentences, times and undone marks
    undone = client.post(f"/api/games/{copy['id']}/actions", json={"kind": "undo"}, headers=again)
    assert undone.status_code == 201  # the copy's undo chain works
    assert undone.get_json()["text"] == "Undo: Cal pays Bea $70"


def test_a_finished_time_limited_game_comes_back_finished(client, app):
    """TL1: the issue's case, "Action 1 of the export was refused: Time is up". An imported
    game keeps its original clock: the end the clock made is in its log, with its times."""
    ends = "2099-01-01T20:00"
    created = client.post("/api/games", json=setup_of(mode="timed", ends_at=ends)).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}/actions"
    with clock_at("2099-01-01T20:05"):
        late = client.post(url, json={"kind": "pass_go", "player": 0}, headers=headers)
    assert late.get_json()["rule"] == "TL1"  # time was up: the clock ended the game
    data = export_of(client, created["id"], headers)
    assert [(e["kind"], e["actor"]) for e in data["log"]] == [("end_game", "clock")]
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = {"X-Banker-Key": copy["banker_key"]}
    original = client.get(f"/api/games/{created['id']}", headers=headers).get_json()
    assert copy["ended"] and original["ended"] and copy["winners"] == original["winners"]
    assert export_of(client, copy["id"], again) == data


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["log"][2]["payload"].update(amount=6),  # a payment changed from 5 to 6
        lambda d: d["setup"].update(starting_cash=2500),
        lambda d: d["log"][4].update(at="2020-01-01T00:00:00+00:00"),
        lambda d: d["final"]["state"]["players"][0].update(cash=10**6),
        lambda d: d["log"].pop(),
    ],
    ids=["payment", "starting cash", "time", "final cash", "action removed"],
)
def test_an_archive_edited_after_it_was_made_is_refused_with_words(client, app, played, edit):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    edit(data)
    before = counts(app)
    refused = client.post("/api/games/import", json=data)
    assert refused.status_code == 400
    assert "changed after it was made" in refused.get_json()["error"]
    assert counts(app) == before


@pytest.mark.parametrize("cut", [0.5, 0.99], ids=["half", "last bytes lost"])
def test_an_export_cut_short_is_refused_as_cut_short(client, app, played, cut):
    """A download that stopped early is told as such, not as the API's 'numbers of at most
    24 digits', and nothing is written."""
    game_id, headers = played
    text = client.get(f"/api/games/{game_id}/export", headers=headers).get_data()
    before = counts(app)
    refused = client.post(
        "/api/games/import", data=text[: int(len(text) * cut)], content_type="application/json"
    )
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "This export is cut short or damaged (it is not valid JSON), so it is not imported"
    )
    assert counts(app) == before


def test_an_archive_made_whole_again_is_still_checked_by_every_rule(client, app, played):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    before = counts(app)
    impossible = json.loads(json.dumps(data))
    impossible["log"].append(
        {"seq": 6, "kind": "transfer", "payload": {"from": 1, "to": 0, "amount": 99999},
         "actor": "api", "at": impossible["log"][-1]["at"]}
    )  # fmt: skip
    refused = client.post("/api/games/import", json=sealed(impossible))
    assert refused.status_code == 400
    assert "Action 6 of the export was refused" in refused.get_json()["error"]
    lying = json.loads(json.dumps(data))
    lying["final"]["state"]["players"][0]["cash"] += 100
    refused = client.post("/api/games/import", json=sealed(lying))
    assert "final state is not what its log gives" in refused.get_json()["error"]
    assert counts(app) == before
    for junk in ({"format": "x"}, {"format": "tablebank-game", "setup": setup_of(), "log": 5}):
        assert client.post("/api/games/import", json=junk).status_code == 400


def test_an_archive_of_a_game_logged_under_earlier_rules_is_refused(client, app, played, tmp_path):
    """Format 1 (no checksum) came only from games logged under the rules before the game
    owned the turn, which cannot be played again: refused in words, by the API and the CLI;
    so is a format 2 archive whose setup says the earlier rules."""
    game_id, headers = played
    data = export_of(client, game_id, headers)
    old = {k: data[k] for k in ("format", "edition", "created_at", "setup")}
    old.update(
        version=1, log=[{k: e[k] for k in ("kind", "payload", "actor")} for e in data["log"]]
    )
    old["setup"] = {k: v for k, v in old["setup"].items() if k != "rules"}
    before = counts(app)
    refused = client.post("/api/games/import", json=old)
    assert (
        refused.status_code == 400 and "earlier version of the rules" in refused.get_json()["error"]
    )
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    done = app.test_cli_runner().invoke(args=["import", str(path)])
    assert done.exit_code == 1 and "earlier version of the rules" in done.output
    earlier = json.loads(json.dumps(data))
    earlier["setup"]["rules"] = 1
    refused = client.post("/api/games/import", json=sealed(earlier))
    assert (
        refused.status_code == 400 and "earlier version of the rules" in refused.get_json()["error"]
    )
    assert counts(app) == before


def test_m4_an_archive_of_rules_2_imports_and_replays_its_bankruptcies_as_played(client, played):
    """M4: under rules 2, a bankruptcy that did not carry the creditor's lift-now choice kept
    every mortgaged deed at once; since rules 3 that choice waits for the creditor. An export
    of a rules 2 game still imports, keeps its rules, and its log replays as it was played:
    Cal paid the 10% on Mediterranean Avenue with Bea's bankruptcy and threw next."""
    game_id, headers = played
    data = export_of(client, game_id, headers)
    at = data["log"][-1]["at"]
    bea = 1500 - 50 + 70 - 60 + 30  # the played log, Mediterranean bought and mortgaged
    actions = [
        ("land", {"player": 1, "space": MEDITERRANEAN, "choices": [{"kind": "buy"}]}),
        ("mortgage", {"player": 1, "deed": MEDITERRANEAN}),
        ("land", {"player": 2, "space": BOARDWALK, "choices": [{"kind": "buy"}]}),
        ("bank_collect", {"player": 1, "amount": bea}),
        ("turn_to", {"player": 1}),
        ("place", {"player": 1, "space": BOARDWALK - 5}),
        ("roll", {"player": 1, "dice": 5}),
        ("bankrupt", {"player": 1}),
        ("roll", {"player": 2, "dice": 4}),
    ]
    data["log"] += [
        {"seq": 6 + n, "kind": kind, "payload": payload, "actor": "api", "at": at}
        for n, (kind, payload) in enumerate(actions)
    ]
    with pytest.raises(RuleError):  # under rules 3 the throw waits for Cal's choice
        forged(data)
    data["setup"]["rules"] = 2
    imported = client.post("/api/games/import", json=forged(data))
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = {"X-Banker-Key": copy["banker_key"]}
    assert export_of(client, copy["id"], again)["setup"]["rules"] == 2
    game = client.get(f"/api/games/{copy['id']}", headers=again).get_json()
    mediterranean = next(d for d in game["deeds"] if d["space"] == MEDITERRANEAN)
    assert mediterranean["owner"] == 2 and mediterranean["mortgaged"]


def test_an_import_may_be_larger_than_an_action(client, played):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    at = data["log"][-1]["at"]
    data["log"] += [
        {"seq": 6 + n, "kind": "pass_go", "payload": {"player": n % 3}, "actor": "api", "at": at}
        for n in range(900)
    ]
    imported = client.post("/api/games/import", json=forged(data))  # about 100 kB
    assert imported.status_code == 201
    assert imported.get_json()["version"] == 905


def test_the_export_has_no_ceiling_and_the_import_says_its_own(client, played, monkeypatch):
    """The log is read a chunk at a time (here 2 rows): a game longer than the import takes
    (here 3 actions) still exports whole; its import is refused at once, with words."""
    game_id, headers = played
    monkeypatch.setattr(archive, "CHUNK", 2)
    monkeypatch.setattr(archive, "MAX_LOG", 3)
    data = export_of(client, game_id, headers)
    assert [e["seq"] for e in data["log"]] == [1, 2, 3, 4, 5]
    refused = client.post("/api/games/import", json=data)
    assert refused.status_code == 400 and "at most 3 actions" in refused.get_json()["error"]


def test_one_import_at_a_time_the_next_is_refused_at_once(client, app, played):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    before = counts(app)
    with archive.ONE_AT_A_TIME:  # an import running in this process
        busy = client.post("/api/games/import", json=data)
    assert busy.status_code == 429 and busy.headers["Retry-After"] == "60"
    assert "try again in a minute" in busy.get_json()["error"]
    assert counts(app) == before
    assert client.post("/api/games/import", json=data).status_code == 201


def test_an_import_over_its_time_budget_is_stopped_and_writes_nothing(
    client, app, played, monkeypatch
):
    game_id, headers = played
    data = export_of(client, game_id, headers)
    app.config["IMPORT_SECONDS"] = -1  # the budget is spent after the first action
    before = counts(app)
    refused = client.post("/api/games/import", json=data)
    assert refused.status_code == 400 and "took longer than" in refused.get_json()["error"]
    assert counts(app) == before


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


def test_a_real_server_imports_off_its_event_loop_and_refuses_in_words(server):
    """gunicorn's gevent workers replay an import in a thread of gevent's pool: the same
    game comes back, and a refusal is words to the client, not a traceback in the log."""
    game_id, key = server.new_game()
    for action in ({"kind": "bank_pay", "player": 0, "amount": 100}, {"kind": "undo"}):
        assert server.call("POST", f"/api/games/{game_id}/actions", action, key=key)[0] == 201
    status, data = server.call("GET", f"/api/games/{game_id}/export", key=key)
    assert status == 200 and data["final"]["version"] == 2
    status, copy = server.call("POST", "/api/games/import", data)
    assert status == 201 and copy["version"] == 2, copy
    data["log"][0]["payload"]["amount"] = 101
    status, refused = server.call("POST", "/api/games/import", data)
    assert status == 400 and "changed after it was made" in refused["error"]
    assert "Traceback" not in server.errors()
