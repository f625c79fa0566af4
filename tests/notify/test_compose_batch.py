"""The composer writes a batch of players' mails with a fixed number of statements: one
INSERT of the mails and one conditional UPDATE of the rows, not two per player."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import event, select

from service.identity import auth
from service.notify import mailing, notifications
from service.plumbing.db import Game, MailMessage, Notification, User, utcnow
from service.plumbing import database
from tests.notify.helpers import new_game


def _fan_out(sessions, cfg, game_id, names):
    with sessions() as s:
        users = [auth.get_or_create_user(s, f"{n}@example.org") for n in names]
        s.commit()
        notifications.notify_many(s, cfg, users, kind="news", game=s.get(Game, game_id), seat=None,
                                  payload={"events": [{"seq": 1, "type": "Added", "data": {"seat": 0, "n": 1}}],
                                           "seat_names": {"0": "Ann"}})
        s.commit()
        return [u.id for u in users]


def _statements(app, sessions, cfg, ids):
    engine = database.engine(app)
    seen = []

    def count(conn, cursor, statement, *args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        mails = mailing.compose_many(sessions, cfg, ids, utcnow() + dt.timedelta(days=2))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return mails, seen


def test_a_batch_costs_the_same_statements_for_3_or_12_players(app, sessions, cfg):
    game_id, _users = new_game(sessions, cfg)
    with sessions() as s:  # what starting the game notified is not part of this test
        s.query(Notification).delete()
        s.commit()
    few = _fan_out(sessions, cfg, game_id, [f"few{i}" for i in range(3)])
    many = _fan_out(sessions, cfg, game_id, [f"many{i}" for i in range(12)])
    few_mails, few_statements = _statements(app, sessions, cfg, few)
    many_mails, many_statements = _statements(app, sessions, cfg, many)
    assert len(few_mails) == 3 and len(many_mails) == 12
    # Apart from the mails' INSERT (one statement on PostgreSQL; SQLite without batched
    # RETURNING gets one per row from SQLAlchemy), the statements do not grow with players.
    def others(statements):
        return [st for st in statements if not st.lstrip().upper().startswith("INSERT INTO MAIL_MESSAGES")]

    assert len(others(many_statements)) == len(others(few_statements))
    assert sum(st.lstrip().upper().startswith("UPDATE NOTIFICATIONS") for st in many_statements) == 1
    with sessions() as s:
        rows = list(s.scalars(select(Notification).where(Notification.user_id.in_(few + many))))
        assert {r.status for r in rows} == {"mailed"} and len(rows) == 15
        mails = {m.id: m for m in s.scalars(select(MailMessage).where(MailMessage.id.in_(few_mails + many_mails)))}
        emails = {u.id: u.email for u in s.scalars(select(User).where(User.id.in_(few + many)))}
        assert sorted(mails) == sorted(few_mails + many_mails)
        for row in rows:  # each row points at its own player's mail
            assert mails[row.mail_id].to_address == emails[row.user_id]
