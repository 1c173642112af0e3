"""Players told apart without colour alone: a colour that reads on every surface a page draws
it on, and a token letter for each player, shown wherever their colour is.

Why here and not in the rules core's setup: the setup checks that a colour is a colour
(#rrggbb); whether it can be seen depends on the pages' own backgrounds (static/app.css,
static/table.css, light and dark), which the rules core knows nothing of. So the new-game
form adjusts a colour below 3:1 and says so, and the pages draw every stored colour through
`legible` (a game made through the API keeps the colour it sent, drawn readable).
"""

from __future__ import annotations

import re
from functools import lru_cache

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
LEAST = 3.0  # WCAG 1.4.11: a chip, a token or a border against what is next to it
LIGHT = ("#ffffff", "#f6f7f9")  # cards and board squares; the page's background
DARK = ("#1d1f24", "#121316")  # the same in dark mode
SURFACES = LIGHT + DARK


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    digits = colour.lstrip("#")
    if len(digits) != 6:
        return 1.0
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    low, high = sorted((luminance(one), luminance(other)))
    return (high + 0.05) / (low + 0.05)


def least_contrast(colour: str, surfaces: tuple[str, ...] = SURFACES) -> float:
    """The contrast of `colour` against the surface it reads worst on."""
    return min(contrast(colour, surface) for surface in surfaces)


@lru_cache(maxsize=1024)
def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on this colour (a token's letter)."""
    light = luminance(colour)
    return "#000" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "#fff"


def mix(colour: str, towards: str, share: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


@lru_cache(maxsize=1024)  # every chip and token of every page asks, for a few colours
def legible(colour: str) -> str:
    """`colour` if it keeps 3:1 on every surface, else the nearest of its hue that does:
    darkened when too light for the light pages, lightened when too dark for dark mode."""
    if not isinstance(colour, str) or not HEX.match(colour):
        return "#868e96"
    colour = colour.lower()
    if least_contrast(colour) >= LEAST:
        return colour
    too_light = least_contrast(colour, LIGHT) < LEAST
    towards, against = ("#000000", LIGHT) if too_light else ("#ffffff", DARK)
    low, high = 0.0, 1.0
    for _ in range(20):  # the least mix that reads: the hue kept as far as it can be
        middle = (low + high) / 2
        if least_contrast(mix(colour, towards, middle), against) >= LEAST:
            high = middle
        else:
            low = middle
    return mix(colour, towards, high)


def marks(names: list[str]) -> list[str]:
    """A token letter for each player, unique in the game: the name's first letter, else the
    next letter of the name not taken yet, else the seat's number."""
    taken: list[str] = []
    for seat, name in enumerate(names):
        letters = [c.upper() for c in name if c.isalnum()]
        mark = next((c for c in letters if c not in taken), str(seat + 1))
        taken.append(mark)
    return taken


def make_legible(players: list[dict]) -> list[tuple[str, str, str, float]]:
    """A new game's players with each colour that reads below 3:1 replaced by `legible`'s:
    (name, colour picked, colour given, its contrast) for each one changed, to be said."""
    changed = []
    for player in players:
        picked = player.get("colour")
        if isinstance(picked, str) and HEX.match(picked) and least_contrast(picked) < LEAST:
            player["colour"] = legible(picked)
            changed.append((player["name"], picked, player["colour"], least_contrast(picked)))
    return changed
