"""A live server on 127.0.0.1 and Debian's headless Chromium at a phone's size (390x844)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from tablebank import create_app
from tablebank.live import watcher
from tablebank.models import db
from werkzeug.serving import make_server

from .flows import PHONE

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path, database_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    watcher(app).stop()
    server.shutdown()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()
