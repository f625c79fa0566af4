"""A seat remembers when its player last had the game's page open: ``seats.on_page_at``
(null: never, which is what every existing seat gets), so that a player who is on the page
gets no "your move" mail for the decision in front of them.

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
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("on_page_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("on_page_at")
