"""The embedded mode: with no Redis, ``capua serve``'s worker thread runs the same work as
Celery worker and beat: it mails the player after a commit, and applies passed deadlines
on its own schedule (a real thread, nothing eager inside the request)."""

from __future__ import annotations

import datetime as dt
import time

from sqlalchemy import select, update

from service import inprocess
from service.plumbing.db import OpenDecision, StoredEvent
from tests.notify.helpers import new_game


def _wait(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_the_worker_thread_mails_and_applies_deadlines(sessions, cfg, smtp_sink, stop_workers):
    worker = inprocess.start(sessions, cfg, interval=0.2)
    assert [getattr(j, "__name__", type(j).__name__) for j in worker.jobs][:4] == \
        ["apply_deadlines", "play_bots", "send_reminders", "compose_notifications"]
    game_id, users = new_game(sessions, cfg, options={"target": 1000}, clock={"vacation": False})
    assert _wait(lambda: {str(m["To"]) for m in smtp_sink.received()} == {"ann@example.org", "bob@example.org"}), \
        "the commit woke the thread, which composed and sent both players' mail"
    with sessions() as s:
        s.execute(update(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.seat == 1)
                  .values(deadline_at=dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)))
        s.commit()

    def missed():
        with sessions() as s:
            return s.scalar(select(StoredEvent.id).where(StoredEvent.game_id == game_id,
                                                         StoredEvent.type == "capua.DeadlineMissed")) is not None

    assert _wait(missed), "the thread's deadline sweep played bob's default"
