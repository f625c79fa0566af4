"""Notifications, deadlines and absence: clock policies, notification preferences and
outbox, vacations, the deadline/reminder columns of open decisions, the absence columns
of seats and the delivery claim of mail.

Written against ``service/plumbing/db.py`` as of this revision, with plain SQLAlchemy types
(``UTCDateTime`` is ``DateTime(timezone=True)`` in the database).  New NOT NULL columns
of existing tables get a server default for the rows already there, which is dropped
again so the schema matches the models (they set the value in Python).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _utc(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("missed_deadlines", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(_utc("bot_since"))
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("missed_deadlines", server_default=None)

    with op.batch_alter_table("open_decisions") as batch:
        batch.add_column(sa.Column("opened_version", sa.BigInteger(), nullable=True))
        batch.add_column(_utc("remind_at"))
        batch.add_column(_utc("reminded_for"))
        batch.add_column(_utc("claimed_at"))
        batch.add_column(sa.Column("claim_token", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("paused_remaining_s", sa.Integer(), nullable=True))

    with op.batch_alter_table("mail_messages") as batch:
        batch.add_column(_utc("claimed_at"))

    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("time_of_day", sa.String(length=5), nullable=True),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("weekend_pause", sa.Boolean(), nullable=False),
        sa.Column("bot_after_missed", sa.Integer(), nullable=False),
        sa.Column("vacation", sa.Boolean(), nullable=False),
        _utc("paused_at"),
        sa.Column("paused_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "notification_preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("act_delivery", sa.String(length=16), nullable=False),
        sa.Column("info_delivery", sa.String(length=16), nullable=False),
        sa.Column("digest_hour", sa.Integer(), nullable=False),
        sa.Column("quiet_start", sa.Integer(), nullable=True),
        sa.Column("quiet_end", sa.Integer(), nullable=True),
        sa.Column("reminder_lead_hours", sa.Integer(), nullable=True),
        sa.Column("email_enabled", sa.Boolean(), nullable=False),
        _utc("updated_at", nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "game_notification_preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("act_delivery", sa.String(length=16), nullable=True),
        sa.Column("info_delivery", sa.String(length=16), nullable=True),
        sa.Column("reminder_lead_hours", sa.Integer(), nullable=True),
        _utc("updated_at", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game_id"),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("urgent", sa.Boolean(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        _utc("created_at", nullable=False),
        _utc("due_at", nullable=False),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        _utc("done_at"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notifications_due", "notifications", ["status", "due_at"])
    op.create_index("ix_notifications_user", "notifications", ["user_id", "status"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        _utc("created_at", nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_vacations_user_id", "vacations", ["user_id"])
    op.create_table(
        "vacation_days",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        _utc("created_at", nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "day"),
    )


def downgrade() -> None:
    for table in ("vacation_days", "vacations", "notifications", "game_notification_preferences",
                  "notification_preferences", "game_clocks"):
        op.drop_table(table)
    with op.batch_alter_table("mail_messages") as batch:
        batch.drop_column("claimed_at")
    with op.batch_alter_table("open_decisions") as batch:
        for column in ("paused_remaining_s", "claim_token", "claimed_at", "reminded_for", "remind_at",
                       "opened_version"):
            batch.drop_column(column)
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_since")
        batch.drop_column("missed_deadlines")
