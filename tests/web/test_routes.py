"""Every link the pages write leads where it says: each route's address, as url_for builds it
(its builders are made at first use, app/factory.py), is read back by the router as the same
route with the same values, and extra values go into the query string."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import url_for


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
