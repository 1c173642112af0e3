"""Fuzz a real server: API calls generated from its own OpenAPI document (schemathesis, valid
and invalid), a share of hand-made nasty bodies (5,000 digits, NaN, deep nesting, "²"), and
form posts with any fields to every form route (with a real session and CSRF token). Counts
the answers by status; any 5xx is printed and makes the script exit 1.

    .venv/bin/python bench/fuzz.py --database sqlite --calls 10000 --forms 1000
    .venv/bin/python bench/fuzz.py --database postgres --calls 10000 --forms 1000

Rate limits are switched off in the server it starts (TABLEBANK_RATELIMIT_ENABLED=false): the
fuzz measures input handling, not the limiter.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import re
import sys
import time
import warnings
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Server, free_port, fresh_database, server_command  # noqa: E402

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
FORM_FIELDS = [
    "player", "from", "to", "amount", "note", "deed", "space", "dice", "card", "group",
    "levels", "partner", "give", "take", "lift", "offer", "owed", "creditor", "hands",
    "payload", "key", "version", "back", "edition", "name0", "name1", "starting_cash", "mode",
]  # fmt: skip
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
    nasty = calls // 10
    per_op = max(1, (calls - nasty) // (2 * len(operations)))
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
    return statuses, failures


def fuzz_forms(base: str, posts: int, seed: int) -> tuple[collections.Counter, list[str]]:
    rng = random.Random(seed)
    banker = requests.Session()
    token = re.search(r'name="csrf_token" value="([^"]+)"', banker.get(f"{base}/new").text)[1]
    form = {"csrf_token": token, "edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    created = banker.post(f"{base}/new", data=form, allow_redirects=False)
    game_id = created.headers["Location"].split("/")[2]
    codes = banker.get(f"{base}/g/{game_id}/codes").text
    player = re.search(r"/p/([A-Za-z0-9_\-]+)", codes)[1]
    statuses: collections.Counter = collections.Counter()
    failures: list[str] = []
    for n in range(posts):
        fields = {
            rng.choice(FORM_FIELDS): rng.choice(FORM_VALUES) for _ in range(rng.randint(0, 6))
        }
        fields["kind"] = rng.choice(KINDS)
        if rng.random() < 0.95:
            fields["csrf_token"] = token
        url = rng.choice(
            [
                f"/g/{game_id}/do",
                f"/g/{game_id}/do",
                f"/p/{player}/do",
                "/new",
                f"/g/{game_id}/codes/{rng.randint(0, 9)}/new",
            ]
        )
        response = banker.post(base + url, data=fields, allow_redirects=False, timeout=30)
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"POST {url} #{n} {fields}: {response.text[:200]}")
        if response.status_code == 302 and n % 10 == 0:
            landed = banker.get(base + response.headers["Location"], timeout=30)
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
    args = parser.parse_args()
    os.environ["TABLEBANK_RATELIMIT_ENABLED"] = "false"
    with fresh_database(args.database) as url:
        port = free_port()
        with Server(server_command(args.server, port), url, port) as server:
            started = time.monotonic()
            api, api_failures = fuzz_api(server.url, args.calls, args.seed)
            forms, form_failures = fuzz_forms(server.url, args.forms, args.seed)
            took = time.monotonic() - started
    print(f"{args.database}, {args.server}: {took:.0f} s")
    print(f"API: {sum(api.values())} calls, by status {dict(sorted(api.items()))}")
    print(f"forms: {sum(forms.values())} requests, by status {dict(sorted(forms.items()))}")
    for failure in (api_failures + form_failures)[:20]:
        print("5xx:", failure)
    return 1 if api_failures or form_failures else 0


if __name__ == "__main__":
    sys.exit(main())
