"""Webhook endpoints say why they were turned off as a code with details
(``disabled_code``, ``disabled_details``), so the reason can be told in the owner's
language; ``disabled_reason`` keeps its English sentence.

Existing rows are read back from the sentences Capua wrote before (see
``service.notify.webhooks.reason_sentence``); a sentence that matches none of them becomes
``other`` and is kept as written.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

import re
from typing import Any, Optional, Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# The reason column held at most 300 characters, so the closing parenthesis may be cut off.
_REFUSED = re.compile(r"^its address was refused \((?P<detail>.*?)\)?$", re.S)
_EXHAUSTED = re.compile(r"^a message failed (?P<attempts>\d+) attempts in a row \(last: (?P<error>.*?)\)?$", re.S)
_ANSWERED = re.compile(r"^the receiver answered (?P<status>\d{3})$")
_HOST = re.compile(r"^(?P<host>\S+?)(?: resolves to |: | is | cannot )")

endpoints = sa.table("webhook_endpoints", sa.column("id", sa.Integer()), sa.column("status", sa.String()),
                     sa.column("disabled_reason", sa.String()), sa.column("disabled_code", sa.String()),
                     sa.column("disabled_details", sa.JSON()))


def code_of(reason: str) -> tuple[str, Optional[dict[str, Any]]]:
    """``(disabled_code, disabled_details)`` of an English reason written before 0004."""
    if not reason:
        return "", None
    if reason == "disabled by you":
        return "by_owner", None
    if reason == "the receiver answered 410 Gone":
        return "gone_410", None
    refused = _REFUSED.match(reason)
    if refused:
        detail = refused.group("detail")
        host = _HOST.match(detail)
        return "address_refused", {"host": host.group("host") if host else "", "detail": detail}
    exhausted = _EXHAUSTED.match(reason)
    if exhausted:
        answered = _ANSWERED.match(exhausted.group("error"))
        return "retries_exhausted", {"attempts": int(exhausted.group("attempts")),
                                     "status": int(answered.group("status")) if answered else None,
                                     "error": exhausted.group("error")}
    return "other", {"text": reason}


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("disabled_code", sa.String(length=32), nullable=False, server_default=""))
        batch.add_column(sa.Column("disabled_details", sa.JSON(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(endpoints.c.id, endpoints.c.status, endpoints.c.disabled_reason)
                              .where(endpoints.c.disabled_reason != "")).all()
    for row in rows:
        code, details = code_of(row.disabled_reason) if row.status != "enabled" else ("", None)
        connection.execute(endpoints.update().where(endpoints.c.id == row.id)
                           .values(disabled_code=code, disabled_details=details))
    # The models give the default; the column keeps none of its own, like every other.
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.alter_column("disabled_code", server_default=None, existing_type=sa.String(length=32),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("disabled_details")
        batch.drop_column("disabled_code")
