"""Server time of one banker action, in a game with a short and with a long log.

Drives the JSON API in-process (routing, validation, the lock, the rules core, the log row,
the snapshot and the commit: everything but the network) and prints p50/p99 per log length.

    python bench/action_time.py [--database-url URL] [--samples 300]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402

PLAYERS = [{"name": n, "colour": "#336699"} for n in ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay")]


def game_with_log(client, length: int) -> tuple[str, dict]:
    created = client.post(
        "/api/games", json={"edition": "us-classic", "players": PLAYERS, "starting_cash": 10**6}
    ).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}/actions"
    for n in range(length):
        client.post(
            url,
            json={"kind": "transfer", "from": n % 6, "to": (n + 1) % 6, "amount": 1 + n % 50},
            headers=headers,
        )
    return url, headers


def measure(client, url: str, headers: dict, samples: int) -> list[float]:
    times = []
    for n in range(samples):
        body = {
            "kind": "transfer",
            "from": n % 6,
            "to": (n + 3) % 6,
            "amount": 7,
            "idempotency_key": f"bench-{n}",
        }
        start = time.perf_counter()
        response = client.post(url, json=body, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 201, response.get_json()
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default="")
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.sqlite'}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    results = {}
    for length in (50, 5000):
        game_url, headers = game_with_log(client, length)
        times = measure(client, game_url, headers, args.samples)
        results[length] = {
            "p50_ms": round(statistics.median(times), 2),
            "p99_ms": round(times[int(len(times) * 0.99) - 1], 2),
        }
    ratio = results[5000]["p50_ms"] / results[50]["p50_ms"]
    print(
        json.dumps(
            {
                "database": url.split(":")[0],
                "log_50": results[50],
                "log_5000": results[5000],
                "long_over_short_p50": round(ratio, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
