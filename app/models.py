"""The tables: a game, its players, and the append-only action log."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


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
