"""The lines a live part puts in at each version (shared.fill) instead of being drawn again:
what a payment changes where nothing else the part shows does (a figure, the news, the
newest lines of a history). Each is HTML, worked out at every version for every open page
that shows it: plain Python, a tenth of a template's cost, needing no request (a live
stream's wake has none: the reader's zone comes from shared.reader)."""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from ..i18n import locale_name, translations
from ..rules.words import N_
from .colours import legible
from .filters import chip, request_zone, time_shown

# A player's figures of money: put in at each version, never part of a part's signature.
MONEY = ("cash", "total_worth", "raisable", "score")
LINES_KEPT = 1024  # histories' lines kept per process, a few kB each, least recent out


def money(edition, amount: int) -> Markup:
    """An amount in the edition's currency, as a page shows it."""
    return escape(edition.money(amount))


def balance_line(player: dict, worth: int, edition) -> str:
    """A player's line among the table screen's balances: their colour and name, whether in
    jail, their cash (where the cash the news carries goes: data-cash) and net worth."""
    name = escape(player["name"])
    if player["in_jail"]:
        name += Markup(f' <span class="badge">{escape(said(N_("in jail")))}</span>')
    worth_said = escape(said(N_("Net worth %(amount)s")) % {"amount": edition.money(worth)})
    cash = money(edition, player["cash"])
    return (
        f'<li style="border-color: {escape(legible(player["colour"]))}">'
        f'<span class="name">{chip(player)} {name}</span> '
        f'<span class="cash" data-cash="{player["seat"]}">{cash}</span> '
        f'<span class="worth">{worth_said}</span></li>'
    )


def history_lines(entries: list[dict], zone: str | None, own: bool) -> Markup:
    """A history's lines, newest first: a phone's own (each action's words, then its time)
    or the table screen's last actions (the time first). The same lines at most versions
    (another player's action leaves a phone's as they were): kept."""
    shown = tuple((e["text"], e["at"], e["undone"]) for e in entries)
    return lines_of(shown, zone, request_zone(), locale_name(), own)


@lru_cache(maxsize=LINES_KEPT)
def lines_of(shown: tuple, zone: str | None, reader, _language: str, own: bool) -> Markup:
    """A history's lines: (words, time, taken back) each, in the reader's zone and language
    (which `_language` names for the cache)."""
    if not shown and own:
        return Markup(f'<li class="hint">{escape(said(N_("Nothing yet.")))}</li>')
    if not shown:
        return Markup(f"<li>{escape(said(N_('Nothing has happened yet.')))}</li>")
    found = []
    for text, at, undone in shown:
        time = time_shown(at, zone, "time", reader)
        state = "undone" if undone else ""
        if own:
            found.append(f'<li class="{state}">{escape(text)} <span class="at">{time}</span></li>')
        else:
            found.append(f'<li class="{state}"><span class="at">{time}</span> {escape(text)}</li>')
    return Markup("".join(found))


def said(words: str) -> str:
    return translations().ugettext(words)
