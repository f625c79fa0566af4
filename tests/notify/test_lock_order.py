"""The creator's controls and a passed deadline lock a game's row before they touch its
open decisions, in the order a command locks them (its version ``UPDATE``, then its open
decisions): meeting a command in flight, they wait for it instead of deadlocking with it.

PostgreSQL only.  Each test holds the game's row in a transaction of its own, as a
command's version ``UPDATE`` holds it until its COMMIT, starts the control in a thread,
waits until the control waits for that lock, then writes the game's open decisions in
the same transaction, as the command does next.  Had the control locked an open decision
first, the two would wait for each other and PostgreSQL would fail one of them.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from sqlalchemy import select, text

from service.play import deadlines
from service.plumbing import database
from service.plumbing.db import GameClock, OpenDecision, StoredEvent, User
from tests.notify.helpers import new_game


@pytest.fixture
def postgresql(app) -> None:
    if database.engine(app).dialect.name != "postgresql":
        pytest.skip("SQLite's writer holds the whole database: two writers never hold rows the other wants")


def _user(s, name: str) -> User:
    return s.scalars(select(User).where(User.email == f"{name}@example.org")).one()


def _waits_for_a_row(engine, timeout: float = 20.0) -> bool:
    """Another session of the test's database is waiting for a lock (the control, held up
    by the command's row)."""
    deadline = time.monotonic() + timeout
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as watch:
        while time.monotonic() < deadline:
            waiting = watch.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'")).scalar()
            if waiting:
                return True
            time.sleep(0.02)
    return False


def _meets_a_command(app, game_id: str, control) -> list:
    """``control()`` run in a thread while a command's transaction holds the game's row;
    once it waits for that row, the command writes every open decision of the game and
    ends.  The errors of either side."""
    engine = database.engine(app)
    errors: list = []

    def run() -> None:
        try:
            control()
        except Exception as err:  # (the test asserts there is none)
            errors.append(("control", err))

    thread = threading.Thread(target=run)
    with engine.connect() as command:
        command.execute(text("UPDATE games SET updated_at = updated_at WHERE id = :g"), {"g": game_id})
        thread.start()
        assert _waits_for_a_row(engine), "the control waits for the command's row"
        try:
            command.execute(text("SET LOCAL lock_timeout = '5s'"))
            command.execute(text("UPDATE open_decisions SET version = version WHERE game_id = :g"), {"g": game_id})
        except Exception as err:
            errors.append(("command", err))
        command.rollback()
    thread.join(60)
    assert not thread.is_alive(), "the control went on once the command ended"
    return errors


def test_a_pause_meeting_a_command_waits_for_it(app, postgresql, sessions, cfg):
    game_id, _users = new_game(sessions, cfg, options={"target": 1000})

    def pause() -> None:
        with sessions() as s:
            deadlines.pause(s, cfg, game_id, _user(s, "ann"), "tea")
            s.commit()

    assert _meets_a_command(app, game_id, pause) == []
    with sessions() as s:
        assert s.get(GameClock, game_id).paused_at is not None, "the pause went through after the command"
        assert all(d.deadline_at is None for d in s.scalars(
            select(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.mode != "free")))


def test_an_extension_meeting_a_command_waits_for_it(app, postgresql, sessions, cfg):
    game_id, _users = new_game(sessions, cfg, options={"target": 1000})

    def extend() -> None:
        with sessions() as s:
            deadlines.extend(s, cfg, game_id, _user(s, "ann"), 12)
            s.commit()

    assert _meets_a_command(app, game_id, extend) == []
    with sessions() as s:
        kinds = s.scalars(select(StoredEvent.type).where(StoredEvent.game_id == game_id)).all()
        assert "capua.DeadlineExtended" in kinds


def test_a_vacation_day_meeting_a_command_waits_for_it(app, postgresql, sessions, cfg):
    game_id, _users = new_game(sessions, cfg, options={"target": 1000})
    with sessions() as s:
        row = s.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.seat == 1,
                                                   OpenDecision.mode != "free")).one()
        row_id, late = row.id, row.deadline_at + dt.timedelta(seconds=1)
    outcomes: list = []

    def passed_deadline() -> None:
        outcomes.append(deadlines.apply_deadline(sessions, cfg, row_id, now=late))

    assert _meets_a_command(app, game_id, passed_deadline) == []
    assert outcomes == ["vacation"]
    with sessions() as s:
        assert s.get(OpenDecision, row_id).deadline_at > late, "the vacation day moved the deadline"
