"""The nginx example of docs/SECURITY.md, as written, in front of gunicorn with PROXY_FIX, on a
port other than 443 with a certificate of its own: what a host gets by following the docs.

Skipped where nginx or openssl is not installed. Nothing is timed: each wait is for the event
itself, with the servers' hang guard."""

from __future__ import annotations

import http.client
import http.cookiejar
import re
import shutil
import ssl
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from tablebank.paths import ROOT

from ..servers import HANG_GUARD, SHARED, Server, eventually, free_port

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
)
pytestmark = [
    pytest.mark.skipif(not NGINX or not shutil.which("openssl"), reason="needs nginx and openssl"),
    pytest.mark.slow,
]
CREATE_LIMIT = 4  # new games a minute per client address, in this module
UNVERIFIED = ssl._create_unverified_context()  # the certificate is the test's own


def documented_nginx() -> str:
    """The nginx block of docs/SECURITY.md."""
    text = (ROOT / "docs" / "SECURITY.md").read_text()
    return re.search(r"```nginx\n(.*?)```", text, re.S).group(1)


class Proxy:
    """nginx running the documented site: https on `port`, plain http on `http_port`."""

    def __init__(self, folder: Path, upstream: int) -> None:
        self.folder, self.port, self.http_port = folder, free_port(), free_port()
        cert, key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", str(key),
             "-out", str(cert)],
            check=True, capture_output=True,
        )  # fmt: skip
        site = documented_nginx()
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.http_port};")
        site = site.replace("listen 443 ", f"listen 127.0.0.1:{self.port} ")
        site = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {cert};", site)
        site = re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};", site)
        site = site.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
        temp = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (folder / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'};\n"
            "events { worker_connections 4096; }\n"
            f"http {{\n    access_log off;\n{temp}\n{site}\n}}\n"
        )
        with open(folder / "stderr.log", "wb") as said:
            self.process = subprocess.Popen(
                [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                stdout=subprocess.DEVNULL, stderr=said,
            )  # fmt: skip
        eventually(self.answers, "nginx answering")

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}"

    def answers(self) -> bool:
        if self.process.poll() is not None:
            said = (self.folder / "stderr.log").read_text()
            raise AssertionError(f"nginx stopped: {said}")
        try:
            self.connection().close()
            return True
        except OSError:
            return False

    def connection(self, client: str = "127.0.0.1") -> http.client.HTTPSConnection:
        """A connection to nginx from the local address `client` (a client of its own)."""
        connection = http.client.HTTPSConnection(
            "localhost", self.port, context=UNVERIFIED, timeout=HANG_GUARD,
            source_address=(client, 0),
        )  # fmt: skip
        connection.connect()
        return connection

    def call(self, method: str, path: str, body: str = "", client="127.0.0.1", headers=None):
        connection = self.connection(client)
        try:
            sent = {"Content-Type": "application/json", **(headers or {})}
            connection.request(method, path, body=body or None, headers=sent)
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read().decode()
        finally:
            connection.close()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=HANG_GUARD)


@pytest.fixture(scope="module")
def behind(tmp_path_factory, module_database_url):
    """gunicorn with PROXY_FIX behind the documented nginx."""
    env = {
        **SHARED,
        "TABLEBANK_PROXY_FIX": "1",
        "TABLEBANK_RATE_LIMIT_CREATE": f"{CREATE_LIMIT}/minute",
    }
    server = Server(module_database_url, env=env).start()
    proxy = Proxy(tmp_path_factory.mktemp("nginx"), server.port)
    proxy.server = server
    yield proxy
    proxy.stop()
    server.close()


def browser():
    """A browser's cookies and https, redirects followed."""
    jar = http.cookiejar.CookieJar()
    https = urllib.request.HTTPSHandler(context=UNVERIFIED)
    return urllib.request.build_opener(https, urllib.request.HTTPCookieProcessor(jar)), jar


def new_game_form(opener, url: str):
    """The banker's new game, made with the page's form, as a browser posts it."""
    page = opener.open(url + "/new", timeout=HANG_GUARD).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "edition": "us-2008", "name0": "Ana", "name1": "Bea"}
    form.update({"colour0": "#e03131", "colour1": "#1971c2", "starting_cash": "1500"})
    form["mode"] = "classic"
    posted = urllib.request.Request(
        url + "/new", urllib.parse.urlencode(form).encode(), headers={"Referer": url + "/new"}
    )
    return opener.open(posted, timeout=HANG_GUARD)


def test_on_another_port_than_443_forms_work_and_the_codes_name_the_public_address(behind):
    opener, jar = browser()
    try:
        made = new_game_form(opener, behind.url)
    except urllib.error.HTTPError as refused:
        raise AssertionError(f"the new game's form was refused: {refused.code}") from None
    game = re.search(r"/g/([^/]+)/", made.url).group(1)
    assert made.url == f"{behind.url}/g/{game}/"
    codes = opener.open(f"{behind.url}/g/{game}/codes", timeout=HANG_GUARD).read().decode()
    shown = set(re.findall(r"https?://[^\s\"<>]+/[pt]/[\w-]+", codes))
    assert len(shown) == 3  # two players and the table screen
    assert all(link.startswith(f"{behind.url}/") for link in shown), shown

    session = next(cookie for cookie in jar if cookie.name == "session")
    assert session.secure and session.has_nonstandard_attr("HttpOnly")
    assert session.get_nonstandard_attr("SameSite") == "Lax"
    _, headers, _ = behind.call("GET", "/healthz")
    assert dict(headers)["Strict-Transport-Security"].startswith("max-age=")


def test_plain_http_is_sent_to_https(behind):
    connection = http.client.HTTPConnection("127.0.0.1", behind.http_port, timeout=HANG_GUARD)
    try:
        connection.request("GET", "/new", headers={"Host": "localhost"})
        answer = connection.getresponse()
        assert answer.status == 301 and answer.getheader("Location") == "https://localhost/new"
    finally:
        connection.close()


def test_rate_limits_count_each_client_address_and_a_forged_forwarded_for_escapes_none(behind):
    setup = '{"edition": "us-2008", "players": [{"name": "Ana", "colour": "#e03131"},'
    setup += ' {"name": "Bea", "colour": "#1971c2"}]}'
    made = [
        behind.call("POST", "/api/games", setup, client="127.0.0.2")[0] for _ in range(CREATE_LIMIT)
    ]
    assert made == [201] * CREATE_LIMIT
    assert behind.call("POST", "/api/games", setup, client="127.0.0.2")[0] == 429
    for forged in ("203.0.113.7", "203.0.113.8, 198.51.100.1"):
        spoofed = behind.call(
            "POST", "/api/games", setup, client="127.0.0.2", headers={"X-Forwarded-For": forged}
        )
        assert spoofed[0] == 429
    assert behind.call("POST", "/api/games", setup, client="127.0.0.3")[0] == 201


def test_gunicorn_s_access_log_names_the_client_not_the_proxy_nor_a_forged_address(behind):
    """With PROXY_FIX, ProxyFix puts the client's address (the one nginx appended) in the
    request before gunicorn writes its access log line: not 127.0.0.1 (nginx) for every
    request, and not what the client wrote in its own X-Forwarded-For."""
    behind.server.begin_test()
    forged = {"X-Forwarded-For": "203.0.113.9"}
    assert (
        behind.call("GET", "/healthz?from=the-log-test", client="127.0.0.4", headers=forged)[0]
        == 200
    )

    def logged() -> str | None:
        lines = behind.server.output().splitlines()
        return next((line for line in lines if "/healthz?from=the-log-test" in line), None)

    assert eventually(logged, "gunicorn's access log line").startswith("127.0.0.4 - ")


def table_link(behind) -> tuple[str, str, str]:
    """A game made through the proxy: its id, banker key and table screen's path."""
    server = behind.server
    game, key = server.new_game()
    _, codes = server.call("GET", f"/g/{game}/codes", key=key, raw=True)
    return game, key, re.search(r"/t/[\w-]+", codes).group(0)


class Stream:
    """A live page's stream through the proxy, from the local address `client`."""

    def __init__(self, behind, path: str, client: str) -> None:
        self.connection = behind.connection(client)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.answer = self.connection.getresponse()
        self.status = self.answer.status

    def close(self) -> None:
        self.answer.close()
        self.connection.close()


def test_a_live_page_gets_the_news_through_the_proxy_on_the_stream_it_holds(behind):
    game, key, table = table_link(behind)
    stream = Stream(behind, f"{table}/live?v=0", "127.0.0.1")
    try:
        assert stream.status == 200
        assert stream.answer.getheader("Content-Type").startswith("text/event-stream")
        assert stream.answer.readline() == b"retry: 1000\n"
        paid = '{"kind": "transfer", "from": 0, "to": 1, "amount": 25}'
        headers = {"X-Banker-Key": key}
        assert behind.call("POST", f"/api/games/{game}/actions", paid, headers=headers)[0] == 201
        news = lambda: stream.answer.readline() == b"id: 1\n"  # noqa: E731
        eventually(news, "the news on the open stream")
    finally:
        stream.close()


def test_one_address_holding_its_live_pages_does_not_keep_another_out(behind):
    """limit_conn: 256 at once per client address, as the app's own cap without a proxy."""
    _, _, table = table_link(behind)
    held = []
    try:
        for _ in range(256):
            held.append(Stream(behind, f"{table}/live?v=0", "127.0.0.4"))
            assert held[-1].status == 200
        held.append(Stream(behind, f"{table}/live?v=0", "127.0.0.4"))
        assert held[-1].status == 429
        held.append(Stream(behind, f"{table}/live?v=0", "127.0.0.5"))
        assert held[-1].status == 200
    finally:
        for stream in held:
            stream.close()


def test_while_the_app_restarts_a_page_says_so_and_tries_again_by_itself(behind):
    """Last in this module: it stops the module's server."""
    behind.server.stop()
    status, headers, page = behind.call("GET", "/new")
    assert status == 503 and dict(headers)["Retry-After"] == "5"
    assert "tablebank is restarting" in page and 'http-equiv="refresh"' in page
    behind.server.restart()
    assert behind.call("GET", "/new")[0] == 200
