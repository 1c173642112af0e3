"""Limits without gaps: new games are counted per IPv4 address and per IPv6 /64 (an IPv6
host has 2^64 addresses), and for everyone together, which one client over its own limit
does not use up; every write route of a player's phone is limited, pay included."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from tablebank import create_app
from tablebank.models import Player, db

from ..support import setup_of


@pytest.fixture
def limited(tmp_path, database_url):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": True,
            "PROXY_FIX": 1,  # the client's address as a proxy in front says it
            "RATE_LIMIT_CREATE": "3/minute",
            "RATE_LIMIT_CREATE_ALL": "8/minute",
            "RATE_LIMIT_PLAYER": "5/minute",
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def new_game(client, address: str) -> int:
    headers = {"X-Forwarded-For": address}
    return client.post("/api/games", json=setup_of(), headers=headers).status_code


def test_an_ipv6_network_counts_as_one_client_and_ipv4_addresses_each_as_one(limited):
    client = limited.test_client()
    same_network = [f"2001:db8:1:2::{n:x}" for n in range(1, 7)]
    assert [new_game(client, a) for a in same_network] == [201] * 3 + [429] * 3
    assert new_game(client, "2001:db8:1:3::1") == 201  # the next /64 is someone else
    assert new_game(client, "::ffff:192.0.2.7") == 201  # IPv4 written as IPv6 is IPv4
    assert new_game(client, "192.0.2.7") == 201
    assert new_game(client, "192.0.2.8") == 201


def test_new_games_for_everyone_are_limited_and_one_flood_does_not_use_them_up(limited):
    client = limited.test_client()
    flood = [new_game(client, "198.51.100.1") for _ in range(20)]
    assert flood == [201] * 3 + [429] * 17
    others = [new_game(client, f"203.0.113.{n}") for n in range(1, 9)]
    assert others == [201] * 5 + [429] * 3  # 8 a minute for everyone: 3 + 5
    refused = client.post("/api/games", json=setup_of(), headers={"X-Forwarded-For": "10.9.9.9"})
    assert refused.status_code == 429 and "wait a minute" in refused.get_json()["error"]


def test_every_write_of_a_phone_shares_one_limit_pay_included(limited):
    client = limited.test_client()
    made = client.post("/api/games", json=setup_of(starting_cash=1000)).get_json()
    with limited.app_context():
        query = select(Player.token).where(Player.game_id == made["id"]).order_by(Player.seat)
        tokens = db.session.scalars(query).all()
        db.session.remove()
    bea = tokens[1]
    pays = [
        client.post(f"/p/{bea}/pay", data={"to": "0", "amount": "1"}).status_code for _ in range(4)
    ]
    transfer = {"kind": "transfer", "to": "0", "amount": "1"}
    does = [client.post(f"/p/{bea}/do", data=transfer).status_code for _ in range(3)]
    assert pays + does == [302] * 4 + [302] + [429] * 2  # five a minute, whatever the route
    refused = client.post(f"/p/{bea}/pay", data={"to": "0", "amount": "1"})
    assert refused.status_code == 429 and re.search("wait a minute", refused.text)
    key = {"X-Banker-Key": made["banker_key"]}
    game = client.get(f"/api/games/{made['id']}", headers=key).get_json()
    assert [p["cash"] for p in game["players"]] == [1005, 995, 1000]  # only five went through
    cal = tokens[2]
    assert client.post(f"/p/{cal}/pay", data={"to": "0", "amount": "1"}).status_code == 302
