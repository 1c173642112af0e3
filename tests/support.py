"""What tests share that needs neither Flask nor a database: the product's editions and a
game's setup. (The rules tests run with only pytest and hypothesis installed: see .ci/run.)"""

from __future__ import annotations

from tablebank.edition_files import load_editions

ALL_EDITIONS = load_editions()
PALETTE = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c"]


def setup_of(names=("Ana", "Bea", "Cal"), **settings) -> dict:
    players = [{"name": n, "colour": c} for n, c in zip(names, PALETTE, strict=False)]
    return {"edition": "us-classic", "players": players, **settings}
