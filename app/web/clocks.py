"""TL1 without JavaScript: the banker's time zone, told by the time their clock shows now.

app.js sends the browser's time zone with a new game. Without JavaScript the new-game page
lists the time now at each UTC offset in use, and the banker picks the one their clock shows.
The end time they typed then carries that offset (rules/setup.py: a time with an offset means
what it says), and their browser is told the offset as app.js would tell it (the `tzo`
cookie, minutes west of UTC), so that their pages show their own times."""

from __future__ import annotations

from datetime import datetime, timedelta

# The UTC offsets in use, in minutes east of UTC: from UTC-12:00 to UTC+14:00.
OFFSETS = (
    *(-720, -660, -600, -570, -540, -480, -420, -360, -300, -240, -210, -180, -120, -60),
    *(0, 60, 120, 180, 210, 240, 270, 300, 330, 345, 360, 390, 420, 480, 525, 540, 570),
    *(600, 630, 660, 720, 765, 780, 840),
)


def offset_text(minutes: int) -> str:
    """An offset as an ISO time ends with it, e.g. -05:00, +05:30."""
    hours, rest = divmod(abs(minutes), 60)
    return f"{'-' if minutes < 0 else '+'}{hours:02}:{rest:02}"


KNOWN = {offset_text(minutes): minutes for minutes in OFFSETS}


def choices(now: datetime) -> list[tuple[str, str]]:
    """Each offset, as the form sends it, with what a clock there shows at `now` (UTC): the
    time first, which is what the banker looks for (a phone's narrow list cuts the end)."""
    shown = ((offset, now + timedelta(minutes=minutes)) for offset, minutes in KNOWN.items())
    return [(offset, f"{at:%H:%M} ({at:%Y-%m-%d}, UTC{offset})") for offset, at in shown]


def from_cookie(tzo: str | None) -> str | None:
    """The offset the browser's JavaScript last gave (`tzo`), if it is one in use."""
    try:
        offset = offset_text(-int(tzo or ""))
    except ValueError:
        return None
    return offset if offset in KNOWN else None


def cookie_of(offset: str) -> str:
    """The `tzo` cookie's value for an offset, as app.js writes it (minutes west of UTC)."""
    return str(-KNOWN[offset])


def chosen(value: str | None) -> str | None:
    """The offset the banker chose, or None (none chosen, or not one in use)."""
    return value if value in KNOWN else None


def on_clock(ends_at: str | None, offset: str | None) -> str | None:
    """TL1: the end time as typed, with the offset of the banker's clock when it has none."""
    if not ends_at or not offset:
        return ends_at
    try:
        typed = datetime.fromisoformat(ends_at)
    except ValueError:
        return ends_at  # the rules core says what is wrong with it
    return ends_at if typed.tzinfo is not None else typed.isoformat() + offset


def zone_unknown(setup: dict) -> bool:
    """A time-limited game whose end time names no zone, from a page that sent none: read as
    UTC, the banker's typed time would be hours off wherever UTC is not the local time."""
    if setup.get("mode") != "timed" or setup.get("time_zone"):
        return False
    try:
        return datetime.fromisoformat(setup.get("ends_at") or "").tzinfo is None
    except ValueError:
        return False
