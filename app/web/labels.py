"""A square's name as the table screen prints it on the board: its long words carry soft
hyphens, so that a tablet's narrow squares break "Medi-ter-ranean" where a dictionary allows,
as a printed board does, instead of cutting the word at the square's edge."""

from __future__ import annotations

from functools import lru_cache

SOFT_HYPHEN = "\u00ad"  # drawn only where the line breaks there; not said by a screen reader
LONG_WORD = 11  # letters: a shorter word fits a square whole, 14 px on a screen 1024 px wide


@lru_cache(maxsize=8)
def dictionary(language: str):
    """The language's hyphenation dictionary, or None; imported by the first board drawn,
    not by the start (docs/ARCHITECTURE.md, the start)."""
    import pyphen

    found = pyphen.language_fallback(language)
    return pyphen.Pyphen(lang=found, left=3, right=3) if found else None


@lru_cache(maxsize=512)
def board_label(name: str, language: str) -> str:
    """`name` with a soft hyphen at each place its long words may break."""
    found = dictionary(language)
    if found is None:
        return name
    return " ".join(
        found.inserted(word, hyphen=SOFT_HYPHEN) if len(word) >= LONG_WORD else word
        for word in name.split(" ")
    )
