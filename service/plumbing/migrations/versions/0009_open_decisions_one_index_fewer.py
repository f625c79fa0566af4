"""``ix_open_decisions_game_id`` dropped: the unique index on ``(game_id, decision_id,
seat)`` starts with the same column and serves every query it served (the decisions of a
game, the cascade when a game is deleted).

Every command deletes and writes a game's open decisions, and each row written was an
entry in both indexes: on SQLite one page more in the log at every COMMIT (16 pages where
a PAX command with its bot's reply wrote 17, ``bench/RESULTS.md``), on PostgreSQL one
index fewer to keep.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

INDEX = "ix_open_decisions_game_id"


def upgrade() -> None:
    """On PostgreSQL concurrently (outside the migration's transaction), so that the web
    processes still serving while the release runs keep writing open decisions."""
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.drop_index(INDEX, table_name="open_decisions", postgresql_concurrently=True)
        return
    op.drop_index(INDEX, table_name="open_decisions")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.create_index(INDEX, "open_decisions", ["game_id"], postgresql_concurrently=True)
        return
    op.create_index(INDEX, "open_decisions", ["game_id"])
