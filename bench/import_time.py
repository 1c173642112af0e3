"""Import a big archive into a real server and time what another game's banker feels:

1. an archive of --actions actions (default 20,000: a 4-player game played as the game asks,
   rolls, landings, cards, purchases, rents, with payments and undos among them, each checked
   by the rules core as it is made, with its times, final state and checksum, as an export of
   such a game would be);
2. the other game's banker (an action, then the game read, again and again on fresh
   connections) with nothing else going on: the floor; then the same while the archive is
   imported: the import's time and answer, the banker's p50/p95/max; then the floor again;
3. while that import runs, a second import of it: how long until it is refused (429);
4. an archive one action over the limit: how long until it is refused (400);
5. the imported game exported again (streamed): its time, its size, and whether it equals
   the archive that was sent.

    .venv/bin/python -m bench.import_time --server tablebank --database sqlite
    .venv/bin/python -m bench.import_time --server gunicorn --database postgres --workers 4

Rate limits are off in the server it starts (the import is what is measured).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

from tablebank import archive
from tablebank.edition_files import load_editions
from tablebank.rules import UNDO, RuleError, apply, new_game
from tablebank.rules.moves import waits
from tablebank.rules.setup import RULES

from .common import (
    BenchError,
    Server,
    free_port,
    fresh_database,
    server_command,
    summary,
    table,
)

NAMES = ("Ana", "Bea", "Cal", "Dan")


def played_move(rng: random.Random, state, edition) -> tuple[str, dict]:
    """What the table does next: mostly what the game waits for (a roll, a landing's choice,
    a card, a debt, a bid), with the table's own figures; now and then a payment, an undo."""
    roll = rng.random()
    if roll < 0.04:
        return UNDO, {}
    if roll < 0.2:
        p = rng.randrange(len(NAMES))
        kind = rng.choice(["bank_pay", "bank_collect", "transfer"])
        if kind == "transfer":
            return kind, {"from": p, "to": (p + 1) % len(NAMES), "amount": rng.randint(1, 100)}
        return kind, {"player": p, "amount": rng.randint(1, 300), "note": "café"}
    move = rng.choice(waits(state, edition)[0].moves)
    fields = dict(move.fields)
    if "dice" in move.asks:
        fields["dice"] = rng.randint(2, 12)
    if "doubles" in move.asks:
        fields["doubles"] = fields["dice"] % 2 == 0 and rng.random() < 0.15
    if "amount" in move.asks:
        fields["amount"] = (state.auction.bid if state.auction else 0) + rng.randint(1, 20)
    return move.kind, fields


def archive_of(actions: int, seed: int = 1) -> dict:
    """A format-2 archive of a game of `actions` actions, each one the rules core accepted:
    turns played as the game asks for them (rules.moves), payments and undos among them."""
    edition = load_editions()["us-classic"]
    setup = {
        "edition": edition.id,
        "players": [{"name": n, "colour": "#e03131"} for n in NAMES],
        "starting_cash": 1_000_000,  # a game that lasts: nobody goes bankrupt
        "rules": RULES,
    }
    rng = random.Random(seed)
    states, log = [new_game(edition, setup)], []
    start = datetime.now(UTC) - timedelta(days=1)
    while len(log) < actions:
        kind, payload = played_move(rng, states[-1], edition)
        if kind == UNDO:
            if len(states) < 2:
                continue
            states.pop()
        else:
            try:
                states.append(apply(states[-1], edition, kind, payload).state)
            except RuleError:
                continue
        at = (start + timedelta(seconds=3 * len(log))).isoformat()
        entry = {"seq": len(log) + 1, "kind": kind, "payload": payload, "actor": "api", "at": at}
        log.append(entry)
        if len(states) > 64:  # 32 undos in a row, at 1 in 25 each, never come
            del states[1:-32]
    return {"edition": edition.id, "created_at": start.isoformat(), "setup": setup, "log": log}


def finished(data: dict, final_state: dict) -> dict:
    """The archive with its final state and checksum (what an export would carry)."""
    data = {"format": archive.FORMAT, "version": archive.VERSION, **data}
    data["final"] = {"version": len(data["log"]), "state": final_state}
    checksum = archive.Checksum()
    header = archive._header(data["edition"], data["created_at"], data["setup"])
    for part in (header, *data["log"], data["final"]):
        checksum.add(archive.canonical(part))
    data["checksum"] = checksum.text()
    return data


def final_state_of(data: dict) -> dict:
    """The state the archive's log gives, undo as the log's stack (what the import checks)."""
    from tablebank.rules import replay

    edition = load_editions()[data["setup"]["edition"]]
    log = [(e["kind"], e["payload"]) for e in data["log"]]
    return json.loads(json.dumps(replay(edition, data["setup"], log).to_dict()))


class Dialect:
    name = "postgresql"  # rows left as dicts: the floor is the checks and the replay


def call(base: str, method: str, path: str, body: bytes | None = None, key: str = ""):
    """One request on a fresh connection (so gunicorn's workers share them): status, body."""
    host, port = base.split("//")[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=300)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Banker-Key"] = key
    try:
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def banker(base: str, game: tuple[str, str], stop: threading.Event, times: list, errors: list):
    game_id, key = game
    n = 0
    while not stop.is_set():
        action = json.dumps({"kind": "bank_pay", "player": n % 4, "amount": 1}).encode()
        for method, path, body in (
            ("POST", f"/api/games/{game_id}/actions", action),
            ("GET", f"/api/games/{game_id}", None),
        ):
            started = time.perf_counter()
            status, text = call(base, method, path, body, key)
            times.append((time.perf_counter() - started) * 1000)
            if status >= 400:
                errors.append(f"{method} {path}: {status} {text[:120]!r}")
        n += 1
        time.sleep(0.02)


def floor(base: str, game, seconds: float) -> dict:
    stop, times, errors = threading.Event(), [], []
    threading.Timer(seconds, stop.set).start()
    banker(base, game, stop, times, errors)
    return {**summary(times), "errors": len(errors)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--server", default="tablebank", choices=["gunicorn", "tablebank"])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--floor-seconds", type=float, default=10)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.actions, args.floor_seconds, args.workers = 200, 1, 2

    made = time.perf_counter()
    data = archive_of(args.actions)
    body = json.dumps(finished(data, final_state_of(data))).encode()
    whole = json.loads(body)
    whole["log"] += whole["log"][: archive.MAX_LOG + 1 - len(whole["log"])]
    over = json.dumps(whole).encode()  # one action over the limit: refused before anything
    print(f"archive: {args.actions:,} actions, {len(body) / 1e6:.2f} MB, made in "
          f"{time.perf_counter() - made:.0f} s")  # fmt: skip
    started = time.perf_counter()
    archive._prepared(body, load_editions(), 3600, Dialect())
    alone = time.perf_counter() - started
    print(f"floor: the same checks and replay in this process, alone: {alone:.1f} s")

    with fresh_database(args.database) as url:
        port = free_port()
        command = server_command(args.server, port, workers=args.workers)
        with Server(command, url, port) as server:
            base = server.url
            setup = {"edition": "us-classic", "players": [
                {"name": n, "colour": "#e03131"} for n in NAMES]}  # fmt: skip
            status, answer = call(base, "POST", "/api/games", json.dumps(setup).encode())
            other = json.loads(answer)
            game = (other["id"], other["banker_key"])
            before = floor(base, game, args.floor_seconds)

            stop, times, errors, result = threading.Event(), [], [], {}

            def run_import():
                started = time.perf_counter()
                result["status"], text = call(base, "POST", "/api/games/import", body)
                result["seconds"] = time.perf_counter() - started
                result["answer"] = json.loads(text)
                stop.set()

            importer = threading.Thread(target=run_import)
            importer.start()
            watcher = threading.Thread(target=banker, args=(base, game, stop, times, errors))
            watcher.start()
            time.sleep(1)
            started = time.perf_counter()
            second, _ = call(base, "POST", "/api/games/import", body)
            second_ms = (time.perf_counter() - started) * 1000
            importer.join()
            watcher.join()
            during = {**summary(times), "errors": len(errors)}
            after = floor(base, game, args.floor_seconds)

            started = time.perf_counter()
            refused, _ = call(base, "POST", "/api/games/import", over)
            over_ms = (time.perf_counter() - started) * 1000

            copy = result["answer"]
            if result["status"] != 201:
                took = f"{result['seconds']:.0f} s, floor {alone:.0f} s"
                raise BenchError(f"the import was answered {result['status']} ({took}): {copy}")
            started = time.perf_counter()
            status, exported = call(
                base, "GET", f"/api/games/{copy['id']}/export", key=copy["banker_key"]
            )
            export_s = time.perf_counter() - started
            equal = json.loads(exported) == json.loads(body)
            counts = server.log_counts()

    print(f"{args.server} on {args.database}: import {result['status']} in "
          f"{result['seconds']:.1f} s ({result['seconds'] / alone:.2f} x the floor); "
          f"version {copy['version']:,}")  # fmt: skip
    print(table(
        ["other game's banker", "n", "p50", "p95", "max", "errors"],
        [[name, s["n"], s["p50"], s["p95"], s["max"], s["errors"]]
         for name, s in (("floor before", before), ("during the import", during),
                         ("floor after", after))],
    ))  # fmt: skip
    print(f"a second import meanwhile: {second} in {second_ms:.0f} ms")
    print(f"an archive of {archive.MAX_LOG + 1:,} actions: {refused} in {over_ms:.0f} ms")
    print(f"export of the imported game: {status}, {len(exported) / 1e6:.2f} MB in "
          f"{export_s:.2f} s, equal to the archive sent: {equal}")  # fmt: skip
    for error in errors[:5]:
        print("banker error:", error)
    print(json.dumps({
        "server": args.server, "database": args.database, "actions": args.actions,
        "import_status": result["status"], "import_s": round(result["seconds"], 1),
        "replay_alone_s": round(alone, 1),
        "floor_before": before, "during": during, "floor_after": after,
        "second_import": [second, round(second_ms)], "over_limit": [refused, round(over_ms)],
        "export_s": round(export_s, 2), "round_trip_equal": equal, "server_log": counts,
    }))  # fmt: skip
    # a smoke's archive is imported before the second one comes: that one may be done too
    refused_second = second == 429 or (args.smoke and second == 201)
    bad = errors or not refused_second or refused != 400 or not equal or any(counts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
