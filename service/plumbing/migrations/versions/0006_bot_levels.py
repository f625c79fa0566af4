"""Bot levels chosen per game: ``seats.bot_level`` (a bot seat's level) and
``game_clocks.stand_in`` (how an absent player's seat is played: a level or ``defaults``).
Null in both is the operator's ``CAPUA_BOT_LEVEL``, which is what every existing game gets.
``games.bots_due_at``: when a searching bot was last found owing an answer (the worker
gives it).  ``table_messages.sender_user_id`` may be null: a bot's answer to a message.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bots_due_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
    with op.batch_alter_table("game_clocks") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(length=16), nullable=True))
    with op.batch_alter_table("table_messages") as batch:
        batch.alter_column("sender_user_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM table_messages WHERE sender_user_id IS NULL")
    with op.batch_alter_table("table_messages") as batch:
        batch.alter_column("sender_user_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("game_clocks") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bots_due_at")
