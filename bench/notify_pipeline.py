"""Notifications and deadlines end to end, on the production shape: PostgreSQL, Redis, a
real Celery worker with beat (a subprocess, as the Procfile starts it) and a real SMTP
server on loopback (aiosmtpd, in this process, timestamping what it accepts).

    .venv/bin/python -m bench.notify_pipeline            # writes bench/RESULTS.md
    .venv/bin/python -m bench.notify_pipeline --quick --no-write

Three figures:

* **commit to SMTP accepted**: a game is created for a new player (one human seat, three
  bots, so it starts at once and asks the player to act); the time from the commit of
  that request to the SMTP server accepting the player's mail, p50/p99;
* **fan-out throughput**: 10,000 notifications, each to another player, committed in
  transactions of 100 as a busy server would; notifications per minute from the first
  commit until the server accepted the last mail;
* **deadline precision**: deadlines set a few seconds ahead in many games; how late the
  default was applied (the ``capua.DeadlineMissed`` event's time minus the deadline),
  p50/p99.

Settings: ``CAPUA_BENCH_POSTGRES_URL`` (default ``.../capua_notify_bench``) and
``CAPUA_BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/14``).  The run uses its own
database and queue, and stops the worker it started.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).with_name("RESULTS.md")
SECTION = "Notifications"
POSTGRES_URL = os.environ.get("CAPUA_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/capua_notify_bench")
REDIS_URL = os.environ.get("CAPUA_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")


_MESSAGE_ID = re.compile(rb"^Message-ID:\s*(\S+)", re.I | re.M)


class TimedSink:
    """An SMTP handler that notes when it accepted each message: the first arrival by
    recipient, and every arrival by ``Message-ID`` (a message handed over twice shows
    twice)."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.arrivals: dict[str, float] = {}
        self.by_message_id: dict[str, list[float]] = {}
        self.by_recipient: dict[str, list[float]] = {}
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        now = time.time()
        headers = envelope.content.split(b"\r\n\r\n", 1)[0]
        found = _MESSAGE_ID.search(headers)
        message_id = found.group(1).decode("ascii", "replace") if found else f"(none {self.count})"
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.arrivals.setdefault(rcpt, now)
                self.by_recipient.setdefault(rcpt, []).append(now)
            self.by_message_id.setdefault(message_id, []).append(now)
            self.count += 1
            self.lock.notify_all()
        return "250 Message accepted for delivery"

    def wait(self, predicate, timeout: float) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: predicate(self), timeout)


def _environment(smtp_port: int, queue: str, instance: str) -> dict:
    return {
        "CAPUA_DATABASE_URL": POSTGRES_URL,
        "CAPUA_REDIS_URL": REDIS_URL,
        "CAPUA_CELERY_QUEUE": queue,
        "CAPUA_INSTANCE_DIR": instance,
        "CAPUA_SECRET_KEY": "bench-secret",
        "CAPUA_MAIL_BACKEND": "smtp",
        "CAPUA_SMTP_HOST": "127.0.0.1",
        "CAPUA_SMTP_PORT": str(smtp_port),
        "CAPUA_SMTP_SECURITY": "none",
        "CAPUA_BASE_URL": "http://127.0.0.1:5000",
    }


def _fresh_database() -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from service.plumbing.db import Base, make_engine
    from service.plumbing.schema_upgrade import upgrade

    target = make_url(POSTGRES_URL)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": target.database}).first():
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()
    engine = make_engine(POSTGRES_URL)
    Base.metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    engine.dispose()
    upgrade(POSTGRES_URL)


def _start_worker(env: dict, log: Path, concurrency: int, *, beat: bool = True) -> subprocess.Popen:
    """``celery worker`` (with beat inside unless ``beat=False``) in a process group of its own."""
    return _celery(env, log, ["worker", *(["-B"] if beat else []), "-c", str(concurrency), "--without-gossip",
                              "--without-mingle", "--loglevel=WARNING", "-Q", env["CAPUA_CELERY_QUEUE"],
                              "-n", f"bench-{uuid.uuid4().hex[:6]}@%h"])


def _start_beat(env: dict, log: Path) -> subprocess.Popen:
    """``celery beat`` on its own, as the Procfile's ``beat`` runs it."""
    return _celery(env, log, ["beat", "--loglevel=WARNING",
                              "--schedule", str(Path(env["CAPUA_INSTANCE_DIR"]) / "celerybeat-schedule")])


def _celery(env: dict, log: Path, args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "worker.celery_app", *args],
                            cwd=str(ROOT), env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the process group, SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _smtp_sink(sink: TimedSink):
    """An aiosmtpd server for ``sink`` on a free loopback port, started."""
    import socket

    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    return controller


def _percentiles(samples: list[float]) -> tuple[float, float]:
    from bench.common import percentile

    return percentile(samples, 50), percentile(samples, 99)


def measure_latency(sessions, config, sink: TimedSink, n: int) -> list[float]:
    from service.identity import auth
    from service.play import games

    out = []
    for i in range(n):
        address = f"latency{i}@bench.test"
        with sessions() as s:
            user = auth.get_or_create_user(s, address)
            games.create_game(s, config, creator=user, game_type="pax", options={}, seats=4, bot_seats=[1, 2, 3],
                              creator_seat=0)
            s.commit()
        committed = time.time()
        if not sink.wait(lambda k: address in k.arrivals, 60):
            raise RuntimeError(f"no mail for {address} within 60 s")
        out.append(sink.arrivals[address] - committed)
    return out


def measure_fanout(sessions, config, sink: TimedSink, n: int, batch: int = 100) -> tuple[float, float]:
    """Returns (seconds from the first commit to the last accepted mail, notifications per minute)."""
    addresses = [f"fan{i}@bench.test" for i in range(n)]
    game_id, ids = news_audience(sessions, config, "Fan-out", addresses)
    start = time.time()
    for first in range(0, n, batch):
        notify_news(sessions, config, game_id, ids[first:first + batch])
    if not sink.wait(lambda k: all(a in k.arrivals for a in addresses), 600):
        raise RuntimeError("not every fan-out mail arrived within 10 minutes")
    last = max(sink.arrivals[a] for a in addresses)
    elapsed = last - start
    return elapsed, n / elapsed * 60


def news_audience(sessions, config, title: str, addresses: list[str]) -> tuple[str, list[int]]:
    """A game (one human seat, three bots) and a player for each address, each wanting news
    at once (in one of the three languages); returns the game's id and the players' ids."""
    from sqlalchemy import insert, select

    from service.identity import auth
    from service.play import games
    from service.plumbing.db import NotificationPreference, User, utcnow

    with sessions() as s:
        host = auth.get_or_create_user(s, "host@bench.test")
        game = games.create_game(s, config, creator=host, game_type="pax", options={}, seats=4, bot_seats=[1, 2, 3],
                                 creator_seat=0, title=title)
        s.commit()
        game_id = game.id
    now = utcnow()
    with sessions() as s:
        s.execute(insert(User), [{"email": a, "display_name": "", "language": ("en", "de", "ru")[i % 3],
                                  "timezone": "Europe/Berlin", "created_at": now} for i, a in enumerate(addresses)])
        ids = list(s.scalars(select(User.id).where(User.email.in_(addresses)).order_by(User.id)))
        s.execute(insert(NotificationPreference), [
            {"user_id": uid, "act_delivery": "immediate", "info_delivery": "immediate", "digest_hour": 8,
             "email_enabled": True, "updated_at": now} for uid in ids])
        s.commit()
    return game_id, ids


#: What each news notification of the benchmarks tells: a bot laid a card.
NEWS = {"events": [{"seq": 1, "type": "GameSetUp", "data": {"type": "GameSetUp"}},
                   {"seq": 2, "type": "CardLaid", "data": {"seat": 1, "card": {"name": "senator"}, "cost": 1}}],
        "seat_names": {"1": "Bot 2"}}


def notify_news(sessions, config, game_id: str, user_ids: list[int]) -> list[str]:
    """One transaction of news for ``user_ids`` (the commit wakes the composer); returns
    their addresses."""
    from sqlalchemy import select

    from service.notify import notifications
    from service.play import games
    from service.plumbing.db import User

    with sessions() as s:
        game = s.get(games.Game, game_id)
        users = list(s.scalars(select(User).where(User.id.in_(user_ids))))
        notifications.notify_many(s, config, users, kind="news", game=game, seat=None, payload=NEWS)
        s.commit()
        return [u.email for u in users]


def measure_deadlines(sessions, config, n: int) -> list[float]:
    from sqlalchemy import select, update

    from service.identity import auth
    from service.play import games
    from service.plumbing.db import OpenDecision, StoredEvent, utcnow
    from worker import tasks

    game_ids = []
    for i in range(n):
        with sessions() as s:
            user = auth.get_or_create_user(s, f"deadline{i}@bench.test")
            game = games.create_game(s, config, creator=user, game_type="pax", options={}, seats=4,
                                     bot_seats=[1, 2, 3], creator_seat=0, clock={"vacation": False})
            s.commit()
            game_ids.append(game.id)
    base = utcnow() + dt.timedelta(seconds=3)
    due: dict[str, dt.datetime] = {}
    with sessions() as s:
        scheduled = []
        for i, game_id in enumerate(game_ids):
            row = s.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id,
                                                       OpenDecision.mode != "free")).first()
            deadline = base + dt.timedelta(milliseconds=97 * i)
            s.execute(update(OpenDecision).where(OpenDecision.id == row.id).values(deadline_at=deadline))
            due[game_id] = deadline
            scheduled.append((row.id, deadline))
        s.commit()
    # what the commit hook does when a deadline is set: a task at the deadline itself
    tasks.enqueue_deadlines(config, scheduled)
    last = max(due.values())
    lateness: dict[str, float] = {}
    stop = time.time() + (last - utcnow()).total_seconds() + 60
    while len(lateness) < n and time.time() < stop:
        time.sleep(0.5)
        with sessions() as s:
            for game_id, at in s.execute(select(StoredEvent.game_id, StoredEvent.created_at).where(
                    StoredEvent.game_id.in_(list(due)), StoredEvent.type == "capua.DeadlineMissed")):
                lateness.setdefault(game_id, (at - due[game_id]).total_seconds())
    if len(lateness) < n:
        raise RuntimeError(f"only {len(lateness)} of {n} deadlines were applied")
    return list(lateness.values())


def write_results(text: str) -> None:
    existing = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n\nEach section is rewritten by its benchmark.\n"
    pattern = re.compile(rf"^## {SECTION}\n.*?(?=^## |\Z)", re.S | re.M)
    section = f"## {SECTION}\n\n{text.strip()}\n\n"
    if pattern.search(existing):
        updated = pattern.sub(lambda _m: section, existing)
    else:
        updated = existing.rstrip() + "\n\n" + section
    RESULTS.write_text(updated.rstrip() + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run; not for RESULTS.md)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--concurrency", type=int, default=4,
                        help="Celery worker processes [4: the work waits on PostgreSQL and SMTP round trips]")
    args = parser.parse_args()
    from bench.common import machine

    sink = TimedSink()
    controller = _smtp_sink(sink)
    port = controller.port
    tmp = tempfile.mkdtemp(prefix="capua-bench-")
    queue = f"capua-bench-{uuid.uuid4().hex[:8]}"
    env = _environment(port, queue, tmp)
    os.environ.update(env)  # before anything reads the settings: this process enqueues like a web process
    from service import wiring
    from service.plumbing.config import load_config
    from service.plumbing import database as capua_database
    from worker.tasks import CeleryDispatch

    _fresh_database()
    config = load_config()
    app = capua_database.bare_app(config)
    wiring.connect(celery=CeleryDispatch())  # as the app factory wires a web process
    worker = _start_worker(env, Path(tmp) / "worker.log", args.concurrency)
    load_before = os.getloadavg()[0]
    try:
        time.sleep(4)  # the worker and beat start
        n_latency, n_fanout, n_deadlines = (30, 1000, 20) if args.quick else (200, 10_000, 100)
        print(f"== commit to SMTP accepted ({n_latency} new games)")
        latency = measure_latency(capua_database.sessions(app), config, sink, n_latency)
        l50, l99 = _percentiles(latency)
        print(f"   p50 {l50 * 1000:.0f} ms, p99 {l99 * 1000:.0f} ms")
        print(f"== fan-out ({n_fanout} notifications)")
        elapsed, per_minute = measure_fanout(capua_database.sessions(app), config, sink, n_fanout)
        print(f"   {elapsed:.1f} s: {per_minute:,.0f} notifications per minute")
        print(f"== deadline precision ({n_deadlines} deadlines)")
        lateness = measure_deadlines(capua_database.sessions(app), config, n_deadlines)
        d50, d99 = _percentiles(lateness)
        print(f"   late by p50 {d50:.2f} s, p99 {d99:.2f} s")
    finally:
        _stop(worker)
        controller.stop()
        capua_database.dispose(app)
    load_after = os.getloadavg()[0]
    text = f"""Measured {dt.date.today().isoformat()} on {machine()} with `python -m bench.notify_pipeline`
(load average {load_before:.1f} before, {load_after:.1f} after: other work shared the two cores).
PostgreSQL, Redis, one Celery worker (`-B -c {args.concurrency}`: worker and beat, as the Procfile's
`worker` and `beat` run them) and an aiosmtpd server on loopback that timestamps each accepted
message. Default settings (deadline sweep every 2 s, tasks at each near deadline).

| figure | result | target |
|---|---|---|
| commit to SMTP accepted, a new game asking its player to act ({n_latency} games) | p50 {l50 * 1000:.0f} ms, p99 {l99 * 1000:.0f} ms | |
| fan-out: {n_fanout:,} notifications to {n_fanout:,} players, committed 100 per transaction | {per_minute:,.0f} per minute ({elapsed:.1f} s to the last accepted mail) | 10,000 per minute or better |
| deadline default applied after the deadline ({n_deadlines} games) | p50 {d50:.2f} s, p99 {d99:.2f} s | p99 within 5 s |
"""
    print(text)
    if not args.no_write and not args.quick:
        write_results(text)
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
