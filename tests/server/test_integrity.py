"""A snapshot changed behind the bank's back (a hand edit in the database) is caught: the
game refuses every action with a clear error instead of approving what its log cannot justify;
other games and the home page go on; the host's repair command rebuilds it from the log."""

from __future__ import annotations

import pytest
from sqlalchemy import update
from tablebank.models import Game, db


@pytest.fixture
def two_games(client):
    made = []
    for names in (("Ana", "Bea"), ("Cy", "Di")):
        form = {"edition": "us-classic", "name0": names[0], "name1": names[1]}
        made.append(client.post("/new", data=form).headers["Location"].split("/")[2])
    client.post(f"/g/{made[0]}/do", data={"kind": "bank_pay", "player": "0", "amount": "100"})
    return made


def hand_edit(app, game_id, cash: int) -> None:
    """What someone with the database's password might do: give Ana a fortune."""
    with app.app_context():
        state = dict(db.session.get(Game, game_id).state)
        state["players"] = [dict(p) for p in state["players"]]
        state["players"][0]["cash"] = cash
        db.session.execute(update(Game).where(Game.id == game_id).values(state=state))
        db.session.commit()
        db.session.remove()


def test_an_edited_snapshot_is_refused_and_other_games_go_on(client, app, two_games):
    edited, other = two_games
    hand_edit(app, edited, 1_000_000)
    form = {"kind": "transfer", "from": "0", "to": "1", "amount": "900000"}
    page = client.post(f"/g/{edited}/do", data=form, follow_redirects=True)
    assert "does not match its log" in page.text
    with app.app_context():
        key = db.session.get(Game, edited).banker_key
        db.session.remove()
    action = {"kind": "transfer", "from": 0, "to": 1, "amount": 900_000}
    answer = client.post(f"/api/games/{edited}/actions", json=action, headers={"X-Banker-Key": key})
    assert answer.status_code == 409 and answer.get_json()["rule"] == "integrity"
    with app.app_context():
        cash = [p["cash"] for p in db.session.get(Game, edited).state["players"]]
        db.session.remove()
    assert cash == [1_000_000, 1500]  # nothing moved
    done = client.post(f"/g/{other}/do", data={"kind": "pass_go", "player": "1"})
    assert done.status_code == 302
    assert client.get(f"/g/{other}/").status_code == 200
    assert client.get("/").status_code == 200


def test_the_repair_command_rebuilds_the_snapshot_from_the_log(client, app, two_games):
    edited, _ = two_games
    hand_edit(app, edited, 1_000_000)
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["check"])
    assert edited in listed.output and "1 damaged" in listed.output
    repaired = runner.invoke(args=["repair", "--", edited])
    assert "rebuilt from its log" in repaired.output, repaired.output
    with app.app_context():
        cash = [p["cash"] for p in db.session.get(Game, edited).state["players"]]
        db.session.remove()
    assert cash == [1600, 1500]
    assert "0 damaged" in runner.invoke(args=["check"]).output
    done = client.post(f"/g/{edited}/do", data={"kind": "pass_go", "player": "0"})
    assert done.status_code == 302
    with app.app_context():
        assert db.session.get(Game, edited).state["players"][0]["cash"] == 1800


def test_a_damaged_game_row_leaves_the_home_page_and_other_games_working(client, app):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    damaged = client.post("/new", data=form).headers["Location"].split("/")[2]
    form = {"edition": "us-classic", "name0": "Cy", "name1": "Di"}
    fine = client.post("/new", data=form).headers["Location"].split("/")[2]
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == damaged).values(state={"junk": 1}))
        db.session.commit()
        db.session.remove()
    home = client.get("/")
    assert home.status_code == 200 and f"/g/{fine}/" in home.text
    assert client.get(f"/g/{fine}/").status_code == 200
