"""The embedded worker thread and how committed mail reaches it (or Celery)."""

from __future__ import annotations

import dataclasses
import threading

from service import inprocess
from service.plumbing import mail
from tests.web.support import outbox_files


def commit_mail(session_factory, to="ann@example.org") -> int:
    with session_factory() as s:
        mail.queue_mail(s, to=to, subject="Your move", text="Play now.")
        s.commit()
        (message_id,) = mail.take_queued(s)
        return message_id


def test_the_worker_delivers_after_notify(session_factory, config, stop_workers):
    worker = inprocess.start(session_factory, config, interval=3600)
    assert inprocess.start(session_factory, config) is worker, "one worker per database"
    message_id = commit_mail(session_factory)
    assert outbox_files(config) == []
    mail.notify_mail_committed(config, [message_id])
    assert worker.wait_rounds(1)
    assert len(outbox_files(config)) == 1
    assert mail.pending_ids(session_factory) == []


def test_the_worker_also_polls(session_factory, config, stop_workers):
    worker = inprocess.start(session_factory, config, interval=0.05)
    commit_mail(session_factory)
    assert worker.wait_rounds(worker.rounds + 2)
    assert len(outbox_files(config)) == 1


def test_a_failing_job_does_not_stop_the_worker(session_factory, config, stop_workers):
    ran = threading.Event()

    def broken(sessions, cfg):
        raise RuntimeError("boom")

    worker = inprocess.start(session_factory, config, interval=3600,
                             jobs=[broken, lambda sessions, cfg: ran.set(), inprocess.MailDelivery()])
    commit_mail(session_factory)
    worker.notify()
    assert worker.wait_rounds(1) and ran.is_set()
    worker.notify()
    assert worker.wait_rounds(2) and worker.alive
    assert len(outbox_files(config)) == 1


def _names(jobs) -> list[str]:
    return [getattr(job, "__name__", None) or type(job).__name__ for job in jobs]


def test_a_wake_up_runs_the_jobs_that_work_on_what_was_committed(session_factory, config):
    """Each of the dispatcher's wake-ups runs what Celery would run for it, in the
    default order; the time-based jobs (deadlines, reminders, the outbox's and the keys'
    sweeps) only in the sweep."""
    worker = inprocess.InProcessWorker(session_factory, config)
    assert _names(worker.jobs_for(frozenset({inprocess.MAIL}))) == ["MailDelivery"]
    assert _names(worker.jobs_for(frozenset({inprocess.NOTIFICATIONS}))) == ["compose_notifications", "MailDelivery"]
    assert _names(worker.jobs_for(frozenset({inprocess.WEBHOOKS}))) == ["WebhookDeliveryJob"]
    assert _names(worker.jobs_for(frozenset({inprocess.BOTS}))) == ["play_bots"]
    assert _names(worker.jobs_for(frozenset({inprocess.BOTS, inprocess.MAIL}))) == ["play_bots", "MailDelivery"]
    assert worker.jobs_for(None) == worker.jobs and len(worker.jobs) == 8


def test_the_sweep_runs_every_job_however_often_commits_wake_the_thread(session_factory, config):
    now = [100.0]
    worker = inprocess.InProcessWorker(session_factory, config, interval=2.0, clock=lambda: now[0])
    worker.notify((inprocess.NOTIFICATIONS,))
    worker.notify((inprocess.MAIL,))
    assert worker.next_round(woken=True) == {inprocess.NOTIFICATIONS, inprocess.MAIL}
    now[0] += 1.9
    worker.notify((inprocess.MAIL,))
    assert worker.next_round(woken=True) == {inprocess.MAIL}, "what the last round took is not named again"
    now[0] += 0.1
    worker.notify((inprocess.MAIL,))
    assert worker.next_round(woken=True) is None, "two seconds since every job ran: the sweep's round"
    worker.notify((inprocess.MAIL,))
    assert worker.next_round(woken=True) == {inprocess.MAIL}
    assert worker.next_round(woken=False) is None, "not woken: the interval passed"
    worker.notify()
    assert worker.next_round(woken=True) is None, "a wake-up that names nothing runs every job"


def test_a_committed_mail_runs_the_mail_job_and_those_unmarked(session_factory, config, stop_workers):
    ran: list[str] = []

    @inprocess.wakes_for()
    def sweep_only(sessions, cfg):
        ran.append("sweep")

    @inprocess.wakes_for(inprocess.WEBHOOKS)
    def webhooks(sessions, cfg):
        ran.append("webhooks")

    def unmarked(sessions, cfg):
        ran.append("unmarked")

    worker = inprocess.start(session_factory, config, interval=3600,
                             jobs=[sweep_only, webhooks, unmarked, inprocess.MailDelivery()])
    mail.notify_mail_committed(config, [commit_mail(session_factory)])
    assert worker.wait_rounds(1)
    assert ran == ["unmarked"] and len(outbox_files(config)) == 1
    assert inprocess.notify(config)
    assert worker.wait_rounds(2)
    assert ran == ["unmarked", "sweep", "webhooks", "unmarked"]


def test_notifications_wake_the_thread_only_for_mail_due_at_once(session_factory, config, stop_workers):
    """A commit whose notifications are all due later names no player; its deadlines
    are the sweep's in the embedded mode: no wake-up."""
    composed = []

    @inprocess.wakes_for(inprocess.NOTIFICATIONS)
    def compose(sessions, cfg):
        composed.append(1)

    worker = inprocess.start(session_factory, config, interval=3600, jobs=[compose])
    inprocess.WakeUp().notifications(config, [], [(1, None)])
    assert not worker.wait_rounds(1, timeout=0.3) and composed == []
    inprocess.WakeUp().notifications(config, [7], [])
    assert worker.wait_rounds(1) and composed == [1]


def test_stopping_ends_the_thread(session_factory, config):
    worker = inprocess.start(session_factory, config, interval=3600)
    inprocess.stop(config)
    assert not worker.alive
    assert inprocess.notify(config) is False


def test_notify_without_a_worker_leaves_mail_pending(session_factory, config):
    message_id = commit_mail(session_factory)
    mail.notify_mail_committed(config, [message_id])
    assert mail.pending_ids(session_factory) == [message_id]


def test_mail_delivery_backs_off_from_a_failing_message(session_factory, config, monkeypatch):
    now = [1000.0]
    job = inprocess.MailDelivery(clock=lambda: now[0])
    message_id = commit_mail(session_factory)
    attempts = []

    def broken(self, message, key):
        attempts.append(now[0])
        raise OSError("no route")

    monkeypatch.setattr(mail.OutboxBackend, "send", broken)
    job(session_factory, config)
    job(session_factory, config)
    assert len(attempts) == 1, "a failed message waits before the next try"
    now[0] += inprocess.RETRY_FIRST_SECONDS + 1
    job(session_factory, config)
    assert len(attempts) == 2
    now[0] += inprocess.RETRY_FIRST_SECONDS + 1
    job(session_factory, config)
    assert len(attempts) == 2, "the wait doubles"
    monkeypatch.undo()
    now[0] += 4 * inprocess.RETRY_FIRST_SECONDS
    assert job(session_factory, config) == 1
    assert mail.pending_ids(session_factory) == [] and message_id


def test_with_redis_each_message_becomes_a_celery_task(config, monkeypatch):
    from worker import tasks

    sent = []
    monkeypatch.setattr(tasks.deliver_mail, "apply_async", lambda args, **kw: sent.append(args))
    mail.notify_mail_committed(dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0"), [3, 4])
    assert sent == [(3,), (4,)]


def test_an_unreachable_broker_is_not_the_requests_problem(config, monkeypatch):
    from worker import tasks

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.deliver_mail, "apply_async", down)
    mail.notify_mail_committed(dataclasses.replace(config, redis_url="redis://127.0.0.1:1/0"), [3])


def test_a_sign_in_request_wakes_the_worker(client, web_sessions, web_config, stop_workers):
    from tests.web.support import csrf_from

    worker = inprocess.start(web_sessions, web_config, interval=3600)
    page = client.get("/signin")
    client.post("/signin", data={"email": "ann@example.org", "csrf_token": csrf_from(page.data)})
    assert worker.wait_rounds(1)
    assert len(outbox_files(web_config)) == 1
