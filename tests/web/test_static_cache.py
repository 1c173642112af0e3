"""Static files named by their content: a phone keeps app.css and app.js for a year and never
asks for them again, and a new version of a file is a new address."""

from __future__ import annotations

import gzip
import hashlib
import re

from tablebank.paths import ROOT


def assets(page: str) -> list[str]:
    return re.findall(r'(?:href|src|data-morph)="(/static/[^"]+)"', page)


def served(client, url: str) -> bytes:
    answer = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200, url
    body = answer.data
    return gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip" else body


def test_every_static_file_of_a_page_is_named_by_its_content(table):
    table.new_game()
    found = assets(table.page(f"/g/{table.id}/"))
    names = {url.split("?")[0].rsplit("/", 1)[1] for url in found}
    assert {"app.css", "app.js", "idiomorph.min.js"} <= names
    for url in found:
        version = re.search(r"\?v=([0-9a-f]+)$", url)
        assert version, f"{url} names no version"
        content = served(table.client, url)
        assert version[1] == hashlib.blake2b(content, digest_size=6).hexdigest(), url


def test_a_versioned_file_is_kept_for_a_year_and_never_revalidated(table):
    table.new_game()
    script = next(u for u in assets(table.page(f"/g/{table.id}/")) if "app.js" in u)
    control = table.client.get(script).headers["Cache-Control"]
    assert set(control.replace(" ", "").split(",")) == {"public", "max-age=31536000", "immutable"}


def test_a_file_asked_for_without_its_version_is_kept_a_short_while(client):
    control = client.get("/static/app.js").headers["Cache-Control"]
    assert "immutable" not in control
    assert "max-age=300" in control


def test_a_file_asked_for_by_an_older_version_is_not_kept_under_that_name(client):
    """A page of an older release still open after an upgrade gets today's file: it must not
    be kept as if it were the old version's."""
    control = client.get("/static/app.js?v=000000000000").headers["Cache-Control"]
    assert "immutable" not in control
    assert "no-cache" in control


def test_the_manifest_names_versioned_icons(client):
    manifest = client.get("/manifest.webmanifest").get_json()
    assert all(re.search(r"\?v=[0-9a-f]+$", icon["src"]) for icon in manifest["icons"])


def test_a_script_is_served_without_its_comments_and_whole_even_when_a_range_is_asked(client):
    """The file in the repository explains itself in comments; a phone gets only the code,
    and a range of the file on disk is never passed off as a range of what is served."""
    source = (ROOT / "static" / "app.js").read_text()
    whole = client.get("/static/app.js")
    assert whole.status_code == 200
    assert "// " in source and "// " not in whole.text
    assert len(whole.data) < len(source.encode())
    ranged = client.get("/static/app.js", headers={"Range": "bytes=0-9"})
    assert ranged.status_code == 200 and ranged.data == whole.data
