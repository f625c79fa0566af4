"""A real Celery worker and beat (subprocess) on CI's Redis, delivering to a real SMTP
server on loopback.

The worker is killed with SIGKILL in the middle of an SMTP conversation: the message it
was sending stays claimed (``sending``) until the claim is older than the task time
limit, then the beat sweep puts it back and a worker sends it, so nothing is lost; and
the sink, counting by ``Message-ID``, sees every message exactly once.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from service.identity import auth
from service.play import games
from service.plumbing import mail
from service.plumbing.config import load_config
from service.plumbing.db import Game, MailMessage, OpenDecision, StoredEvent
from tests.worker.conftest import wait_until


def _queue_mail(session_factory, n: int) -> list[int]:
    with session_factory() as s:
        ids = [mail.queue_mail(s, to=f"p{i}@example.org", subject=f"Mail {i}", text="Hello").id for i in range(n)]
        s.commit()
        return ids


def _statuses(session_factory) -> dict[int, str]:
    with session_factory() as s:
        return {row.id: row.status for row in s.scalars(select(MailMessage))}


def test_a_worker_killed_mid_delivery_loses_nothing_and_sends_nothing_twice(
        session_factory, smtp_sink, start_worker, producer, celery_env):
    ids = _queue_mail(session_factory, 3)
    smtp_sink.hold_rcpt.set()  # the server stops answering in the middle of the first conversation
    first = start_worker()
    for message_id in ids:
        producer.send_task("worker.tasks.deliver_mail", args=[message_id])
    assert smtp_sink.holding.wait(60), first.output()[-3000:]
    first.kill()
    smtp_sink.release.set()
    assert any(status == "sending" for status in _statuses(session_factory).values()), \
        "the dead worker's claim is still there"
    assert smtp_sink.by_message_id() == {}, "the server never got the data of the interrupted conversation"

    second = start_worker()
    wait_until(lambda: set(_statuses(session_factory).values()) == {"sent"}, 45, "every mail sent", second)
    counts = smtp_sink.by_message_id()
    assert len(counts) == 3 and set(counts.values()) == {1}, counts
    assert "was stuck with a dead worker" in second.output()


def test_beat_applies_a_passed_deadline_and_the_next_player_is_mailed(
        session_factory, smtp_sink, start_worker, celery_env, monkeypatch):
    from engine import registry
    from tests.service import fake_game

    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    config = load_config(environ=celery_env)
    with session_factory() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        bob = auth.get_or_create_user(s, "bob@example.org")
        game = games.create_game(s, config, creator=ann, game_type="pax", options={}, seats=2,
                                 creator_seat=0, invites=["bob@example.org"], clock={"vacation": False})
        games.join_game(s, config, game.id, bob)
        s.commit()
        game_id = game.id
        s.execute(update(OpenDecision).where(OpenDecision.game_id == game_id)
                  .values(deadline_at=dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)))
        s.commit()
    worker = start_worker()

    def missed() -> bool:
        with session_factory() as s:
            return s.scalar(select(StoredEvent.id).where(StoredEvent.game_id == game_id,
                                                         StoredEvent.type == "capua.DeadlineMissed")) is not None

    wait_until(missed, 45, "the deadline default", worker)
    wait_until(lambda: len(smtp_sink.received()) >= 2, 30, "mail to the players", worker)
    with session_factory() as s:
        assert s.get(Game, game_id).status in ("running", "finished")
