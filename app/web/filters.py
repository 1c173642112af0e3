"""Template helpers: amounts in the edition's currency, a fresh idempotency key and the CSRF
token in each form (marks in a shared live part: shared.py), times in UTC for the browser to
show in its reader's zone."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, g, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from ..i18n import translations
from ..rules.words import N_
from . import shared
from .colours import ink_on, legible
from .labels import board_label
from .words import edition_name


def register(app: Flask) -> None:
    @app.template_global()
    def new_key() -> str:
        return shared.KEY if shared.drawing_shared() else uuid.uuid4().hex

    @app.template_global("csrf_token")
    def csrf_token() -> str:
        """The page's CSRF token (Flask-WTF's), or its mark in a shared live part."""
        return shared.CSRF if shared.drawing_shared() else generate_csrf()

    app.add_template_global(shared.version_drawn, "form_version")
    app.add_template_global(shared.fill, "fill")

    @app.template_global()
    def page_path() -> str:
        """The page a form is on, where a refusal takes the banker back: a live stream draws
        its page's live part, so it names that page (streams.py), not itself."""
        return g.get("page_path") or request.full_path.rstrip("?")

    @app.template_filter("utc_iso")
    def utc_iso(value: datetime | str) -> str:
        return as_utc(value).isoformat(timespec="seconds")

    @app.template_filter("clock")
    def clock(value: datetime | str, zone: str | None = None, with_date: bool = False) -> str:
        """The time as the page says it, in the reader's zone when their browser told us
        (app.js keeps its offset in a cookie), else the banker's, else UTC, said so; app.js
        puts it in the reader's own zone where it differs."""
        return clock_in(value, zone, with_date, request_zone())

    @app.template_global()
    def when(value: datetime | str, zone: str | None = None, style: str = "time") -> Markup:
        """A time the page shows, which app.js puts in the reader's zone (a history shows
        dozens: a Python global, not a template macro, costs a tenth)."""
        return time_shown(value, zone, style, request_zone())

    app.add_template_global(news)

    @app.template_global()
    def latest_entry(game) -> dict | None:
        """The game's latest action in words (one row read), for a live page to say."""
        from .present import history

        found = history(game, limit=1)
        return found[0] if found else None

    @app.template_filter("ink")
    def ink(colour: str) -> str:
        """Black or white, whichever reads better on this colour (WCAG contrast)."""
        return ink_on(legible(colour))

    app.add_template_filter(legible)
    app.add_template_filter(board_label)
    app.add_template_global(mark)
    app.add_template_global(chip)
    app.add_template_global(edition_name)


def field_of(player, name: str):
    return player.get(name) if isinstance(player, dict) else getattr(player, name)


def mark(player) -> str:
    """The player's token letter (colours.marks, worked out for the page's game by
    pages.page), shown wherever their colour is."""
    seat, found = field_of(player, "seat"), g.get("marks") or []
    return found[seat] if seat < len(found) else field_of(player, "name")[:1].upper()


def chip(player) -> Markup:
    """A player's colour as a round chip with their token letter (hidden from screen
    readers: the name is always written beside it)."""
    colour = legible(field_of(player, "colour"))
    background, ink, letter = escape(colour), escape(ink_on(colour)), escape(mark(player))
    return Markup(  # an f-string: Markup.format goes through string.Formatter, 10x slower
        f'<span class="chip" style="background: {background}; color: {ink}" aria-hidden="true">'
        f"{letter}</span>"
    )


def request_zone() -> timezone | None:
    """reader_zone, read once per request, or per wake of a live stream (which knows its
    reader without a request: shared.reader)."""
    found = g.get("reader_zone", False)
    if found is False:
        found = g.reader_zone = reader_zone() if request or "reader" in g else None
    return found


def reader_zone() -> timezone | None:
    """The reader's UTC offset as their browser last gave it (minutes west of UTC, as
    JavaScript's getTimezoneOffset says), None when unknown or unreadable."""
    raw = shared.reader()[2]
    try:
        minutes = int(raw)
    except ValueError:
        return None
    return timezone(-timedelta(minutes=minutes)) if -900 <= minutes <= 900 else None


def as_utc(value: datetime | str) -> datetime:
    """A stored time as UTC: a time without an offset (SQLite keeps none) is UTC already."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@lru_cache(maxsize=4096)
def time_shown(value: datetime | str, zone: str | None, style: str, reader) -> Markup:
    """`when`'s markup, worked out once per process for a time, zone and reader's zone: a
    log row's time never changes, and live pages show the same rows again at every action."""
    at = escape(as_utc(value).isoformat(timespec="seconds"))
    shown = escape(clock_in(value, zone, style == "date", reader))
    return Markup(f'<time datetime="{at}" data-local="{escape(style)}">{shown}</time>')


def clock_in(value: datetime | str, zone: str | None, with_date: bool, reader) -> str:
    """`clock` for a reader's zone (None: not known)."""
    when = as_utc(value)
    shown_in = reader
    try:
        shown_in = shown_in or (ZoneInfo(zone) if zone else None)
    except (ZoneInfoNotFoundError, ValueError):
        shown_in = None
    when = when.astimezone(shown_in) if shown_in else when
    shown = when.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")
    return shown if shown_in else f"{shown} UTC"


def news(entry=None, auction=None, edition=None, yours: bool = False) -> Markup:
    """What a live update says out loud (static/app.js reads it: each item whose key is new
    is said once, in the page's polite live region): the latest action, "Your turn", an
    auction. Every live part has it, drawn at every action: a Python global, not a macro.
    Its words are marked with N_ for the catalogues, and said in the reader's language."""
    said = translations()
    items = []
    if entry:
        seq, text = escape(field_of(entry, "seq")), escape(field_of(entry, "text"))
        items.append(f'<li data-key="a{seq}">{text}</li>')
    if yours:
        turn = said.ugettext(N_("Your turn"))  # outside the f-string: extraction sees it
        items.append(f'<li data-key="yours">{turn}</li>')
    if auction:
        deed, building = field_of(auction, "deed"), field_of(auction, "building")
        if deed is not None:
            lot = escape(edition.spaces[deed].name)
        else:
            lot = said.ugettext(N_("a hotel") if building == "hotel" else N_("a house"))
        key = f"auction-{escape(deed)}-{escape(building)}"
        on_sale = said.ugettext(N_("Auction:"))
        items.append(f'<li data-key="{key}">{on_sale} {lot}</li>')
    return Markup(f"<ul data-news hidden>{''.join(items)}</ul>")
