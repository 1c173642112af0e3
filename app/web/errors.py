"""Error pages in the reader's language: what went wrong and what to do next, styled like
every other page and readable on a phone (the API answers in JSON instead: factory.py)."""

from __future__ import annotations

from flask import render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException


def advice(code: int, path: str) -> tuple[str, str]:
    """The page's title and what the reader can do about it."""
    if code == 404 and path.startswith("/p/"):
        return _("This player link no longer works"), _(
            "The banker made a new link for this player. Ask the banker for your new code "
            "and scan it."
        )
    if code == 404 and path.startswith("/t/"):
        return _("This table link no longer works"), _(
            "Ask the banker to show the table screen's code again."
        )
    if code == 404 and path.startswith("/g/"):
        return _("There is no such game here"), _(
            "Check the address, or open tablebank's home page to start a new game."
        )
    if code == 403 and path.startswith("/p/"):
        return _("A player's phone cannot do that"), _(
            "Ask the banker: only the banker's phone can do this."
        )
    if code == 403:
        return _("This page is the banker's"), _(
            "Open the banker link on this phone: scan the banker's code from the phone that "
            "started the game, or use the banker link kept at the start of the game."
        )
    known = {
        400: (
            _("The page sent something the bank cannot read"),
            _("Go back, reload the page and try again."),
        ),
        404: (_("There is no such page"), _("Check the address, or go back to the game.")),
        405: (_("That cannot be done from here"), _("Go back and use the page's buttons.")),
        409: (
            _("Another device acted first"),
            _("Reload the page to see the game as it is now, then try again."),
        ),
        413: (_("That was too much to send at once"), _("Go back and send less.")),
        422: (_("The bank said no"), _("Go back, check the figures and try again.")),
    }
    return known.get(
        code,
        (
            _("Something went wrong at the bank"),
            _("Nothing was half done. Reload the page; if it happens again, restart tablebank."),
        ),
    )


def error_page(error: HTTPException):
    code = error.code or 500
    title, todo = advice(code, request.path)
    home = not request.path.startswith(("/p/", "/t/"))  # a player's phone has no home here
    return render_template("error.html", code=code, title=title, todo=todo, home=home), code
