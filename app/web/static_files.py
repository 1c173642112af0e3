"""Static files: addressed by their content (`?v=<hash>`), so a browser keeps each one for a
year and never asks again; scripts and style sheets sent without their comments and spaces,
compressed like the pages."""

from __future__ import annotations

import hashlib
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, request
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
SHORT = 300  # seconds an address without its version may be kept (an old bookmark, a tool)


def minified(filename: str, content: bytes) -> bytes:
    """What a browser needs of a script or a style sheet; the file in the repository keeps
    the comments that explain it. A file that says it is minified already is left alone."""
    if filename.endswith(".min.js") or filename.endswith(".min.css"):
        return content
    if filename.endswith(".js"):
        return rjsmin.jsmin(content.decode()).encode()
    if filename.endswith(".css"):
        return rcssmin.cssmin(content.decode()).encode()
    return content


class Files:
    """Each static file as it is served and its version (a hash of that), worked out once
    per process."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.known: dict[str, tuple[bytes, str]] = {}

    def served(self, filename: str) -> tuple[bytes, str]:
        known = self.known.get(filename)
        if known is None:
            path = safe_join(self.folder, filename)
            try:
                content = minified(filename, Path(path).read_bytes()) if path else b""
            except OSError:
                content = b""
            version = hashlib.blake2b(content, digest_size=6).hexdigest() if content else ""
            known = self.known[filename] = (content, version)
        return known

    def version(self, filename: str) -> str:
        return self.served(filename)[1]


def register(app: Flask) -> None:
    """after_request hooks run the last added first: `whole`, then `cached`, then Compress's."""
    files = Files(app.static_folder or "")

    @app.url_defaults
    def versioned(endpoint: str, values: dict) -> None:
        """Every `url_for('static', ...)` names the file's version."""
        if endpoint == "static" and "v" not in values:
            version = files.version(values.get("filename", ""))
            if version:
                values["v"] = version

    @app.after_request
    def cached(response):
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        response.headers.pop("Content-Disposition", None)  # shown by the page, never saved
        control = response.cache_control
        control.no_cache = None
        asked = request.args.get("v")
        if asked and asked == files.version(filename()):
            control.public, control.max_age, control.immutable = True, YEAR, True
        elif asked:  # a page of an older version asks: this content is not that version's
            control.no_cache = True
        else:
            control.public, control.max_age = True, SHORT
        return response

    @app.after_request
    def whole(response):
        """The file as served, read whole: Compress leaves a streamed answer alone (live
        streams must flush), so a static file is put in as bytes before it compresses."""
        if request.endpoint == "static" and response.status_code in (200, 206):
            content, _ = files.served(filename())
            if content:
                response.direct_passthrough = False
                response.close()  # the file it was opened from
                response.set_data(content)
                response.status_code = 200  # a range of the file is not a range of this
                response.headers.pop("Content-Range", None)
                response.headers.pop("Accept-Ranges", None)
        return response


def filename() -> str:
    return (request.view_args or {}).get("filename", "")
