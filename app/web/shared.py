"""Live parts drawn once per process: what several open pages show at a version (the table
screen's live part, the banker's dashboard and auction for every banker phone, a player's own
for each of their open pages), in one language, theme and time zone, is drawn once and sent
to each; a part whose page shows nothing new at a version (`signature`: what it shows is the
same) is not drawn again at all. What is each page's own, or each version's, is put in as it
is sent: its CSRF token, a fresh idempotency key for each form (so no two phones ever share
a key), and the version its forms were drawn for. So are the few lines that change at
versions where nothing else the part shows does (`fill`: a figure, a rank, the news, the
newest lines of a history, which a payment moves), worked out at each version instead of
drawing the part again (web/fills.py)."""

from __future__ import annotations

import re
import secrets
import threading
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Callable

from flask import Response, g, has_app_context, request, session
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ..kept import Kept
from ..stream_homes import HOMES
from .taps import ACTED

MARK = secrets.token_hex(6)  # never in anything a user typed
CSRF = f"csrf-{MARK}"
KEY = f"key-{MARK}"
VERSION = f"version-{MARK}"
KEYS = re.compile(re.escape(KEY))
FILL = f"fill-{MARK}-"  # FILL + a name + ".": HTML put in as the part is sent
FILLS = re.compile(re.escape(FILL) + r"([a-z_]+)\.")
SHOWS = "X-Tablebank-Version"  # the version a fetched live part shows (static/app.js)
MOST = 4096  # live parts kept per process (the newest version of each), least recent out
PIECES = 1024  # pieces of parts kept per process (web/shared.piece), least recent out

# key -> (version, HTML compressed, signature of what it shows, its fills at that version):
# kept while the page is open, a player's part for each of their pages, a few kB of HTML each
# but a quarter of it compressed (a history's lines among the fills are the ones
# fills.lines_of keeps, not a copy)
_drawn: Kept[tuple[int, bytes, object, dict]] = Kept(MOST, lambda part: part[0])


# key -> a piece's HTML, compressed: a player's form that pays someone is 2 kB, and each open
# phone has its own (uncompressed, they made 4 to 6 kB of each open page's memory)
_pieces: OrderedDict[tuple, bytes] = OrderedDict()
_pieces_lock = threading.Lock()


def reader() -> tuple[str, str, str, str]:
    """What a part's drawing depends on of the request that shows it: the reader's language,
    theme and time zone (app.js keeps its offset in a cookie), and the root its links are
    under (a proxy's prefix). Found once per request: its pieces ask for it again."""
    found = g.get("reader")
    if found is None:
        theme, zone = session.get("theme", "auto"), request.cookies.get("tzo", "")
        found = g.reader = (str(get_locale()), theme, zone, request.script_root)
    return found


def for_page(
    key: tuple,
    version: int,
    draw: Callable[[], str],
    path: str,
    signature: Callable[[], object] | None = None,
    fills: Callable[[], dict] | None = None,
) -> tuple[int, Markup]:
    """A live part as the page that shows it is drawn (its own CSRF token and keys put in),
    and the version it shows: the part its live stream sends at that version, drawn once for
    both in this process. `draw()` draws it as `path`'s stream would; `signature()` and
    `fills()` say what the stream's own say (web/streams.py): `fills()` gives HTML."""

    g.passing = passes_through(key[0])

    def drawn_here(_before) -> tuple[int, str, object, dict]:
        with_path = g.get("page_path")
        g.page_path = path  # where its refused forms go back to, as the stream's drawing says
        try:
            html = draw()
            return version, html, signature and signature(), fills() if fills else {}
        finally:
            g.page_path = with_path

    shown, html, put_in = drawn(key, version, drawn_here)
    return shown, Markup(own(html, generate_csrf(), shown, put_in))


def fetched(version: int, html: str) -> Response:
    """A live part as its page fetches it (`?fragment=1`), saying the version it shows: an
    answer that arrives late is not drawn over a newer part that the page's stream brought
    meanwhile."""
    return Response(html, mimetype="text/html", headers={SHOWS: str(version)})


def passes_through(game_id: str) -> bool:
    """Whether this request draws a page of a game whose live streams another gunicorn
    worker carries (its home, app/stream_homes.py) and is not a tap's answer: then what it
    draws (the part, its pieces, a player's own history) is not kept in this process, where
    no stream of the game draws from it. A phone's page loads once and its stream goes
    home; a tap's answer is kept, for the next tap of the page on the same connection."""
    homes = request.environ.get(HOMES)
    return homes is not None and not homes.is_home(game_id) and ACTED not in request.environ


def keeping() -> bool:
    """Whether what is drawn now is kept for the process's live pages (`passes_through`)."""
    return not (has_app_context() and g.get("passing"))


def drawing_shared() -> bool:
    """Whether the part being drawn is shared: its forms get marks, not a page's own."""
    return bool(g.get("drawing_shared"))


def version_drawn(game) -> object:
    """The version a form or link is drawn for (a stale one is refused): its mark in a
    shared part, which `own` puts the version sent in place of, else the game's."""
    return VERSION if drawing_shared() else game.version


def fill(name: str, html: Markup) -> Markup:
    """`html` where a page shows it; in a shared part, the mark `own` puts the HTML of the
    version sent in place of (the drawing's `fills`, under `name`)."""
    return Markup(f"{FILL}{name}.") if drawing_shared() else html


def drawn(key: tuple, version: int, draw: Callable) -> tuple[int, str, dict]:
    """The part `key` at `version` or later, the version it shows and its fills there:
    drawn by `draw` unless this process has it already, or is drawing it for another page
    (then that drawing is waited for). `draw(before)` is given the version and signature
    kept for an earlier version, if any, and gives (version, HTML, signature, fills): None
    for the HTML when its signature says nothing it shows changed but its fills (the earlier
    HTML is kept on)."""
    fresh: list[tuple] = []  # what this call drew, if it did: not decompressed again
    found = (_drawn.at if keeping() else _drawn.passing)(
        key, version, lambda earlier: drawn_as_shared(draw, earlier, fresh)
    )
    if fresh and fresh[0][0] is found:
        return found[0], fresh[0][1], found[3]
    return found[0], zlib.decompress(found[1]).decode(), found[3]


def drawn_as_shared(draw: Callable, earlier, fresh: list):
    g.drawing_shared = True
    try:
        version, html, signature, fills = draw(
            None if earlier is None else (earlier[0], earlier[2])
        )
    finally:
        g.drawing_shared = False
    if html is None:
        return version, earlier[1], signature, fills
    made = version, zlib.compress(html.encode(), 1), signature, fills
    fresh.append((made, html))
    return made


def own(html: str, csrf: str, version: int, fills: dict | None = None) -> str:
    """A shared part as one page gets it: its CSRF token, a fresh key in each form, the
    version its forms were drawn for, the HTML filled in at that version."""
    html = html.replace(CSRF, csrf).replace(VERSION, str(version))
    if FILL in html:
        html = FILLS.sub(lambda found: str((fills or {}).get(found.group(1), "")), html)
    return KEYS.sub(lambda _: uuid.uuid4().hex, html) if KEY in html else html


def piece(shows: tuple, draw: Callable[[], str]) -> Markup:
    """A piece of a live part that most actions leave as it was (the board's squares, the
    form that pays someone from a phone), drawn once per process for what it shows: `shows`
    names all of it as plain values (the version its forms are drawn for too: see
    `version_drawn`), beside the reader and the players' token letters. Named by what it
    shows, a piece is right for any game and version that show the same."""
    key = (shows, reader(), tuple(g.get("marks") or ()), drawing_shared())
    with _pieces_lock:
        found = _pieces.get(key)
        if found is not None:
            _pieces.move_to_end(key)
            return Markup(zlib.decompress(found).decode())
    drawn = Markup(draw())
    if not keeping():
        return drawn
    with _pieces_lock:
        _pieces[key] = zlib.compress(drawn.encode(), 1)
        while len(_pieces) > PIECES:
            _pieces.popitem(last=False)
    return drawn
