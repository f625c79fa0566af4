"""The notification and deadline tasks, called directly as the worker runs them, with
the broker replaced by recording fakes."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select, update

from service.identity import auth
from service.notify import notifications
from service.play import games
from service.plumbing import mail
from service.plumbing.db import Game, Notification, OpenDecision, utcnow
from tests.web.support import outbox_files
from worker import tasks
from worker.celery_app import app as celery_app


@pytest.fixture(autouse=True)
def count_game(monkeypatch):
    from engine import registry
    from tests.service import fake_game

    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")


@pytest.fixture
def worker_runtime(monkeypatch, config, session_factory):
    monkeypatch.setattr(tasks, "runtime", lambda: tasks.Runtime(config=config, sessions=session_factory))


@pytest.fixture
def enqueued(monkeypatch):
    calls = []
    for task in (tasks.deliver_mail, tasks.apply_deadline, tasks.send_reminder, tasks.compose_notifications,
                 tasks.play_bots):
        monkeypatch.setattr(task, "apply_async", lambda args, _name=task.name, **kw: calls.append((_name, args, kw)))
    return calls


def _game(session_factory, config):
    with session_factory() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        bob = auth.get_or_create_user(s, "bob@example.org")
        game = games.create_game(s, config, creator=ann, game_type="count", options={"target": 1000}, seats=2,
                                 invites=["bob@example.org"], clock={"vacation": False})
        games.join_game(s, config, game.id, bob)
        s.commit()
        return game.id


def test_compose_task_mails_and_hands_the_mail_to_delivery(worker_runtime, session_factory, config, enqueued):
    _game(session_factory, config)
    with session_factory() as s:
        users = sorted({n.user_id for n in s.scalars(select(Notification).where(Notification.status == "pending"))})
    assert tasks.compose_notifications(users) == 2, "one task composes and sends every player's mail"
    assert tasks.compose_notifications(users) == 0, "nothing left: a duplicate task is a no-op"
    assert len(outbox_files(config)) == 2 and enqueued == []


def test_the_outbox_sweep_composes_and_resets_stuck_mail(worker_runtime, session_factory, config, enqueued):
    _game(session_factory, config)
    with session_factory() as s:
        stuck = mail.queue_mail(s, to="x@example.org", subject="s", text="t")
        s.flush()
        s.execute(update(mail.MailMessage).where(mail.MailMessage.id == stuck.id)
                  .values(status="sending", claimed_at=utcnow() - dt.timedelta(hours=1)))
        s.commit()
    assert tasks.sweep_outbox() == 3, "the two players' mail and the one a dead worker left"
    assert mail.pending_ids(session_factory) == [] and len(outbox_files(config)) == 3


def test_the_deadline_sweep_enqueues_and_the_task_applies(worker_runtime, session_factory, config, enqueued):
    game_id = _game(session_factory, config)
    with session_factory() as s:
        s.execute(update(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.seat == 1)
                  .values(deadline_at=utcnow() - dt.timedelta(seconds=1)))
        s.commit()
    assert tasks.sweep_deadlines() == 1
    (name, (row_id,), kw), = [c for c in enqueued if c[0] == "worker.tasks.apply_deadline"]
    assert kw["queue"] == config.celery_queue
    assert tasks.apply_deadline(row_id) == "applied"
    assert tasks.apply_deadline(row_id) == "not_due"


def test_deadline_tasks_are_scheduled_only_when_near(config, enqueued):
    now = utcnow()
    tasks.enqueue_deadlines(config, [(1, now + dt.timedelta(minutes=5)), (2, now + dt.timedelta(hours=20))])
    assert [(args, kw["eta"]) for _n, args, kw in enqueued] == [((1,), now + dt.timedelta(minutes=5))]


def test_committing_notifications_wakes_the_composer(worker_runtime, session_factory, config, enqueued, monkeypatch):
    import dataclasses

    with_redis = dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0")
    with session_factory() as s:
        user = auth.get_or_create_user(s, "ann@example.org")
        notifications.notify(s, with_redis, user, kind="invitation_declined", game=None, seat=None, payload={})
        assert [c for c in enqueued if c[0] == "worker.tasks.compose_notifications"] == [], "not before commit"
        s.commit()
    assert [args for name, args, _k in enqueued if name == "worker.tasks.compose_notifications"] == [([user.id],)]


def test_a_broker_outage_does_not_fail_the_commit(session_factory, config, monkeypatch):
    import dataclasses

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.compose_notifications, "apply_async", down)
    with_redis = dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0")
    with session_factory() as s:
        user = auth.get_or_create_user(s, "ann@example.org")
        notifications.notify(s, with_redis, user, kind="invitation_declined", game=None, seat=None, payload={})
        s.commit()
    with session_factory() as s:
        assert s.scalar(select(Notification.status)) == "pending", "the sweep will find it"


def test_beat_runs_the_sweeps_and_tasks_are_reliable():
    conf = celery_app.conf
    schedule = conf.beat_schedule
    assert schedule["sweep-deadlines"]["task"] == "worker.tasks.sweep_deadlines"
    assert schedule["sweep-deadlines"]["schedule"] <= 5, "deadlines are applied within seconds"
    assert schedule["sweep-outbox"]["task"] == "worker.tasks.sweep_outbox"
    assert schedule["sweep-bots"]["task"] == "worker.tasks.sweep_bots"
    for name in ("deliver_mail", "compose_notifications", "apply_deadline", "send_reminder", "play_bots"):
        task = celery_app.tasks[f"worker.tasks.{name}"]
        assert task.acks_late
    assert tasks.deliver_mail.retry_backoff and tasks.deliver_mail.retry_jitter and tasks.deliver_mail.retry_backoff_max
    assert conf.task_time_limit and conf.task_soft_time_limit < conf.task_time_limit


def test_a_searching_bot_is_a_task_that_plays_the_game_on(worker_runtime, session_factory, config, enqueued,
                                                          monkeypatch):
    import dataclasses

    from service.play import bots

    monkeypatch.setattr(bots, "_sleep", lambda seconds: None)  # the pacing is tests/service/test_bot_turns.py's
    with_redis = dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0")
    with session_factory() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        game = games.create_game(s, with_redis, creator=ann, game_type="count", options={"target": 1000}, seats=2,
                                 bot_seats=[1], bot_levels={"1": "normal"})
        game_id = game.id
        assert [c for c in enqueued if c[0] == "worker.tasks.play_bots"] == [], "not before commit"
        s.commit()
    assert [args for name, args, _k in enqueued if name == "worker.tasks.play_bots"] == [(game_id,)]
    assert tasks.sweep_bots() == 0, "a game a task was just given is not overdue"
    assert tasks.play_bots(game_id) >= 1
    with session_factory() as s:
        assert s.get(Game, game_id).bots_due_at is None
    assert [args for name, args, _k in enqueued if name == "worker.tasks.play_bots"] == [(game_id,)], \
        "no second task for a game whose bots have answered"
