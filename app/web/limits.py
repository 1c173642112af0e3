"""Rate limits against anonymous load: new games (and imports) per client (an IPv4 address,
an IPv6 /64) and for everyone together; every write from a player's link (any POST under
/p/<token>), per link, in one count. Over a limit: 429 with Retry-After, in words. The
counters are kept in the app's own database (app/web/rate_counts.py), shared by every worker
process of a server.

Settings: RATE_LIMIT_CREATE, RATE_LIMIT_CREATE_ALL, RATE_LIMIT_PLAYER (the notation of
`limits`, "10/minute;100/day"), RATELIMIT_ENABLED. Behind a proxy, set PROXY_FIX so the
client's address is the real one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from flask import Flask, abort, current_app, jsonify, request
from flask_babel import gettext

from ..serving import client_group, is_api


class Count(NamedTuple):
    """One limit a request is counted against: its scope, its setting, whose count it is."""

    scope: str
    setting: str
    key: Callable[[], str]


def per_client() -> str:
    """New games count per IPv4 address and per IPv6 /64 (serving.client_group)."""
    return client_group(request.remote_addr)


def everyone() -> str:
    return "everyone"


def per_link() -> str:
    """A player's writes count against their own link, wherever they come from."""
    return "link:" + str((request.view_args or {}).get("token", ""))[:64]


# The client's own limit first: a client already over it does not use up everyone's.
NEW_GAME = (
    Count("new-game", "RATE_LIMIT_CREATE", per_client),
    Count("new-game-all", "RATE_LIMIT_CREATE_ALL", everyone),
)
NEW_GAMES = ("banker.create", "api.create_game", "api.import_game")
PHONE_WRITE = (Count("phone-writes", "RATE_LIMIT_PLAYER", per_link),)
PHONE_WRITES = "/p/<token>"  # every POST route under it is a write from a player's phone
LIMITED = "tablebank.limited"  # app.extensions: endpoint -> the counts of its POSTs


def register(app: Flask) -> None:
    """The check, before the banker's and before a writer waits for its game: a flood is
    turned away first. What it checks is named once the routes are there (apply)."""
    app.extensions[LIMITED] = {}
    app.before_request(turn_a_flood_away)

    @app.errorhandler(429)
    def too_many(_error):
        words = gettext("Too many requests from here: wait a minute and try again.")
        if is_api(request.path):
            answer = jsonify({"error": words, "rule": "rate_limited"})
        else:
            answer = words
        return answer, 429, {"Retry-After": "60"}


def apply(app: Flask) -> None:
    """New games (pages, API, import) share one count per client and one for everyone; all
    the writes of a player's link share one count."""
    limited = app.extensions[LIMITED]
    for endpoint in NEW_GAMES:
        if endpoint in app.view_functions:
            limited[endpoint] = NEW_GAME
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(PHONE_WRITES) and "POST" in (rule.methods or ()):
            limited[rule.endpoint] = PHONE_WRITE


def turn_a_flood_away() -> None:
    counts = current_app.extensions[LIMITED].get(request.endpoint)
    if counts is None or request.method != "POST" or not current_app.config["RATELIMIT_ENABLED"]:
        return
    from . import rate_counts  # loads `limits` at the first limited request, not at start

    config = current_app.config
    for count in counts:
        if not rate_counts.within(config[count.setting], count.scope, count.key()):
            abort(429)
