"""Webhooks, standing orders and table talk: webhook endpoints with their delivery
outbox and attempt log, players' standing orders, and table-talk messages with their
recipients.

Written against ``service/plumbing/db.py`` as of this revision, with plain SQLAlchemy types
(``UTCDateTime`` is ``DateTime(timezone=True)`` in the database; the 64-bit ids are
``BIGINT`` on PostgreSQL and ``INTEGER`` on SQLite, where only that type auto-increments).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _utc(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _big_id(name: str = "id", **kwargs) -> sa.Column:
    return sa.Column(name, sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False, **kwargs)


def upgrade() -> None:
    op.create_table(
        "webhook_endpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("description", sa.String(length=200), nullable=False),
        sa.Column("event_types", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(length=120), nullable=False),
        sa.Column("previous_secret", sa.String(length=120), nullable=True),
        _utc("previous_secret_expires_at"),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("disabled_reason", sa.String(length=300), nullable=False),
        _utc("disabled_at"),
        _utc("created_at", nullable=False),
        _utc("updated_at", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhook_endpoints_game_id", "webhook_endpoints", ["game_id"])
    op.create_index("ix_webhook_endpoints_user_id", "webhook_endpoints", ["user_id"])

    op.create_table(
        "webhook_deliveries",
        _big_id(),
        sa.Column("endpoint_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("event_type", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _utc("next_attempt_at", nullable=False),
        _utc("locked_until"),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        _utc("created_at", nullable=False),
        _utc("delivered_at"),
        sa.ForeignKeyConstraint(["endpoint_id"], ["webhook_endpoints.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id"),
    )
    op.create_index("ix_webhook_deliveries_endpoint_id", "webhook_deliveries", ["endpoint_id"])
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])

    op.create_table(
        "webhook_attempts",
        _big_id(),
        _big_id("delivery_id"),
        _utc("started_at", nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("response_excerpt", sa.Text(), nullable=False),
        sa.Column("manual", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["delivery_id"], ["webhook_deliveries.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhook_attempts_delivery_id", "webhook_attempts", ["delivery_id"])

    op.create_table(
        "standing_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("game_type", sa.String(length=32), nullable=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("rule", sa.JSON(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        _utc("last_used_at"),
        sa.Column("last_used_game_id", sa.String(length=32), nullable=True),
        _utc("created_at", nullable=False),
        _utc("updated_at", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_standing_orders_game_id", "standing_orders", ["game_id"])
    op.create_index("ix_standing_orders_user_id", "standing_orders", ["user_id"])

    op.create_table(
        "table_messages",
        _big_id(),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("sender_user_id", sa.Integer(), nullable=False),
        sa.Column("sender_seat", sa.Integer(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("reply_to_id", sa.BigInteger(), nullable=True),
        sa.Column("via", sa.String(length=16), nullable=False),
        sa.Column("inbound_message_id", sa.String(length=255), nullable=True),
        _utc("created_at", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["sender_user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("inbound_message_id"),
    )
    op.create_index("ix_table_messages_game", "table_messages", ["game_id", "id"])

    op.create_table(
        "table_message_recipients",
        _big_id("message_id"),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["table_messages.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("message_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("table_message_recipients")
    op.drop_index("ix_table_messages_game", table_name="table_messages")
    op.drop_table("table_messages")
    op.drop_index("ix_standing_orders_user_id", table_name="standing_orders")
    op.drop_index("ix_standing_orders_game_id", table_name="standing_orders")
    op.drop_table("standing_orders")
    op.drop_index("ix_webhook_attempts_delivery_id", table_name="webhook_attempts")
    op.drop_table("webhook_attempts")
    op.drop_index("ix_webhook_deliveries_due", table_name="webhook_deliveries")
    op.drop_index("ix_webhook_deliveries_endpoint_id", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_index("ix_webhook_endpoints_user_id", table_name="webhook_endpoints")
    op.drop_index("ix_webhook_endpoints_game_id", table_name="webhook_endpoints")
    op.drop_table("webhook_endpoints")
