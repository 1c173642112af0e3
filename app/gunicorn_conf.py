"""gunicorn settings for a server with many tables: `gunicorn -c python:app.gunicorn_conf
--workers 4 --bind 0.0.0.0:8000 'app:create_app()'` (command-line flags override these).

gevent workers: each connection is a greenlet, so the players' open live pages cost memory,
not threads. No preload: gevent patches the standard library in each worker before the app
is made there, and the schema upgrade at start takes a lock, one worker at a time.
"""

worker_class = "gevent"
worker_connections = 5000  # open live pages and requests at once, per worker
graceful_timeout = 5  # live streams end at once on shutdown; requests get this long
keepalive = 5


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
