"""The pages' links (`url_for` in a template), each address built once per process.

A banker's dashboard draws about thirty links at every action, a phone's live part a dozen,
and werkzeug builds each anew (its rule's builder, the defaults, the quoting): a tenth of
drawing them. The same endpoint with the same values, under the same root, is the same
address, so it is kept. Anything else url_for can be asked (an endpoint relative to the
page's blueprint, `_external`, `_anchor`...) is built as ever."""

from __future__ import annotations

from flask import Flask, request, url_for

KEPT_MOST = 8192  # addresses; forgotten all at once past that (versions and tokens vary)
_kept: dict[tuple, str] = {}


def link(endpoint: str, **values) -> str:
    if endpoint[:1] == "." or not request or any(name[:1] == "_" for name in values):
        return url_for(endpoint, **values)
    key = (endpoint, request.script_root, *values.items())
    try:
        return _kept[key]
    except KeyError:
        pass
    except TypeError:  # a value that cannot be a key
        return url_for(endpoint, **values)
    address = url_for(endpoint, **values)
    if len(_kept) >= KEPT_MOST:
        _kept.clear()
    _kept[key] = address
    return address


def register(app: Flask) -> None:
    app.jinja_env.globals["url_for"] = link
