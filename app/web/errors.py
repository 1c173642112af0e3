"""Error pages in the reader's language: what went wrong and what to do next, styled like
every other page and readable on a phone (the API answers in JSON instead: factory.py)."""

from __future__ import annotations

from flask import render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from .words import N_

# (status, path prefix): the page's title and what the reader can do about it; the first
# that fits is shown, so a path's own words come before the status's general ones.
ADVICE = {
    (404, "/p/"): (
        N_("This player link no longer works"),
        N_(
            "The banker made a new link for this player. Ask the banker for your new code "
            "and scan it."
        ),
    ),
    (404, "/t/"): (
        N_("This table link no longer works"),
        N_("Ask the banker to show the table screen's code again."),
    ),
    (404, "/g/"): (
        N_("There is no such game here"),
        N_("Check the address, or open tablebank's home page to start a new game."),
    ),
    (403, "/p/"): (
        N_("A player's phone cannot do that"),
        N_("Ask the banker: only the banker's phone can do this."),
    ),
    (403, ""): (
        N_("This page is the banker's"),
        N_(
            "Open the banker link on this phone: scan the banker's code from the phone that "
            "started the game, or use the banker link kept at the start of the game."
        ),
    ),
    (400, ""): (
        N_("The page sent something the bank cannot read"),
        N_("Go back, reload the page and try again."),
    ),
    (404, ""): (N_("There is no such page"), N_("Check the address, or go back to the game.")),
    (405, ""): (N_("That cannot be done from here"), N_("Go back and use the page's buttons.")),
    (409, ""): (
        N_("Another device acted first"),
        N_("Reload the page to see the game as it is now, then try again."),
    ),
    (413, ""): (N_("That was too much to send at once"), N_("Go back and send less.")),
    (422, ""): (N_("The bank said no"), N_("Go back, check the figures and try again.")),
}
OTHERWISE = (
    N_("Something went wrong at the bank"),
    N_("Nothing was half done. Reload the page; if it happens again, restart tablebank."),
)


def advice(code: int, path: str) -> tuple[str, str]:
    """The page's title and what the reader can do about it, in the reader's language."""
    fitting = (
        words
        for (status, start), words in ADVICE.items()
        if status == code and path.startswith(start)
    )
    title, todo = next(fitting, OTHERWISE)
    return _(title), _(todo)


def error_page(error: HTTPException):
    return error_page_for(error.code or 500)


def error_page_for(code: int, detail: str = ""):
    """The error page; `detail` says what exactly was wrong, when the app knows."""
    title, todo = advice(code, request.path)
    home = not request.path.startswith(("/p/", "/t/"))  # a player's phone has no home here
    shown = {"code": code, "title": title, "todo": todo, "home": home, "detail": detail}
    return render_template("error.html", **shown), code
