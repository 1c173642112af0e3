"""The tables: a game, its players, and the append-only action log."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .schema import LOG_FORMAT  # the rows' format, kept with the schema's check


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


def now() -> datetime:
    return datetime.now(UTC)


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


class Game(db.Model):
    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    edition: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    setup: Mapped[dict] = mapped_column(JSON)
    # The snapshot: the state the log gives after action number `version`.
    version: Mapped[int] = mapped_column(default=0)
    state: Mapped[dict] = mapped_column(JSON)
    table_token: Mapped[str] = mapped_column(String(32), unique=True, default=new_token)
    banker_key: Mapped[str] = mapped_column(String(32), default=new_token)
    # The latest action still in force: the one the next undo takes back (None: none).
    last_standing: Mapped[int | None]
    # LOG_FORMAT when the rows below carry their undo chain, checkpoint, worths and parties;
    # 0 for a game logged before they existed (filled in once when the app starts).
    log_format: Mapped[int] = mapped_column(default=LOG_FORMAT, server_default="0")
    # The snapshot's checksum as the bank last wrote it (app/integrity.py); None: not kept yet.
    state_sum: Mapped[str | None] = mapped_column(String(64))

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )


class Player(db.Model):
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), index=True)
    seat: Mapped[int]
    token: Mapped[str] = mapped_column(String(32), unique=True, default=new_token)

    game: Mapped[Game] = relationship(back_populates="players")


class Action(db.Model):
    """One row per banker or player action, never changed or deleted; undo is a row too."""

    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "idempotency_key"),
        Index("ix_action_game_id_undoes", "game_id", "undoes"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), index=True)
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(32))
    idempotency_key: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    text: Mapped[str] = mapped_column(String(500))
    # The money it moved, as [payer, payee, amount] with None for the bank: for histories.
    movements: Mapped[list] = mapped_column(JSON, default=list)
    # What `text` says, as [template, values] pairs, so each reader gets their language.
    lines: Mapped[list] = mapped_column(JSON, default=list)
    # For an action: the action in force beneath it when it was done (None: the setup); an
    # undo of this action brings the game back to that one's checkpoint.
    below: Mapped[int | None]
    # For an undo: the action it took back.
    undoes: Mapped[int | None]
    # The state right after this action (JSON, zlib): where an undo of a later one returns.
    checkpoint: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    # Every seat's score (SG4) right after this action: the points of the net-worth chart.
    worths: Mapped[list | None] = mapped_column(JSON, deferred=True)


class Party(db.Model):
    """A player an action concerns: a player's own history is read from here, a page at a
    time, newest first."""

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)


class RateCount(db.Model):
    """One rate limit counter (app/web/limits.py): shared by every worker process."""

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int]
    expires_at: Mapped[float] = mapped_column(Float)
