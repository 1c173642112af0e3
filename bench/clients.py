"""Asyncio clients that behave as the app's pages do, for load.py and streams.py: many in one
process, so that hundreds of open pages cost sockets, not threads.

- LivePage: a player's phone (`/p/<token>`) or the table screen (`/t/<token>`). It loads the
  page, reads its version, opens the live stream (`<data-live>?v=<version>`, Server-Sent
  Events); an "event: live" newer than what it has carries the live part itself, which it
  reads; on an "event: version" it fetches its live part (`?fragment=1`), one fetch at a
  time, fetching once more if news came meanwhile: what static/app.js does. The "event:
  cash" sent ahead of a live part is passed over: a page is up to date once its whole live
  part is. On a closed stream it reconnects after the server's `retry:` delay.
- Banker: the banker's phone for one game. It opens the banker link once (the session cookie
  makes it the banker), then for each action posts the form as a page's button does (`POST
  /g/<id>/do` with the CSRF token from `<meta name=csrf-token>`, a fresh idempotency key, the
  version of the page it was drawn from, the payload as JSON), as static/app.js sends it
  (X-Tablebank-Tap: the dashboard comes in the answer; `tap=False`: the form as without
  JavaScript, the redirect followed), and reads the dashboard in full. One action at a time per
  banker. An action is answered as done only by a green banner that names it (its note): a
  banner of an earlier action whose own landing failed is shown on the next page instead, and
  is news of that action, not an answer to this one. After an answer that is not a page (an
  error), the banker reloads the dashboard before the next tap, as a phone showing an error
  page must.

Needs aiohttp: `pip install -e '.[bench]'` (or `pip install aiohttp`).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
import time
from dataclasses import dataclass, field

from . import common

try:
    import aiohttp
except ImportError:  # pragma: no cover
    sys.exit("bench needs aiohttp: pip install -e '.[bench]'  (or: pip install aiohttp)")

BANNER = re.compile(r'class="flash (\w+)"[^>]*>([^<]*)<')  # a page's green or red banners
LIVE = re.compile(r'id="live"[^>]*data-live="([^"]+)"[^>]*data-version="(\d+)"')
STREAM_READ_TIMEOUT = 60  # s without a byte on a stream (the server says "still here" every 15)
REQUEST_TIMEOUT = 60


def connector() -> aiohttp.TCPConnector:
    return aiohttp.TCPConnector(limit=0, ttl_dns_cache=None, enable_cleanup_closed=True)


@dataclass
class Tally:
    """What the clients saw, for the report."""

    fetch_ms: list[tuple[float, float]] = field(default_factory=list)  # (when, ms)
    fetch_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    stream_errors: list[str] = field(default_factory=list)
    status_5xx: int = 0
    reconnects: int = 0

    def error(self, kind: str, what: str) -> None:
        getattr(self, f"{kind}_errors").append(what)


class LivePage:
    def __init__(self, session, base: str, path: str, game: str, seat: int | None, tally: Tally):
        self.session, self.base, self.path = session, base, path
        self.game, self.seat, self.tally = game, seat, tally
        self.version = -1  # the newest version the page knows of
        self.seen = -1  # the newest the stream announced
        self.shown = -1  # the version whose news made the last fetch that succeeded
        self.balance: int | None = None  # a player's page: the balance it shows
        self.cash: list[int] = []  # the table screen: every balance it shows
        self.opened = asyncio.Event()  # the stream answered once
        self.shown_at: list[tuple[int, float]] = []  # (version, when it was first shown)
        self.busy = self.waiting = False
        self.task: asyncio.Task | None = None

    def read(self, html: str) -> None:
        if self.seat is not None:
            found = common.BALANCE.search(html)
            self.balance = common.digits(found.group(1)) if found else None
        else:
            self.cash = sorted(common.digits(c) or 0 for c in common.TABLE_CASH.findall(html))

    async def get(self, url: str, kind: str) -> str | None:
        try:
            async with self.session.get(url) as response:
                body = await response.text()
                if response.status >= 500:
                    self.tally.status_5xx += 1
                if response.status != 200:
                    self.tally.error(kind, f"{response.status} {url}")
                    return None
                return body
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            self.tally.error(kind, f"{type(error).__name__} {url}")
            return None

    async def load(self) -> bool:
        html = await self.get(self.base + self.path, "page")
        if html is None:
            return False
        found = LIVE.search(html)
        if found is None:
            self.tally.error("page", f"no live part on {self.path}")
            return False
        self.live, self.version = found.group(1), int(found.group(2))
        self.shown = self.seen = self.version
        self.read(html)
        return True

    def refresh(self) -> None:
        if self.busy:
            self.waiting = True
            return
        self.busy = True
        asyncio.get_running_loop().create_task(self.fetch())

    async def fetch(self) -> None:
        try:
            while True:
                self.waiting = False
                version, began = self.version, time.perf_counter()
                html = await self.get(f"{self.base}{self.path}?fragment=1", "fetch")
                if html is not None:
                    self.tally.fetch_ms.append(
                        (time.monotonic(), (time.perf_counter() - began) * 1000)
                    )
                    self.read(html)
                    self.showing(version)
                if not self.waiting:
                    break
        finally:
            self.busy = False

    def heard(self, event: str, ident: str, data: str) -> None:
        """An event: the live part itself ("live"), or "version N is out" (then fetch)."""
        if event == "live" and ident.isdigit():
            version = int(ident)
            self.seen = max(self.seen, version)
            if version > self.version:
                self.version = version
                self.read(data)
                self.showing(version)
        elif event == "version" and data.strip().isdigit():
            version = int(data)
            self.seen = max(self.seen, version)
            if version > self.version:
                self.version = version
                self.refresh()

    def showing(self, version: int) -> None:
        if version > self.shown:
            self.shown_at.append((version, time.monotonic()))
        self.shown = max(self.shown, version)

    def shown_since(self, version: int) -> float | None:
        """When the page first showed `version` or a later one (monotonic), None if never."""
        return next((when for shown, when in self.shown_at if shown >= version), None)

    async def stream(self) -> None:
        """One stream, until it ends; returns the retry delay in seconds."""
        url = f"{self.base}{self.live}?v={self.version}"
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=STREAM_READ_TIMEOUT)
        retry = 1.0
        async with self.session.get(url, timeout=timeout) as response:
            if response.status != 200:
                if response.status >= 500:
                    self.tally.status_5xx += 1
                self.tally.error("stream", f"{response.status} {url}")
                return retry
            self.opened.set()
            event, ident, data = "", "", []
            async for raw in response.content:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    self.heard(event, ident, "\n".join(data))
                    event, ident, data = "", "", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("id:"):
                    ident = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[6:] if line.startswith("data: ") else line[5:])
                elif line.startswith("retry:") and line[6:].strip().isdigit():
                    retry = int(line[6:].strip()) / 1000
        return retry

    async def run(self) -> None:
        if not await self.load():
            return
        while True:
            try:
                retry = await self.stream()
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                self.tally.error("stream", f"{type(error).__name__} {self.path}")
                retry = 1.0
            self.tally.reconnects += 1
            await asyncio.sleep(retry)

    def start(self) -> asyncio.Task:
        self.task = asyncio.get_running_loop().create_task(self.run())
        return self.task


class Banker:
    """The banker's phone for one game: its own cookie jar (the session holds the secret)."""

    def __init__(self, base: str, game: common.Game, tap: bool = True) -> None:
        self.base, self.game, self.tap = base, game, tap
        self.session = aiohttp.ClientSession(
            connector=connector(),
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # cookies for 127.0.0.1
            timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT),
        )
        self.csrf, self.version, self.busy = "", 0, False
        self.on_error_page = False  # the last answer was not a page: reload before a tap
        self.late: list[str] = []  # green banners of earlier actions, shown late

    def landed(self, html: str) -> None:
        self.csrf = common.csrf_token(html)
        found = LIVE.search(html)
        if found:
            self.version = int(found.group(2))
        self.on_error_page = False

    def banners(self, html: str, note: str | None = None) -> tuple[bool, list[str]]:
        """Whether a green banner names this action (its note, in brackets at the end of the
        sentence), and the red banners; any other green banner is kept in `late`."""
        done, errors = False, []
        for category, text in BANNER.findall(html):
            text = " ".join(text.split())
            if category == "done" and note and text.endswith(f"({note})"):
                done = True
            elif category == "done":
                self.late.append(text)
            elif category == "error":
                errors.append(text)
        return done, errors

    async def login(self) -> None:
        url = f"{self.base}/g/{self.game.id}/?key={self.game.key}"
        async with self.session.get(url) as response:
            html = await response.text()
            if response.status != 200:
                raise common.BenchError(f"the banker link answered {response.status}")
        self.landed(html)

    async def reload(self) -> None:
        """The dashboard again, as a banker looking at an error page does before tapping."""
        async with self.session.get(f"{self.base}/g/{self.game.id}/") as response:
            html = await response.text()
            if response.status != 200:
                raise common.BenchError(f"the dashboard answered {response.status} on reload")
        self.banners(html)
        self.landed(html)

    async def act(self, kind: str, fields: dict) -> dict:
        """Post one action as the page's form does and land on the dashboard."""
        self.busy = True
        note = fields.get("note")
        result = {"game": self.game.id, "note": note, "started": time.monotonic()}
        result.update(ok=False, status=0, chain=[])
        began = time.perf_counter()
        try:
            if self.on_error_page:
                await self.reload()
            form = {
                "csrf_token": self.csrf,
                "kind": kind,
                "key": secrets.token_hex(8),
                "version": str(self.version),
                "payload": json.dumps(fields),
            }
            began = time.perf_counter()
            answer, html = await self.post(form, result)
            result["status"] = answer.status
            result["chain"] = [step.status for step in answer.history] + [answer.status]
            result["landed_on"] = answer.headers.get("X-Tablebank-Page") or answer.url.path
            if answer.status == 200:
                result["ok"], errors = self.banners(html, note)
                if not result["ok"]:
                    result["error"] = f"refused: {errors[0] if errors else 'no banner'}"
                self.landed(html)
                result["version"] = self.version
            else:
                result["error"] = f"status {answer.status}"
                self.on_error_page = True
        except (TimeoutError, aiohttp.ClientError, OSError, common.BenchError) as error:
            result["error"] = f"{type(error).__name__}: {error}"
            self.on_error_page = True
        finally:
            self.busy = False
        result["ms"] = (time.perf_counter() - began) * 1000
        result["answered"] = time.monotonic()
        return result

    async def post(self, form: dict, result: dict):
        """The form's post and its redirect. A kept-alive connection the server closed while
        the request was on its way is tried once more on a new one, as a browser does; the
        form's idempotency key makes that safe even had the first one arrived."""
        url = f"{self.base}/g/{self.game.id}/do"
        headers = {"X-Tablebank-Tap": "1", "X-CSRFToken": self.csrf} if self.tap else {}
        try:
            async with self.session.post(url, data=form, headers=headers) as answer:
                return answer, await answer.text()
        except aiohttp.ServerDisconnectedError:
            result["resent"] = True
        async with self.session.post(url, data=form, headers=headers) as answer:
            return answer, await answer.text()

    async def api(self, path: str, timeout: float = 30):
        status, body, _ = await self.api_page(f"/api/games/{self.game.id}{path}", timeout)
        return status, body

    async def api_page(self, path: str, timeout: float = 30):
        headers = {"X-Banker-Key": self.game.key}
        async with self.session.get(
            f"{self.base}{path}",
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=timeout),
        ) as response:
            older = response.links.get("next", {}).get("url")
            return response.status, await response.json(), older and older.path_qs

    async def log(self) -> tuple[int, list]:
        """The whole log, newest first, a page at a time (the API's Link header)."""
        entries, path = [], f"/api/games/{self.game.id}/actions?limit=500"
        while path:
            status, page, path = await self.api_page(path)
            if status != 200:
                return status, entries
            entries += page
        return 200, entries

    async def close(self) -> None:
        await self.session.close()


def money_action(random, players: int, note: str) -> tuple[str, dict]:
    """A money action that the rules accept in a fresh game: a payment between players, the
    bank paying or collecting a small amount; the note makes it findable in the log."""
    kind = random.choice(("transfer", "transfer", "bank_pay", "bank_collect"))
    amount = random.randint(1, 20)
    if kind == "transfer":
        payer = random.randrange(players)
        payee = (payer + random.randrange(1, players)) % players
        return kind, {"from": payer, "to": payee, "amount": amount, "note": note}
    return kind, {"player": random.randrange(players), "amount": amount, "note": note}


class Monitor:
    """Samples the server's RSS and threads every second, and this event loop's lag."""

    def __init__(self, server: common.Server) -> None:
        self.server = server
        self.samples: list[tuple[float, dict]] = []
        self.lags: list[tuple[float, float]] = []
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        last_usage = 0.0
        while True:
            began = loop.time()
            await asyncio.sleep(0.1)
            self.lags.append((time.monotonic(), (loop.time() - began - 0.1) * 1000))
            if time.monotonic() - last_usage >= 1:
                last_usage = time.monotonic()
                usage = await loop.run_in_executor(None, self.server.usage)
                self.samples.append((last_usage, usage))

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def stop(self) -> None:
        if self.task:
            self.task.cancel()

    def peak(self, since: float = 0, until: float = float("inf")) -> dict:
        window = [u for t, u in self.samples if since <= t <= until] or [self.server.usage()]
        return {
            "rss_mib_max": max(u["rss_mib"] for u in window),
            "threads_max": max(u["threads"] for u in window),
            "processes": window[-1]["processes"],
        }

    def lag(self, since: float = 0, until: float = float("inf")) -> dict:
        return common.summary([ms for t, ms in self.lags if since <= t <= until])


class Crowd:
    """Every client of one run: the pages (sharing one connection pool, as many phones share
    one Wi-Fi), a banker per game, and the monitor. `async with Crowd(...)` closes them all."""

    def __init__(
        self,
        server: common.Server,
        games: list[common.Game],
        players: int,
        table: bool,
        tap: bool = True,
    ) -> None:
        self.server, self.tally = server, Tally()
        self.monitor = Monitor(server)
        self.session = aiohttp.ClientSession(
            connector=connector(), timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
        )
        self.pages: list[LivePage] = []
        for game in games:
            for seat, token in enumerate(game.player_tokens[:players]):
                self.page(f"/p/{token}", game.id, seat)
            if table:
                self.page(f"/t/{game.table_token}", game.id, None)
        self.bankers = [Banker(server.url, game, tap) for game in games]

    def page(self, path: str, game: str, seat: int | None) -> None:
        self.pages.append(LivePage(self.session, self.server.url, path, game, seat, self.tally))

    async def __aenter__(self) -> Crowd:
        self.monitor.start()
        await asyncio.gather(*(banker.login() for banker in self.bankers))
        return self

    async def close_pages(self) -> None:
        for page in self.pages:
            if page.task:
                page.task.cancel()
        await self.session.close()

    async def __aexit__(self, *exc) -> None:
        await self.close_pages()
        self.monitor.stop()
        for banker in self.bankers:
            await banker.close()


async def open_pages(pages: list[LivePage], rate: float, timeout: float) -> float:
    """Start the pages at `rate` a second; wait until their streams answered (or timeout).
    Returns the seconds it took."""
    began = time.monotonic()
    for n, page in enumerate(pages):
        page.start()
        await asyncio.sleep(max(0.0, began + (n + 1) / rate - time.monotonic()))
    waiting = [asyncio.ensure_future(page.opened.wait()) for page in pages]
    _, pending = await asyncio.wait(waiting, timeout=timeout) if waiting else (None, [])
    for future in pending:
        future.cancel()
    return time.monotonic() - began


@dataclass
class PageState:
    """What a page shows at one moment."""

    game: str
    seat: int | None
    path: str
    balance: int | None
    cash: list[int]
    seen: int

    @classmethod
    def of(cls, page: LivePage) -> PageState:
        return cls(page.game, page.seat, page.path, page.balance, list(page.cash), page.seen)


def check(states: list[PageState], finals: dict[str, dict]) -> dict:
    """Pages showing their game's final balances (a player's own, or every one on the table
    screen), and streams that had announced the game's final version."""
    stale, behind, unknown = [], 0, 0
    for state in states:
        final = finals.get(state.game)
        if final is None:
            unknown += 1
            continue
        cash = [p["cash"] for p in final["players"]]
        if state.seat is not None:
            showing = state.balance == cash[state.seat]
        else:
            showing = state.cash == sorted(cash)
        if not showing:
            stale.append(state.path)
        behind += state.seen < final["version"]
    return {
        "pages": len(states),
        "not_up_to_date": len(stale),
        "stream_behind": behind,
        "unknown": unknown,
        "examples": stale[:3],
    }


async def read_back(bankers: list[Banker], timeout: float) -> tuple[dict, dict]:
    """Every game's final view and log through the API, retried until `timeout` (a server
    held by its streams may answer only once they are closed)."""
    finals, histories = {}, {}
    deadline = time.monotonic() + timeout
    for banker in bankers:
        while time.monotonic() < deadline:
            try:
                status, view = await banker.api("")
                status_h, history = await banker.log()
                if status == 200 and status_h == 200:
                    finals[banker.game.id], histories[banker.game.id] = view, history
                    break
            except (TimeoutError, aiohttp.ClientError, OSError, ValueError):
                pass
            await asyncio.sleep(2)
    return finals, histories


def lost(results: list[dict], histories: dict[str, list]) -> list[str]:
    """Actions answered as done (a green banner naming them) whose note is not in their
    game's log."""
    notes = logged(histories)
    return [
        r["note"]
        for r in results
        if r["ok"] and r["game"] in notes and r["note"] not in notes[r["game"]]
    ]


def done_not_answered(results: list[dict], histories: dict[str, list]) -> dict:
    """Actions in the log that were not answered as done: the post itself failed (the answer
    said the opposite of what happened: a fault) or the post was answered with a redirect and
    the page it led to failed (the answer did not reach the screen)."""
    notes = logged(histories)
    in_log = [r for r in results if not r["ok"] and r["note"] in notes.get(r["game"], ())]
    redirected = [r for r in in_log if r["chain"][:1] in ([302], [303])]
    return {"post_failed": len(in_log) - len(redirected), "landing_failed": len(redirected)}


def logged(histories: dict[str, list]) -> dict[str, set]:
    return {game: {e["payload"].get("note") for e in log} for game, log in histories.items()}


def saw_errors(result: dict) -> bool:
    """Whether a load or streams run saw anything go wrong (its exit status is then 1)."""
    counts = (
        "action_errors",
        "fetch_errors",
        "page_errors",
        "stream_errors",
        "status_5xx",
        "lost_actions",
        "games_not_read_back",
    )
    seen = result["after_last_action"]
    return (
        any(result[name] for name in counts)
        or bool(seen["not_up_to_date"] or seen["unknown"])
        or any(result["server_log"].values())
    )
