"""the log's own indexes: undo chain, checkpoints, worths, parties

Pages read a bounded slice of the log instead of replaying it: each action row records the
action in force beneath it (or, for an undo, the one it took back), the state right after it
and every seat's worth; `party` says whom each action concerns. Games logged before this
revision keep `log_format` 0 and are filled in when the app starts (app/logbook.py).

Revision ID: 7c1d2e9a4b10
Revises: 13e6e4e29e6f
Create Date: 2026-11-22 23:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "7c1d2e9a4b10"
down_revision = "13e6e4e29e6f"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_standing", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("log_format", sa.Integer(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("action", schema=None) as batch_op:
        batch_op.add_column(sa.Column("below", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("undoes", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("checkpoint", sa.LargeBinary(), nullable=True))
        batch_op.add_column(sa.Column("worths", sa.JSON(), nullable=True))
        batch_op.create_index("ix_action_game_id_undoes", ["game_id", "undoes"], unique=False)
    op.create_table(
        "party",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("game_id", "seat", "seq"),
    )


def downgrade():
    op.drop_table("party")
    with op.batch_alter_table("action", schema=None) as batch_op:
        batch_op.drop_index("ix_action_game_id_undoes")
        batch_op.drop_column("worths")
        batch_op.drop_column("checkpoint")
        batch_op.drop_column("undoes")
        batch_op.drop_column("below")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("log_format")
        batch_op.drop_column("last_standing")
