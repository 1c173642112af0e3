"""Fuzz a real server: API calls generated from its own OpenAPI document (schemathesis, valid
and invalid), nasty text (lone surrogates, NUL, controls, noncharacters, huge combining runs,
very long text, and any code point at all) in every field of every action kind, every setting
of a new game and every part of an archive, a share of hand-made nasty bodies (5,000 digits,
NaN, deep nesting, "²"), and form posts and query strings with any fields and the same nasty
text on every form route and page (with a real session and CSRF token; a surrogate sent as the
UTF-8 bytes a broken client would send). Counts the answers by status; any 5xx is printed and
makes the script exit 1.

    .venv/bin/python -m bench.fuzz --database sqlite --calls 8000 --forms 2000
    .venv/bin/python -m bench.fuzz --database postgres --calls 8000 --forms 2000

Rate limits are switched off in the server it starts (TABLEBANK_RATELIMIT_ENABLED=false): the
fuzz measures input handling, not the limiter.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import re
import sys
import time
import urllib.parse
import warnings

import requests

from .common import Server, free_port, fresh_database, server_command

NASTY_BODIES = [
    '{"kind": "bank_pay", "player": 0, "amount": NaN}',
    '{"kind": "bank_pay", "player": 0, "amount": Infinity}',
    '{"kind": "bank_pay", "player": 0, "amount": ' + "9" * 5000 + "}",
    '{"kind": "bank_pay", "player": 0, "amount": "' + "9" * 5000 + '"}',
    '{"kind": "bank_pay", "player": 0, "amount": "²"}',
    '{"kind": "bankrupt", "player": 1, "owed": 5, "lift": 7}',
    '{"kind": "trade", "player": 0, "partner": 1, "give": {"cash": 1e400}}',
    '{"kind": "build", "player": 0, "group": "green", "levels": "1,²,3"}',
    '{"kind": "pass_go", "player": 0, "x": ' + "[" * 1000 + "]" * 1000 + "}",
    "[" * 20000 + "]" * 20000,
    '{"kind": "pass_go", "player": 0, "expected_version": 1e400}',
    '{"edition": "us-classic", "players": [{"name": "A", "colour": "#000000"}, 5]}',
    '{"edition": "us-classic", "starting_cash": NaN, "players": []}',
]
FORM_VALUES = [
    "", "0", "1", "-1", "7", "39", "99", "1e3", "12.5", "NaN", "Infinity", "²", "٣", "true",
    "9" * 5000, "[" * 2000, '{"player": 0}', "a,b", "1,1,1", "<script>", "%s", "\x00",
]  # fmt: skip
BAD_TEXT = [
    "\ud800", "a\udfffb", "\udc00\ud800", "\x00", "B\x00b", "\x1b[31m", "\x7f", "\x85",
    "\uffff", "\ufffe", "\ufdd0", "\U0001ffff", "\U0010fffe", "e" + "\u0301" * 9,
    "e" + "\u0301" * 3000, "x" * 5000,
]  # fmt: skip
ODD_TEXT = ["Zoë", "Zoe\u0308", "\u202eevil", "🎲", "さくら", "a\tb", "a\r\nb", "\u00a0", "ǅ"]
PAGES = [
    "/g/{game}/", "/g/{game}/turn", "/g/{game}/end", "/g/{game}/history", "/g/{game}/player/0",
    "/g/{game}/pick/buy", "/g/{game}/land/0", "/g/{game}/land/0/39", "/g/{game}/money",
    "/g/{game}/transfer", "/g/{game}/undo", "/g/{game}/auction", "/g/{game}/bankrupt",
    "/g/{game}/deal", "/g/{game}/results", "/g/{game}/build", "/g/{game}/mortgages",
    "/g/{game}/trade", "/g/{game}/codes", "/p/{token}", "/p/{token}/history", "/p/{token}/turn",
    "/p/{token}/preview", "/p/{token}/deeds", "/p/{token}/trade", "/t/{table}", "/new", "/",
]  # fmt: skip
SETUP_TEXT = ["edition", "mode", "ends_at", "time_zone", "name", "colour", "(a key)"]
ARCHIVE_TEXT = ["edition", "created_at", "checksum", "kind", "actor", "at", "note", "name"]


def nasty_text(rng: random.Random) -> str:
    """Text no field may hold, or odd text that is fine, or any code points at all."""
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(BAD_TEXT)
    if roll < 0.55:
        return rng.choice(ODD_TEXT)
    if roll < 0.7:
        return rng.choice("ae€") + "\u0301" * rng.randint(1, 600)
    return "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(0, 12)))


def escaped(text: str) -> str:
    """Form or query text as a client sends it; a lone surrogate as its three UTF-8 bytes."""
    return urllib.parse.quote(text.encode("utf-8", "surrogatepass"), safe="")


FORM_FIELDS = [
    "player", "from", "to", "amount", "note", "deed", "space", "dice", "card", "group",
    "levels", "partner", "give", "take", "lift", "offer", "owed", "creditor", "hands",
    "payload", "key", "version", "back", "edition", "name0", "name1", "starting_cash", "mode",
    "typed", "lang", "ends_at", "time_zone", "colour1", "fragment", "doubles", "building",
]  # fmt: skip
SETUP = {
    "edition": "us-classic",
    "players": [{"name": "Ana", "colour": "#e03131"}, {"name": "Bea", "colour": "#1971c2"}],
}
KINDS = [
    "pass_go", "bank_pay", "bank_collect", "transfer", "buy", "rent", "tax", "card", "build",
    "trade", "trade_offer", "trade_accept", "trade_decline", "bankrupt", "undo", "bid", "x",
]  # fmt: skip


def new_game(base: str) -> tuple[str, str]:
    setup = {
        "edition": "us-classic",
        "players": [{"name": n, "colour": "#e03131"} for n in ("Ana", "Bea", "Cal")],
    }
    created = requests.post(f"{base}/api/games", json=setup, timeout=30).json()
    key = created["banker_key"]
    requests.post(
        f"{base}/api/games/{created['id']}/actions",
        json={"kind": "buy", "player": 0, "deed": 39},
        headers={"X-Banker-Key": key},
        timeout=30,
    )
    return created["id"], key


def fuzz_api(base: str, calls: int, seed: int) -> tuple[collections.Counter, list[str]]:
    """Two fifths of the calls from the OpenAPI document, half nasty text in every field,
    one tenth hand-made nasty bodies."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
    operations = [op.ok() for op in schema.get_all_operations()]
    statuses: collections.Counter = collections.Counter()
    failures: list[str] = []
    rng = random.Random(seed)
    game_id, key = new_game(base)
    session = requests.Session()
    nasty, texts = calls // 10, calls // 2
    per_op = max(1, (calls - nasty - texts) // (2 * len(operations)))
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=per_op,
                deadline=None,
                database=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            def call(case):
                if "game_id" in (case.path_parameters or {}) and rng.random() < 0.9:
                    case.path_parameters["game_id"] = game_id
                response = case.call(base_url=base, headers={"X-Banker-Key": key}, timeout=30)
                statuses[response.status_code] += 1
                if response.status_code >= 500:
                    failures.append(f"{case.method} {case.formatted_path}: {response.text[:200]}")

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with contextlib.suppress(Unsatisfiable):  # no invalid call exists (a bare GET)
                    call()
    for n in range(nasty):
        body = rng.choice(NASTY_BODIES)
        path = rng.choice(["actions", "preview", None])
        url = f"{base}/api/games" if path is None else f"{base}/api/games/{game_id}/{path}"
        response = session.post(
            url,
            data=body.encode(),
            headers={"Content-Type": "application/json", "X-Banker-Key": key},
            timeout=30,
        )
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"POST {url} #{n}: {response.text[:200]}")
    text_statuses, text_failures = fuzz_text(base, texts, rng, (game_id, key), schema)
    statuses.update(text_statuses)
    return statuses, failures + text_failures


def fuzz_text(base: str, calls: int, rng: random.Random, game, schema):
    """Nasty text in every field of every action kind (declared, meta, unknown, a key, the
    kind itself), every setting of a new game, every part of an archive."""
    game_id, key = game
    document = schema.raw_schema["components"]["schemas"]
    kinds = sorted(document["Action"]["discriminator"]["mapping"])
    fields = {k: sorted(document[f"action_{k}"].get("properties", {})) for k in kinds}
    session = requests.Session()
    headers = {"Content-Type": "application/json", "X-Banker-Key": key}
    exported = session.get(f"{base}/api/games/{game_id}/export", headers=headers, timeout=30)
    archive = exported.json()
    statuses: collections.Counter = collections.Counter()
    failures: list[str] = []
    for _ in range(calls):
        value, target = nasty_text(rng), rng.random()
        if target < 0.7:
            kind = rng.choice(kinds)
            where = rng.choice([*fields[kind], "idempotency_key", "kind", "junk", "(a key)"])
            body = {"kind": kind, "player": 0, "amount": 5}
            body[value if where == "(a key)" else where] = value if where != "(a key)" else 1
            url = f"{base}/api/games/{game_id}/{rng.choice(['actions', 'preview'])}"
        elif target < 0.85:
            body = json.loads(json.dumps(SETUP))
            where = rng.choice(SETUP_TEXT)
            if where in ("name", "colour"):
                body["players"][1][where] = value
            elif where == "(a key)":
                body["players"][1][value] = "x"
            else:
                body[where] = value
            url = f"{base}/api/games"
        else:
            body = json.loads(json.dumps(archive))
            where = rng.choice(ARCHIVE_TEXT)
            if where in ("kind", "actor", "at") and body["log"]:
                body["log"][0][where] = value
            elif where == "note" and body["log"]:
                body["log"][0]["payload"]["note"] = value
            elif where == "name":
                body["setup"]["players"][0]["name"] = value
            else:
                body[where] = value
            url = f"{base}/api/games/import"
        data = json.dumps(body).encode()  # a lone surrogate goes as JSON's "\ud800"
        response = session.post(url, data=data, headers=headers, timeout=60)
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"POST {url} {where}={ascii(value)[:60]}: {response.text[:200]}")
    return statuses, failures


def fuzz_forms(base: str, posts: int, seed: int) -> tuple[collections.Counter, list[str]]:
    """Form posts to every form route and query strings to every page, any fields, nasty
    text among the values and the names."""
    rng = random.Random(seed)
    banker = requests.Session()
    token = re.search(r'name="csrf_token" value="([^"]+)"', banker.get(f"{base}/new").text)[1]
    form = {"csrf_token": token, "edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    created = banker.post(f"{base}/new", data=form, allow_redirects=False)
    game_id = created.headers["Location"].split("/")[2]
    codes = banker.get(f"{base}/g/{game_id}/codes").text
    player = re.search(r"/p/([A-Za-z0-9_\-]+)", codes)[1]
    table = re.search(r"/t/([A-Za-z0-9_\-]+)", codes)[1]
    statuses: collections.Counter = collections.Counter()
    failures: list[str] = []

    def value() -> str:
        return nasty_text(rng) if rng.random() < 0.5 else rng.choice(FORM_VALUES)

    for n in range(posts):
        fields = {
            (nasty_text(rng) if rng.random() < 0.1 else rng.choice(FORM_FIELDS)): value()
            for _ in range(rng.randint(0, 6))
        }
        fields["kind"] = rng.choice(KINDS) if rng.random() < 0.9 else nasty_text(rng)
        if rng.random() < 0.95:
            fields["csrf_token"] = token
        encoded = "&".join(f"{escaped(k)}={escaped(v)}" for k, v in fields.items())
        if rng.random() < 0.3:
            page = rng.choice(PAGES).format(game=game_id, token=player, table=table)
            url, method, body = f"{page}?{encoded}", "GET", None
        else:
            url = rng.choice([
                f"/g/{game_id}/do", f"/g/{game_id}/do", f"/p/{player}/do", f"/p/{player}/pay",
                f"/g/{game_id}/quick/{rng.randint(0, 3)}", "/new",
                f"/g/{game_id}/codes/{rng.randint(0, 9)}/new",
            ])  # fmt: skip
            method, body = "POST", encoded.encode()
        response = banker.request(
            method,
            base + url,
            data=body,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            allow_redirects=False,
            timeout=30,
        )
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"{method} {url[:200]} #{n}: {response.text[:200]}")
        if response.status_code == 302 and n % 10 == 0:
            # Where it leads, as a browser follows it: a path, or the whole address (the banker
            # link's redirect that drops the key from it names the page in full).
            following = urllib.parse.urljoin(base + url, response.headers["Location"])
            landed = banker.get(following, timeout=30)
            statuses[landed.status_code] += 1
            if landed.status_code >= 500:
                failures.append(f"GET {response.headers['Location']}: {landed.status_code}")
    return statuses, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--server", default="gunicorn", choices=["gunicorn", "tablebank"])
    parser.add_argument("--calls", type=int, default=1000, help="API calls (default 1000)")
    parser.add_argument("--forms", type=int, default=200, help="form posts (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.calls, args.forms = 60, 20
    os.environ["TABLEBANK_RATELIMIT_ENABLED"] = "false"
    with fresh_database(args.database) as url:
        port = free_port()
        with Server(server_command(args.server, port), url, port) as server:
            started = time.monotonic()
            api, api_failures = fuzz_api(server.url, args.calls, args.seed)
            forms, form_failures = fuzz_forms(server.url, args.forms, args.seed)
            took = time.monotonic() - started
            logged = server.log_counts()
    print(f"{args.database}, {args.server}: {took:.0f} s")
    print(f"API: {sum(api.values())} calls, by status {dict(sorted(api.items()))}")
    print(f"forms: {sum(forms.values())} requests, by status {dict(sorted(forms.items()))}")
    print(f"server log: {logged}")
    for failure in (api_failures + form_failures)[:20]:
        print("5xx:", failure)
    fives = sum(n for status, n in [*api.items(), *forms.items()] if status >= 500)
    print(json.dumps({
        "database": args.database, "server": args.server, "seconds": round(took),
        "api": sum(api.values()), "forms": sum(forms.values()), "5xx": fives, "log": logged,
    }))  # fmt: skip
    return 1 if api_failures or form_failures or logged["tracebacks"] else 0


if __name__ == "__main__":
    sys.exit(main())
