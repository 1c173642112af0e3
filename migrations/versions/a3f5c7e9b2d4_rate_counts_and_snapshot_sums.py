"""rate limit counters; the snapshot's checksum

`rate_count` holds the rate limiter's counters (app/web/limits.py), shared by every worker
process. `game.state_sum` is the checksum of the snapshot as the bank last wrote it
(app/integrity.py); games saved before this revision have none and are trusted as they are.

Revision ID: a3f5c7e9b2d4
Revises: 7c1d2e9a4b10
Create Date: 2026-11-23 20:50:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a3f5c7e9b2d4"
down_revision = "7c1d2e9a4b10"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_count",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("state_sum", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("state_sum")
    op.drop_table("rate_count")
