"""Debian's headless Chromium at a phone's size (390x844) against the README's `tablebank`
command on 127.0.0.1.

One Chromium for the session and one server for each module (each boot costs seconds); each
test opens contexts of its own (`browser.new_context`, or `phone`), all closed when it ends,
and plays games of its own. A wait is for the event itself: every Playwright wait and
`expect` gives up only after a hang guard far beyond a loaded machine's pace.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from ..servers import SHARED, Server
from .flows import PHONE, WAIT_MS

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


class BrowserOfTest:
    """The session's Chromium as one test sees it: the contexts it opens wait with the hang
    guard, and are closed when the test ends."""

    def __init__(self, chromium) -> None:
        self.chromium = chromium
        self.contexts: list[BrowserContext] = []

    def new_context(self, **options) -> BrowserContext:
        context = self.chromium.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        self.contexts.append(context)
        return context

    def close_all(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def browser(chromium):
    opened = BrowserOfTest(chromium)
    yield opened
    opened.close_all()


@pytest.fixture(scope="module")
def module_server(module_database_url):
    running = Server(module_database_url, env=SHARED).start_command()
    yield running
    running.close()


@pytest.fixture
def live_server(module_server) -> str:
    """The address of the module's server."""
    if module_server.process.poll() is not None:
        pytest.fail(
            f"the module's server stopped during an earlier test:\n{module_server.errors()}"
        )
    module_server.begin_test()
    return module_server.url


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    return context.new_page()
