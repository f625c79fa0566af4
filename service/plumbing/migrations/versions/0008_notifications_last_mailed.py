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
    _swap(add=("ix_notifications_user_done", ["user_id", "status", "done_at"]), drop="ix_notifications_user")


def downgrade() -> None:
    _swap(add=("ix_notifications_user", ["user_id", "status"]), drop="ix_notifications_user_done")


def _swap(add: tuple[str, list[str]], drop: str) -> None:
    """Build the index ``add``, then drop ``drop``.  On PostgreSQL both concurrently
    (outside the migration's transaction), so that the web processes still serving while
    the release runs keep writing notifications during the build, however large the table."""
    name, columns = add
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.create_index(name, "notifications", columns, postgresql_concurrently=True)
            op.drop_index(drop, table_name="notifications", postgresql_concurrently=True)
        return
    op.create_index(name, "notifications", columns)
    op.drop_index(drop, table_name="notifications")
