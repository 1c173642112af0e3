"""Template helpers: amounts in the edition's currency, a fresh idempotency key per form,
times in UTC for the browser to show in its reader's zone."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, request


def register(app: Flask) -> None:
    @app.template_global()
    def new_key() -> str:
        return uuid.uuid4().hex

    @app.template_filter("utc_iso")
    def utc_iso(value: datetime | str) -> str:
        return as_utc(value).isoformat(timespec="seconds")

    @app.template_filter("clock")
    def clock(value: datetime | str, zone: str | None = None, with_date: bool = False) -> str:
        """The time as the page says it, in the reader's zone when their browser told us
        (app.js keeps its offset in a cookie), else the banker's, else UTC, said so; app.js
        puts it in the reader's own zone where it differs."""
        when = as_utc(value)
        shown_in = reader_zone()
        try:
            shown_in = shown_in or (ZoneInfo(zone) if zone else None)
        except (ZoneInfoNotFoundError, ValueError):
            shown_in = None
        when = when.astimezone(shown_in) if shown_in else when
        shown = when.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")
        return shown if shown_in else f"{shown} UTC"

    @app.template_global()
    def latest_entry(game) -> dict | None:
        """The game's latest action in words (one row read), for a live page to say."""
        from .present import history

        found = history(game, limit=1)
        return found[0] if found else None

    @app.template_filter("ink")
    def ink(colour: str) -> str:
        """Black or white, whichever reads better on this colour (WCAG contrast)."""
        return ink_on(colour)


def reader_zone() -> timezone | None:
    """The reader's UTC offset as their browser last gave it (minutes west of UTC, as
    JavaScript's getTimezoneOffset says), None when unknown or unreadable."""
    raw = request.cookies.get("tzo", "") if request else ""
    try:
        minutes = int(raw)
    except ValueError:
        return None
    return timezone(-timedelta(minutes=minutes)) if -900 <= minutes <= 900 else None


def as_utc(value: datetime | str) -> datetime:
    """A stored time as UTC: a time without an offset (SQLite keeps none) is UTC already."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    digits = colour.lstrip("#")
    if len(digits) != 6:
        return 1.0
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_on(colour: str) -> str:
    light = luminance(colour)
    on_black = (light + 0.05) / 0.05
    on_white = 1.05 / (light + 0.05)
    return "#000" if on_black >= on_white else "#fff"
