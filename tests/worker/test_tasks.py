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
    tasks.enqueue_deadlines(config, [(1, now + dt.timedelta(seconds=50)), (2, now + dt.timedelta(minutes=5))])
    assert [(args, kw["eta"]) for _n, args, kw in enqueued] == [((1,), now + dt.timedelta(seconds=50))]


def test_committing_notifications_wakes_the_composer(worker_runtime, session_factory, config, enqueued, monkeypatch):
    import dataclasses

    with_redis = dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0")
    with session_factory() as s:
        user = auth.get_or_create_user(s, "ann@example.org")
        notifications.notify(s, with_redis, user, kind="invitation_declined", game=None, seat=None, payload={})
        assert [c for c in enqueued if c[0] == "worker.tasks.compose_notifications"] == [], "not before commit"
        s.commit()
    assert [args for name, args, _k in enqueued if name == "worker.tasks.compose_notifications"] == [([user.id],)]


def test_a_notification_due_later_waits_for_the_sweep(worker_runtime, session_factory, config, enqueued):
    """Mailed a moment ago, the player's next notification is held for the coalescing
    window: the commit wakes no composer (it would find nothing due), and the outbox
    sweep composes the row once its time has come."""
    import dataclasses

    from service.notify import mailing

    with_redis = dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0")
    mailed_at = utcnow()
    with session_factory() as s:
        user = auth.get_or_create_user(s, "ann@example.org")
        s.add(Notification(user_id=user.id, kind="invitation_declined", urgent=True, payload={}, status="mailed",
                           created_at=mailed_at, due_at=mailed_at, done_at=mailed_at))
        s.flush()
        notifications.notify(s, with_redis, user, kind="invitation_declined", game=None, seat=None, payload={})
        s.commit()
        user_id = user.id
    assert [c for c in enqueued if c[0] == "worker.tasks.compose_notifications"] == []
    with session_factory() as s:
        due_at = s.scalar(select(Notification.due_at).where(Notification.status == "pending"))
    due_at = due_at if due_at.tzinfo else due_at.replace(tzinfo=dt.timezone.utc)
    assert due_at == mailed_at + dt.timedelta(seconds=config.notify_coalesce_seconds)

    def pending() -> int:
        with session_factory() as s:
            return len(s.scalars(select(Notification.id).where(Notification.user_id == user_id,
                                                                Notification.status == "pending")).all())

    mailing.compose_due(session_factory, config, now=due_at - dt.timedelta(seconds=1))
    assert pending() == 1, "not due yet: the sweep leaves it"
    mailing.compose_due(session_factory, config, now=due_at + dt.timedelta(seconds=1))
    assert pending() == 0, "once due, the sweep composes it"


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


def test_the_broker_hands_a_message_out_again_only_after_the_longest_a_live_worker_holds_it():
    """The visibility timeout follows the task time limit: longer than any countdown a
    worker holds plus the time limit (a live worker's message never runs twice at once),
    and minutes rather than Celery's hour (a dead worker's message comes back soon)."""
    from service.play import deadlines
    from worker.celery_app import LONGEST_COUNTDOWN, VISIBILITY_TIMEOUT

    conf = celery_app.conf
    assert conf.broker_transport_options["visibility_timeout"] == VISIBILITY_TIMEOUT
    assert VISIBILITY_TIMEOUT > LONGEST_COUNTDOWN + conf.task_time_limit
    assert VISIBILITY_TIMEOUT <= 5 * 60
    assert deadlines.ETA_HORIZON.total_seconds() <= LONGEST_COUNTDOWN
    assert tasks.WEBHOOK_COUNTDOWN_MAX <= LONGEST_COUNTDOWN
    assert mail.RETRY_FIRST_SECONDS <= LONGEST_COUNTDOWN


def test_by_default_a_crashed_send_goes_out_again_within_half_a_minute():
    """The lease of a send, then at most one sweep interval, then the send itself."""
    from service.plumbing.config import load_config

    defaults = load_config(environ={"CAPUA_SECRET_KEY": "test"})
    assert defaults.mail_lease_seconds + defaults.outbox_sweep_seconds <= 20
    assert defaults.mail_lease_seconds <= defaults.task_time_limit_seconds
    assert celery_app.conf.beat_schedule["sweep-outbox"]["schedule"] == defaults.outbox_sweep_seconds


class WorkerKilled(BaseException):
    """What the process sees of a ``kill -9``: nothing after this point runs."""


class DrivenClock:
    """The outbox's two clocks (database time and the monotonic one of a send's lease),
    moved by the test."""

    def __init__(self) -> None:
        self.now, self.mono = utcnow(), 1000.0

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)
        self.mono += seconds

    def monotonic(self) -> float:
        return self.mono


@pytest.fixture
def driven_clock(monkeypatch):
    import types

    clock = DrivenClock()
    monkeypatch.setattr(mail, "utcnow", lambda: clock.now)
    monkeypatch.setattr(mail, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    return clock


def test_a_send_whose_worker_died_goes_out_again_exactly_once_when_its_lease_ends(
        worker_runtime, session_factory, config, driven_clock, monkeypatch):
    with session_factory() as s:
        message_id = mail.queue_mail(s, to="ann@example.org", subject="Your move", text="Play now.").id
        s.commit()

    def killed_mid_conversation(self, message, key):
        raise WorkerKilled()

    monkeypatch.setattr(mail.OutboxBackend, "send", killed_mid_conversation)
    with pytest.raises(WorkerKilled):
        tasks.deliver_mail(message_id)
    handed_over: list[str] = []
    monkeypatch.setattr(mail.OutboxBackend, "send", lambda self, message, key: handed_over.append(message["Message-ID"]))

    driven_clock.advance(mail.lease(config).total_seconds() - 1)
    assert tasks.sweep_outbox() == 0, "the lease still holds: the worker might be alive and sending"
    assert tasks.deliver_mail(message_id) is False, "the broker's redelivery finds the row claimed"
    assert handed_over == []

    driven_clock.advance(2)
    assert tasks.sweep_outbox() == 1, "the lease ended: the sweep sends it again"
    assert tasks.sweep_outbox() == 0 and tasks.deliver_mail(message_id) is False
    assert mail.due_ids(session_factory, now=driven_clock.now + dt.timedelta(hours=1)) == []
    assert handed_over == [mail.build_email(config, _row(session_factory, message_id))["Message-ID"]], \
        "sent exactly once, with the message's own Message-ID"
    assert _row(session_factory, message_id).status == "sent"


def _row(session_factory, message_id):
    with session_factory() as s:
        row = s.get(mail.MailMessage, message_id)
        s.expunge(row)
        return row


def test_a_long_burst_renews_its_lease_so_no_sweep_takes_a_live_worker_s_mail(
        session_factory, config, driven_clock, monkeypatch):
    with session_factory() as s:
        ids = [mail.queue_mail(s, to=f"p{i}@example.org", subject=f"Mail {i}", text="t").id for i in range(8)]
        s.commit()
    lease = mail.lease(config).total_seconds()
    claimed_at = driven_clock.now
    handed_over, taken_by_sweeps = [], []

    def slow_send(self, message, key):
        driven_clock.advance(lease * 0.3)
        # a sweep elsewhere, at every moment the burst is under way
        taken_by_sweeps.extend(mail.reset_stuck(session_factory, config))
        handed_over.append(message["Message-ID"])

    monkeypatch.setattr(mail.OutboxBackend, "send", slow_send)
    assert mail.deliver_many(session_factory, config, ids) == (8, [])
    assert driven_clock.now - claimed_at > 2 * mail.lease(config), "the burst outlasted the first lease"
    assert taken_by_sweeps == [] and len(set(handed_over)) == len(handed_over) == 8


def test_a_renewal_leaves_out_what_a_sweep_took_first(session_factory, config, driven_clock, monkeypatch):
    with session_factory() as s:
        ids = [mail.queue_mail(s, to=f"p{i}@example.org", subject=f"Mail {i}", text="t").id for i in range(3)]
        s.commit()
    handed_over, taken_by_sweeps = [], []

    def stalled_send(self, message, key):
        handed_over.append(key)
        driven_clock.advance(mail.lease(config).total_seconds() + 1)  # stalled beyond its lease

    renew = mail._renew

    def swept_first(session, rows, stamp):
        taken_by_sweeps.extend(mail.reset_stuck(session_factory, config))
        return renew(session, rows, stamp)

    monkeypatch.setattr(mail.OutboxBackend, "send", stalled_send)
    monkeypatch.setattr(mail, "_renew", swept_first)
    assert mail.deliver_many(session_factory, config, ids) == (1, []), "it sends none of the rows it lost"
    assert taken_by_sweeps == ids[1:] and len(handed_over) == 1
    assert mail.pending_ids(session_factory) == ids[1:]
