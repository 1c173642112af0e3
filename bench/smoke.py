"""Every benchmark's `--smoke` mode, one after the other: does each still run at all? For CI:
`python -m bench.smoke` exits 1 if any failed (its output is printed), 0 otherwise. A smoke
run's figures mean nothing; the full runs are in docs/PERFORMANCE.md.

    python -m bench.smoke                 # all of them (a few minutes: each starts servers)
    python -m bench.smoke tap fanout      # some of them
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> the command line after `python -m bench.<name>`
SMOKES = {
    "tap": ["--smoke"],
    "tap_server": ["--smoke"],
    "pause": ["--smoke"],
    "fanout": ["--smoke"],
    "fanout_split": ["--smoke"],
    "load": ["--smoke"],
    "codes": ["--smoke"],
    "cold_start": ["--smoke"],
    "memory": ["--smoke"],
    "propagation": ["--smoke"],
    "propagation_ab": ["--smoke"],
    "page_time": ["--smoke"],
    "action_time": ["--smoke"],
    "streams": ["--smoke"],
    "reconnect": ["--smoke", "--server", "tablebank", "--database", "sqlite"],
    "slow_clients": ["--smoke"],
    "busy_game": ["--smoke", "--server", "tablebank", "--database", "sqlite"],
    "abuse": ["--smoke", "--server", "tablebank"],
    "fuzz": ["--smoke", "--server", "tablebank"],
    "import_time": ["--smoke"],
    "taps": ["--smoke"],
    "a11y": ["--smoke"],
    "lighthouse": ["--smoke"],
    "random_play": ["--smoke"],
    "soak": ["--smoke", "--api", "sqlite", "--steps", "300"],  # random play through the API
}
NEEDS = {"lighthouse": "lighthouse"}  # a command that must be on PATH, else skipped
TIMEOUT = 600


def run(name: str, args: list[str]) -> tuple[str, float, str]:
    needed = NEEDS.get(name)
    if needed and shutil.which(needed) is None:
        return "skipped", 0.0, f"needs `{needed}` on PATH (npm install lighthouse)"
    command = [sys.executable, "-m", f"bench.{name}", *args]
    began = time.monotonic()
    try:
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"").decode() if isinstance(expired.stdout, bytes) else ""
        return "failed", time.monotonic() - began, f"no end in {TIMEOUT} s\n{output[-3000:]}"
    took = time.monotonic() - began
    output = done.stdout + done.stderr
    return ("ok" if done.returncode == 0 else "failed"), took, output[-4000:]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", help=f"some of: {', '.join(SMOKES)}")
    args = parser.parse_args()
    names = args.names or list(SMOKES)
    unknown = [name for name in names if name not in SMOKES]
    if unknown:
        parser.error(f"no such benchmark: {', '.join(unknown)}")
    began, failed = time.monotonic(), []
    for name in names:
        status, took, output = run(name, SMOKES[name])
        print(f"{status:8} {took:6.1f} s  bench.{name} {' '.join(SMOKES[name])}", flush=True)
        if status == "failed":
            failed.append(name)
            print("    " + output.replace("\n", "\n    "), flush=True)
        elif status == "skipped":
            print(f"    {output}", flush=True)
    took = time.monotonic() - began
    print(f"smoke: {len(names) - len(failed)} of {len(names)} ran in {took:.0f} s", end="")
    print(f"; failed: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
