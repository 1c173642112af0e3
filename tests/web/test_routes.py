"""Every link the pages write leads where it says: each route's address, as url_for builds it
(its builders are made at first use, app/factory.py), is read back by the router as the same
route with the same values, and extra values go into the query string."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import url_for
from tablebank import factory
from werkzeug.routing import Map, Rule


def test_every_route_is_built_and_read_back_to_itself(app):
    adapter = app.url_map.bind("localhost")
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    assert len(rules) > 40
    with app.test_request_context():
        for rule in rules:
            values = {name: 7 for name in rule.arguments if name not in (rule.defaults or {})}
            method = sorted((rule.methods or {"GET"}) - {"HEAD", "OPTIONS"})[0]
            for extra in ({}, {"lang": "es"}):
                address = urlsplit(url_for(rule.endpoint, _method=method, **values, **extra))
                endpoint, read = adapter.match(address.path, method=method)
                assert endpoint == rule.endpoint, address.path
                assert {name: str(value) for name, value in read.items()} == {
                    name: str(value) for name, value in {**(rule.defaults or {}), **values}.items()
                }
                assert parse_qs(address.query) == {name: [v] for name, v in extra.items()}


def test_a_route_s_builder_is_made_once_and_by_one_thread_at_a_time(monkeypatch):
    """Two pages drawn at once in two threads both make builders on first use. werkzeug
    makes them with ast.parse, which CPython 3.11 cannot run in two threads at once (a
    live part failed in CI with "AST constructor recursion depth mismatch"): each is made
    while the factory's BUILDING lock is held, and made once."""
    made_while_held: list[bool] = []
    make = Rule._compile_builder

    def noted(rule, append_unknown=True):
        made_while_held.append(factory.BUILDING.locked())
        return make(rule, append_unknown)

    monkeypatch.setattr(Rule, "_compile_builder", noted)
    adapter = Map([factory.BuiltWhenFirstUsed("/g/<code>", endpoint="game")]).bind("localhost")
    assert made_while_held == []  # not made as the route is added
    assert adapter.build("game", {"code": "AB12"}) == "/g/AB12"
    assert adapter.build("game", {"code": "CD34"}) == "/g/CD34"
    assert made_while_held == [True]
