"""The Celery tasks, called directly as the worker would run them."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from service.plumbing import mail
from tests.web.support import outbox_files
from worker import tasks
from worker.celery_app import app as celery_app


@pytest.fixture
def worker_runtime(monkeypatch, config, session_factory):
    monkeypatch.setattr(tasks, "runtime", lambda: tasks.Runtime(config=config, sessions=session_factory))


def queue(session_factory, n=1) -> list[int]:
    with session_factory() as s:
        ids = [mail.queue_mail(s, to=f"p{i}@example.org", subject="Hi", text="Hello").id for i in range(n)]
        s.commit()
        return ids


def test_deliver_mail_sends_once(worker_runtime, session_factory, config):
    (message_id,) = queue(session_factory)
    assert tasks.deliver_mail(message_id) is True
    assert tasks.deliver_mail(message_id) is False
    assert len(outbox_files(config)) == 1


def test_a_transient_failure_is_retried_by_the_sweep_after_its_backoff(worker_runtime, session_factory,
                                                                         monkeypatch):
    (message_id,) = queue(session_factory)
    monkeypatch.setattr(mail.OutboxBackend, "send", lambda self, m, k: (_ for _ in ()).throw(OSError("down")))
    assert tasks.deliver_mail(message_id) is False, "no Celery retry waits in the broker"
    assert mail.pending_ids(session_factory) == [message_id]
    with session_factory() as s:
        failed_at = s.get(mail.MailMessage, message_id).claimed_at
    assert mail.due_ids(session_factory, now=failed_at + mail.retry_delay(1) / 2) == []
    assert mail.due_ids(session_factory, now=failed_at + mail.retry_delay(1)) == [message_id]
    assert [mail.retry_delay(n).total_seconds() for n in (1, 2, 3, 8, 20)] == [5, 10, 20, 600, 600]


def test_sweep_enqueues_every_message_whose_task_had_its_chance(worker_runtime, session_factory, monkeypatch):
    ids = queue(session_factory, 3)
    enqueued = []
    monkeypatch.setattr(tasks.deliver_mail, "delay", lambda message_id: enqueued.append(message_id))
    assert tasks.sweep_mail() == 0, "a message just queued is its commit's task's to send"
    with session_factory() as s:
        s.execute(update(mail.MailMessage).values(created_at=mail.utcnow() - mail.retry_delay(1)))
        s.commit()
    assert tasks.sweep_mail() == 3
    assert enqueued == ids


def test_celery_is_configured_for_reliable_delivery():
    conf = celery_app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_time_limit and conf.task_soft_time_limit < conf.task_time_limit
    assert conf.beat_schedule["sweep-mail"]["task"] == "worker.tasks.sweep_mail"
    assert conf.beat_schedule["sweep-mail"]["schedule"] <= 5, "a lost task delays a mail by seconds"
    assert {"worker.tasks.deliver_mail", "worker.tasks.sweep_mail"} <= set(celery_app.tasks)
