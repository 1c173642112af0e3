"""The pages' template environment: Flask's, but a template's globals name their keys as a
set.

At each `{% from "_macros.html" import ... %}` Jinja checks whether the importing page has
globals the imported template lacks: the page's global names (a set) minus the imported
template's (`globals.keys()`). Those globals are a ChainMap (the template's own over the
environment's), whose keys view answers that difference one lookup at a time, for each of
the seventy or so names: a tenth of drawing a phone's live part. As a set, the difference is
one C call. The names are read at each call, so a global added later still counts."""

from __future__ import annotations

from collections import ChainMap

from flask.templating import Environment


class NamedGlobals(ChainMap):
    def keys(self):  # a set, not a view: `set - set` in C
        return set().union(*self.maps)


class Templates(Environment):
    def make_globals(self, d):
        return NamedGlobals({} if d is None else d, self.globals)
