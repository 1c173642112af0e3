"""Headers every response carries: no inline script, no framing, no token in a Referer; the
session cookie Secure whenever the page came over https; the client's address and scheme
from a proxy in front, when the host says one is there (PROXY_FIX); a form refused by the
CSRF check says why in the log."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import archive
from .args import refuse_bad_text
from .errors import error_page

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # colours come as style attributes
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # player links carry their token: never to other sites
}
# A style sheet, a script or a picture is never a document: the policies for documents would
# only weigh on a phone's first visit (about 350 bytes a file).
INERT = {"text/css", "text/javascript", "application/javascript", "image/png"}
FILE_HEADERS = {"X-Content-Type-Options": "nosniff"}
LARGER_BODIES = {"api.import_game": archive.IMPORT_BYTES}  # an export holds a whole log


class SessionOverHttps(SecureCookieSessionInterface):
    """SESSION_COOKIE_SECURE, or the request came over https (directly, or as the proxy
    says in X-Forwarded-Proto when PROXY_FIX trusts it): the cookie never goes out on http."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def body_limit() -> int | None:
    """The most bytes this request's route takes (MAX_CONTENT_LENGTH; more for an import)."""
    limit = LARGER_BODIES.get(request.endpoint or "")
    if limit is not None:
        request.max_content_length = limit
    return request.max_content_length


def form_refused(error: CSRFError):
    """The reader gets the page for a 400; the host reads why in the log. Behind a proxy that
    names another host or port than the browser's address bar (nginx's `$host` drops the
    port), every form is refused here for its Referer: the log names both addresses."""
    said = f"a form was refused (CSRF): {error.description}"
    if request.referrer:
        page = urlsplit(request.referrer)
        said += f" The page was at {page.scheme}://{page.netloc}/; this server takes itself"
        said += f" for {request.host_url} (behind a proxy: PROXY_FIX, X-Forwarded-Host)."
    current_app.logger.warning(said)
    return error_page(error)


def register(app: Flask) -> None:
    hops = int(app.config.get("PROXY_FIX") or 0)
    if hops > 0:  # X-Forwarded-For/-Proto/-Host/-Prefix from that many proxies are believed
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops)
    app.session_interface = SessionOverHttps()
    app.register_error_handler(CSRFError, form_refused)

    @app.before_request
    def refuse_a_body_too_large():
        """Judged by its Content-Length, before anything reads the body or writes to the
        database for it (a rate limit's counter, the banker check): 20 MB of junk costs
        the server a header, and no new game's place under the limit."""
        if (request.content_length or 0) > (body_limit() or float("inf")):
            abort(413)

    @app.before_request
    def no_nul_in_the_address():
        """An id or token with a NUL character names nothing (and PostgreSQL would refuse
        to even look it up)."""
        if any("\x00" in str(v) for v in (request.view_args or {}).values()):
            abort(404)

    app.before_request(refuse_bad_text)  # before the banker check reads a key or a header

    @app.after_request
    def secure(response: Response) -> Response:
        inert = request.endpoint == "static" and response.mimetype in INERT
        for name, value in (FILE_HEADERS if inert else HEADERS).items():
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        return response
