"""Window answers run on a clock of their own: ``game_clocks.window_hours`` (null: a sixth
of the time per decision, at least an hour, which is what every existing game gets).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("game_clocks") as batch:
        batch.add_column(sa.Column("window_hours", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_clocks") as batch:
        batch.drop_column("window_hours")
