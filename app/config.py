"""Configuration: safe defaults for a laptop at home, the environment for a server."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one made once and kept in instance/."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def database_url() -> str:
    """DATABASE_URL, with PostgreSQL through psycopg 3; else SQLite in instance/."""
    url = os.environ.get("DATABASE_URL", "sqlite:///tablebank.sqlite")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def defaults(instance: Path) -> dict:
    return {
        "SECRET_KEY": secret_key(instance),
        "SQLALCHEMY_DATABASE_URI": database_url(),
        "WTF_CSRF_TIME_LIMIT": None,  # a banker's phone stays open all evening
        "JSON_SORT_KEYS": False,
        "COMPRESS_STREAMS": False,  # live streams must flush each event as it comes
        "COMPRESS_MIMETYPES": [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/manifest+json",
            "image/svg+xml",
        ],
    }
