"""For the host's monitoring and the proxy in front: /healthz says the process answers (no
database), /readyz that the database answers and its schema is the newest migration."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text

from ..db_setup import UNAVAILABLE
from ..models import db
from ..schema import newest

bp = Blueprint("health", __name__)
NO_STORE = {"Cache-Control": "no-store"}


@bp.get("/healthz")
def alive():
    return jsonify({"alive": True}), 200, NO_STORE


@bp.get("/readyz")
def ready():
    try:
        revisions = set(db.session.scalars(text("SELECT version_num FROM alembic_version")))
    except UNAVAILABLE as error:
        current_app.logger.warning("readyz: the database does not answer: %s", type(error).__name__)
        return not_ready("the database is not answering")
    except Exception:  # noqa: BLE001  no schema at all: an empty database
        return not_ready("the database has no schema yet")
    finally:
        db.session.remove()
    if revisions != newest():
        return not_ready("the database schema is not the newest: run flask db upgrade")
    return jsonify({"ready": True}), 200, NO_STORE


def not_ready(reason: str):
    return jsonify({"ready": False, "error": reason}), 503, {**NO_STORE, "Retry-After": "5"}
