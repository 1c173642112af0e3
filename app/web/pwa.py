"""Installable pages: a web app manifest for the banker, each player and the table screen."""

from __future__ import annotations

from flask import Blueprint, jsonify, url_for

bp = Blueprint("pwa", __name__)
# icon-192.png's shapes drawn in the page itself: a first visit asks for no icon file.
PAGE_ICON = (
    "data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27 viewBox=%270 0 6 6%27%3E"
    "%3Crect width=%276%27 height=%276%27 rx=%271%27 fill=%27%231864ab%27/%3E"
    "%3Ccircle cx=%273%27 cy=%273%27 r=%271.7%27 fill=%27%23fff%27/%3E%3C/svg%3E"
)

# A constant for every template, set once rather than by a context processor at each drawing.
bp.record_once(lambda state: state.app.jinja_env.globals.update(page_icon=PAGE_ICON))


def manifest(name: str, start_url: str):
    response = jsonify(
        {
            "name": name,
            "short_name": name[:12],
            "start_url": start_url,
            "scope": start_url,
            "display": "standalone",
            "background_color": "#f6f7f9",
            "theme_color": "#1864ab",
            "icons": [
                {
                    "src": url_for("static", filename=f"icon-{n}.png"),
                    "sizes": f"{n}x{n}",
                    "type": "image/png",
                }
                for n in (192, 512)
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/manifest.webmanifest")
def banker_manifest():
    return manifest("tablebank", url_for("banker.index"))


@bp.get("/p/<token>/manifest.webmanifest")
def player_manifest(token: str):
    return manifest("My bank", url_for("phone.player_page", token=token))


@bp.get("/t/<token>/manifest.webmanifest")
def table_manifest(token: str):
    return manifest("Table", url_for("table.screen", token=token))
