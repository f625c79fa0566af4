"""Every command reads when each seated player was last mailed (for the coalescing
window); that read costs the database the same however long the player's mail history,
which nothing ever shortens (the index ``(user_id, status, done_at)`` of migration 0008:
the answer is its last entry for the player's mailed notifications)."""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import insert

from service.play import at_hand
from service.plumbing import database
from service.plumbing.db import Notification, utcnow
from tests.notify.helpers import new_game


def _mail_history(sessions, user_id: int, count: int, newest: dt.datetime) -> None:
    """``count`` mailed notifications of the user, the newest done at ``newest``."""
    with sessions() as s:
        s.execute(insert(Notification), [
            {"user_id": user_id, "game_id": None, "kind": "your_turn", "urgent": False, "payload": {},
             "status": "mailed", "created_at": newest - dt.timedelta(minutes=i + 1),
             "due_at": newest - dt.timedelta(minutes=i + 1), "done_at": newest - dt.timedelta(minutes=i)}
            for i in range(count)])
        s.commit()


def _nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _work(app, game_id: str) -> int:
    """What the game's statement (:func:`service.play.at_hand.load`) cost the database in
    the players' notifications: on PostgreSQL the rows its plan read from them (the plan
    run and measured by ``EXPLAIN ANALYZE``, after ``ANALYZE``); on SQLite, which tells
    no rows, the steps of its virtual machine for the whole statement."""
    engine = database.engine(app)
    postgresql = engine.dialect.name == "postgresql"
    query = at_hand._query(postgresql)[0].params(game_id=game_id)
    sql = str(query.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    if postgresql:
        with engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE notifications")
            plan = conn.exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + sql).scalar()
            conn.rollback()
        plan = plan if isinstance(plan, list) else json.loads(plan)
        return sum(node["Actual Rows"] * node["Actual Loops"] for node in _nodes(plan[0]["Plan"])
                   if node.get("Relation Name") == "notifications")
    raw = engine.raw_connection()
    try:
        sqlite = raw.driver_connection
        steps = [0]

        def count() -> int:
            steps[0] += 1
            return 0

        sqlite.set_progress_handler(count, 1)
        try:
            sqlite.execute(sql).fetchall()
        finally:
            sqlite.set_progress_handler(None, 1)
        return steps[0]
    finally:
        raw.close()


def test_a_players_last_mail_costs_the_same_whatever_their_history(app, sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    now = utcnow().replace(microsecond=0)
    _mail_history(sessions, users["ann"], 10, now - dt.timedelta(days=30))
    short = _work(app, game_id)
    _mail_history(sessions, users["ann"], 3000, now)
    long = _work(app, game_id)
    if database.engine(app).dialect.name == "postgresql":
        assert long <= 2, f"one notification read per seat at most, not the player's history ({long} rows)"
    else:
        assert long - short < 100, f"{short} steps with 10 mails, {long} with 3,010"
    with sessions() as s:
        assert at_hand.load(s, game_id).last_mailed == {users["ann"]: now}, "and the answer is the newest mail"
