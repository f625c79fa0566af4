"""Fixtures of the worker tests: Celery tasks called directly, and a real Celery worker
(with beat) in a subprocess against CI's Redis.

The real-worker tests need ``CAPUA_TEST_REDIS_URL`` (CI exports it).  Without a Redis
they are skipped on a developer's machine but fail under CI (``CI`` set): a green CI run
must mean they ran.  Each run uses its own queue name, so runs sharing a Redis never
take each other's tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.notify.sink import SmtpSink

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


@pytest.fixture
def smtp_sink():
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("CAPUA_TEST_REDIS_URL") or DEFAULT_REDIS_URL
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as err:
        message = f"Redis at {url} is not reachable: {err}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return url


class CeleryWorker:
    """``celery -A worker.celery_app worker -B -P solo`` as a subprocess with its own env."""

    def __init__(self, env: dict, log: Path) -> None:
        self.env, self.log = env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> "CeleryWorker":
        self._log = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "worker.celery_app", "worker", "-B", "-P", "solo",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
             "-Q", self.env["CAPUA_CELERY_QUEUE"], "-n", f"capua-test-{uuid.uuid4().hex[:8]}@%h"],
            cwd=str(ROOT), env=self.env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no acknowledgement, exactly like a crashed machine."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def celery_env(redis_url, database_url, smtp_sink, tmp_path) -> dict:
    queue = f"capua-test-{uuid.uuid4().hex[:10]}"
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("CAPUA_")},
        "CAPUA_DATABASE_URL": database_url,
        "CAPUA_REDIS_URL": redis_url,
        "CAPUA_CELERY_QUEUE": queue,
        "CAPUA_INSTANCE_DIR": str(tmp_path / "instance"),
        "CAPUA_SECRET_KEY": "test-secret-key-not-for-production",
        "CAPUA_MAIL_BACKEND": "smtp",
        "CAPUA_SMTP_HOST": "127.0.0.1",
        "CAPUA_SMTP_PORT": str(smtp_sink.port),
        "CAPUA_SMTP_SECURITY": "none",
        "CAPUA_TASK_TIME_LIMIT_SECONDS": "3",
        "CAPUA_MAIL_LEASE_SECONDS": "3",
        "CAPUA_OUTBOX_SWEEP_SECONDS": "1",
        "CAPUA_DEADLINE_SWEEP_SECONDS": "1",
        "CAPUA_NOTIFY_COALESCE_SECONDS": "0",
        "PYTHONPATH": str(ROOT),
    }


@pytest.fixture
def start_worker(celery_env, tmp_path):
    started: list[CeleryWorker] = []

    def start(n: int = 0) -> CeleryWorker:
        worker = CeleryWorker(celery_env, tmp_path / f"worker-{len(started)}.log").start()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def producer(celery_env):
    """A Celery client of the test run's queue, as a web process would enqueue."""
    from celery import Celery

    app = Celery("capua-test-producer", broker=celery_env["CAPUA_REDIS_URL"])
    app.conf.task_default_queue = celery_env["CAPUA_CELERY_QUEUE"]
    yield app
    app.close()


def wait_until(predicate, timeout: float, what: str, worker: CeleryWorker | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}" + (f"\n--- worker log ---\n{worker.output()[-4000:]}"
                                                            if worker is not None else ""))
