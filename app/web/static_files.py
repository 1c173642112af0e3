"""Static files: addressed by their content (`?v=<hash>`), so a browser keeps each one for a
year and never asks again; compressed like the pages."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, request
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
SHORT = 300  # seconds an address without its version may be kept (an old bookmark, a tool)


class Versions:
    """Each static file's version: a hash of its content, read once per process."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.known: dict[str, str] = {}

    def of(self, filename: str) -> str:
        version = self.known.get(filename)
        if version is None:
            path = safe_join(self.folder, filename)
            try:
                content = Path(path).read_bytes() if path else b""
            except OSError:
                content = b""
            version = hashlib.blake2b(content, digest_size=6).hexdigest() if content else ""
            self.known[filename] = version
        return version


def register(app: Flask) -> None:
    versions = Versions(app.static_folder or "")

    @app.url_defaults
    def versioned(endpoint: str, values: dict) -> None:
        """Every `url_for('static', ...)` names the file's version."""
        if endpoint == "static" and "v" not in values:
            version = versions.of(values.get("filename", ""))
            if version:
                values["v"] = version

    @app.after_request
    def cached(response):
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        control = response.cache_control
        control.no_cache = None
        asked = request.args.get("v")
        if asked and asked == versions.of((request.view_args or {}).get("filename", "")):
            control.public, control.max_age, control.immutable = True, YEAR, True
        elif asked:  # a page of an older version asks: this content is not that version's
            control.no_cache = True
        else:
            control.public, control.max_age = True, SHORT
        return response

    app.after_request(whole)  # runs before the hook above and Compress's: the last added first


def whole(response):
    """app.css and app.js compressed like the pages: a file is sent as a stream, which
    Compress leaves alone (live streams must flush), so a static file is read whole first."""
    if request.endpoint == "static" and response.status_code == 200 and response.is_streamed:
        response.direct_passthrough = False
        content = response.get_data()
        response.close()  # the file it was read from
        response.set_data(content)
    return response
