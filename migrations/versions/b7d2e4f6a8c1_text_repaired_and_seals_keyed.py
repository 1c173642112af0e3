"""text a page cannot show repaired; snapshot seals keyed with the secret

Two repairs of the data, no change of the schema:

- Before text was checked at the edge, a game could be made with a player named "\\udfff"
  (a lone surrogate, through JSON's escape) and then none of its pages could be drawn. Every
  character no text may now hold (control characters but tab and line ends, lone surrogates,
  noncharacters) becomes U+FFFD in such a game's setup, snapshot, payloads, sentences and
  checkpoints, the same everywhere, so its log still replays to its snapshot.
- The snapshot's seal was a plain SHA-256 that anyone with the database could recompute. It
  is now an HMAC keyed with the server's SECRET_KEY (app/integrity.py): each game whose old
  seal still matches its snapshot, or that had none, is sealed again with the key; a game
  whose old seal did not match keeps it, and is shown read-only until the host repairs it.

Revision ID: b7d2e4f6a8c1
Revises: a3f5c7e9b2d4
Create Date: 2026-12-02 10:00:00

"""

import hashlib
import json
import re
import zlib

import sqlalchemy as sa
from alembic import op
from flask import current_app

revision = "b7d2e4f6a8c1"
down_revision = "a3f5c7e9b2d4"
branch_labels = None
depends_on = None

# What no text may hold, as app/inputs.py says at this revision.
FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000))
    + "]"
)
CHUNK = 200

GAME = sa.table(
    "game",
    sa.column("id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("setup", sa.JSON),
    sa.column("state", sa.JSON),
    sa.column("state_sum", sa.String),
)
ACTION = sa.table(
    "action",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.String),
    sa.column("payload", sa.JSON),
    sa.column("lines", sa.JSON),
    sa.column("text", sa.String),
    sa.column("checkpoint", sa.LargeBinary),
)


def mended(value):
    """The value with every forbidden character replaced by U+FFFD."""
    if isinstance(value, str):
        return FORBIDDEN.sub("\ufffd", value)
    if isinstance(value, list):
        return [mended(item) for item in value]
    if isinstance(value, dict):
        return {mended(key): mended(item) for key, item in value.items()}
    return value


def plain_sum(state) -> str:
    """The seal as it was before this revision."""
    normal = json.loads(json.dumps(state))
    text = json.dumps(normal, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def keyed_sum(game_id, version, state) -> str:
    from tablebank.integrity import state_sum

    return state_sum(game_id, version, state, current_app.config["SECRET_KEY"])


def games_with_bad_payloads(connection) -> set:
    """Games whose log holds a forbidden character: JSON is stored with its non-ASCII text
    escaped, so only a payload with an escape in it is read and looked at."""
    text = sa.cast(ACTION.c.payload, sa.Text)
    escaped = sa.or_(*(text.contains(mark, autoescape=True) for mark in ("\\u", "\\b", "\\f")))
    found = set()
    for game_id, payload in connection.execute(
        sa.select(ACTION.c.game_id, ACTION.c.payload).where(escaped)
    ):
        if mended(payload) != payload:
            found.add(game_id)
    return found


def mend_log(connection, game_id) -> None:
    rows = connection.execute(
        sa.select(
            ACTION.c.id, ACTION.c.payload, ACTION.c.lines, ACTION.c.text, ACTION.c.checkpoint
        ).where(ACTION.c.game_id == game_id)
    ).all()
    for row_id, payload, lines, text, checkpoint in rows:
        values = {"payload": mended(payload), "lines": mended(lines), "text": mended(text)}
        if checkpoint is not None:
            state = mended(json.loads(zlib.decompress(checkpoint)))
            values["checkpoint"] = zlib.compress(
                json.dumps(state, separators=(",", ":")).encode(), 1
            )
        connection.execute(ACTION.update().where(ACTION.c.id == row_id).values(**values))


def upgrade():
    connection = op.get_bind()
    bad_logs = games_with_bad_payloads(connection)
    ids = connection.execute(sa.select(GAME.c.id).order_by(GAME.c.id)).scalars().all()
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        rows = connection.execute(
            sa.select(
                GAME.c.id, GAME.c.version, GAME.c.setup, GAME.c.state, GAME.c.state_sum
            ).where(GAME.c.id.in_(chunk))
        ).all()
        for game_id, version, setup, state, old_sum in rows:
            trusted = old_sum is None or old_sum == plain_sum(state)
            values = {}
            if game_id in bad_logs or mended(setup) != setup or mended(state) != state:
                values = {"setup": mended(setup), "state": mended(state)}
                mend_log(connection, game_id)
                state = values["state"]
            if trusted:
                values["state_sum"] = keyed_sum(game_id, version, state)
            if values:
                connection.execute(GAME.update().where(GAME.c.id == game_id).values(**values))


def downgrade():
    """Seals back to the plain SHA-256, for the games whose keyed seal matches."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(GAME.c.id, GAME.c.version, GAME.c.state, GAME.c.state_sum)
    ).all()
    for game_id, version, state, keyed in rows:
        if keyed == keyed_sum(game_id, version, state):
            connection.execute(
                GAME.update().where(GAME.c.id == game_id).values(state_sum=plain_sum(state))
            )
