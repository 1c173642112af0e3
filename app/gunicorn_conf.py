"""gunicorn settings for a server with many tables: `gunicorn -c python:tablebank.gunicorn_conf
--workers 4 --bind 0.0.0.0:8000 'tablebank:create_app()'` (command-line flags override these).

gevent workers: each connection is a greenlet, so the players' open live pages cost memory,
not threads. No preload: gevent patches the standard library in each worker before the app
is made there. The worker is gevent's with a cap on connections per client, and the logger
masks tokens and keys (app/gunicorn_worker.py); `keepalive` bounds how long a connection
may take to send each request's head. The access log goes to the standard output
(TABLEBANK_ACCESS_LOG=false: none).

The schema is upgraded once, before any worker starts (`on_starting`), and workers boot
without touching the database. gunicorn stops the whole server when a worker fails to boot:
if workers upgraded at boot, one worker restarted (a crash, a timeout) while the database is
down would take every table's server down for good, instead of a few 503s. A reload
(SIGHUP) keeps the old workers serving until the new ones have made the app (app/handover.py).
Workers boot at most one per core at a time, so that the first answers sooner
(app/staggered_boot.py).
"""

import os
import subprocess
import sys

from . import handover, staggered_boot

# The operator's own choice, read once: the master sets it to false for its workers.
UPGRADE_ON_START = os.environ.get("TABLEBANK_UPGRADE_ON_START", "true").lower() != "false"

PACKAGE = __name__.rpartition(".")[0]  # `tablebank`, or `app` from the repository's top
worker_class = f"{PACKAGE}.gunicorn_worker.Worker"
logger_class = f"{PACKAGE}.gunicorn_worker.Logger"
accesslog = "-" if os.environ.get("TABLEBANK_ACCESS_LOG", "true").lower() != "false" else None
# Requests and live streams at work at once, per worker (a stream waiting for news holds no
# greenlet and is not counted; CONNECTIONS_PER_PROCESS and its client's cap still count it).
worker_connections = 5000
graceful_timeout = 5  # live streams end at once on shutdown; requests get this long
keepalive = 5  # seconds for a connection's next request line and headers (idle included)
# The control socket has one path per user: two servers on one host would take each other's.
control_socket_disable = True


def on_starting(server) -> None:
    if not upgrade_schema_once():
        sys.exit("tablebank: the database schema could not be upgraded (see above)")
    server.tablebank_handover = handover.Handover(server)
    try:
        server.tablebank_boot = staggered_boot.StaggeredBoot(server)
    except OSError as error:  # no folder to say booted in: gunicorn's own, all at once
        server.log.warning("tablebank: the workers boot all at once (%s)", error)


def on_exit(server) -> None:
    boot = getattr(server, "tablebank_boot", None)
    if boot is not None:
        boot.close()


def on_reload(server) -> None:
    """SIGHUP: new code may bring a new migration; the old workers serve until the new ones
    have made the app (app/handover.py). A database that cannot be reached then stops no
    server: the reload goes on without the upgrade (the workers boot without the database,
    and answer 503 until it is back), and the log says to reload again once it answers."""
    if not upgrade_schema_once():
        server.log.error(
            "tablebank: the database schema could not be checked or upgraded on this reload"
            " (see above); the server goes on with the schema as it is: reload again once"
            " the database answers"
        )
    server.tablebank_handover.begin()


def post_worker_init(worker) -> None:
    handover.ready(worker.log)
    staggered_boot.booted(worker.log)


def upgrade_schema_once() -> bool:
    """Whether the schema is the newest, upgraded if it was due. In processes of their own:
    the master stays free of Flask and the drivers, which gevent must patch in each worker
    before they are imported. First a quick look (the settings and the driver only,
    app/schema.py); only when an upgrade is due, the app made once, which upgrades."""
    if not UPGRADE_ON_START:
        return True
    os.environ.pop("TABLEBANK_UPGRADE_ON_START", None)
    try:
        if subprocess.run([sys.executable, "-m", f"{PACKAGE}.schema"]).returncode == 0:
            return True
        made = subprocess.run(
            [sys.executable, "-c", f"from {PACKAGE} import create_app; create_app()"]
        )
        return made.returncode == 0
    finally:  # workers inherit the master's environment: they never upgrade as they boot
        os.environ["TABLEBANK_UPGRADE_ON_START"] = "false"


def worker_int(worker) -> None:
    """Ctrl-C or SIGINT: wake and end the worker's open streams before it exits."""
    _stop_watchers(worker)


def worker_exit(server, worker) -> None:
    _stop_watchers(worker)


def _stop_watchers(worker) -> None:
    app = getattr(worker, "wsgi", None)
    watcher = getattr(app, "extensions", {}).get("tablebank.watcher")
    if watcher is not None:
        watcher.stop()
