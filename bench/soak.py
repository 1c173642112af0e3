"""Random play over the whole game for N steps: the same script as bench/random_play.py (the
suite's random-play machine, run by pytest with the thorough profile), kept under its old name.

    .venv/bin/python bench/soak.py --steps 100000
    .venv/bin/python bench/soak.py --api postgres --steps 2000
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    os.chdir(root)
    command = [sys.executable, "-m", "bench.random_play", *sys.argv[1:]]
    os.execv(sys.executable, command)
