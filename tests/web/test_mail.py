"""The mail outbox: queued in the caller's transaction, delivered once, listed at /dev/outbox."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading

import pytest
from sqlalchemy import select

from service.plumbing import mail
from service.plumbing.db import MailMessage
from service.plumbing import database
from tests.web.support import outbox_files, parse_eml


def queue(session_factory, **kwargs) -> int:
    with session_factory() as s:
        message = mail.queue_mail(s, **{"to": "ann@example.org", "subject": "Your move", "text": "Play now.",
                                        **kwargs})
        s.commit()
        return message.id


def test_queue_adds_a_pending_row_in_the_callers_transaction(session_factory, session):
    message = mail.queue_mail(session, to="ann@example.org", subject="Hi", text="Hello", kind="test",
                              headers={"X-Capua-Game": "abc"})
    assert (message.status, message.attempts, message.headers) == ("pending", 0, {"X-Capua-Game": "abc"})
    with session_factory() as other:
        assert other.get(MailMessage, message.id) is None, "nothing is visible before the caller commits"
    session.rollback()
    with session_factory() as other:
        assert other.scalar(select(MailMessage)) is None


@pytest.mark.parametrize("field", ["to", "subject", "kind"])
def test_header_injection_is_refused(session, field):
    values = {"to": "ann@example.org", "subject": "Hi", "kind": "x", field: "x\r\nBcc: eve@example.org"}
    with pytest.raises(ValueError):
        mail.queue_mail(session, text="Hello", **values)


def test_deliver_writes_one_eml_with_text_and_html(session_factory, config):
    message_id = queue(session_factory, html="<p>Play <b>now</b>.</p>", headers={"X-Capua-Game": "abc"})
    assert mail.deliver(session_factory, config, message_id) is True
    (path,) = outbox_files(config)
    eml = parse_eml(path)
    assert (eml["To"], eml["Subject"], eml["X-Capua-Game"]) == ("ann@example.org", "Your move", "abc")
    assert eml["From"] == config.mail_from and eml["Message-ID"] and eml["Date"]
    assert eml.get_body(preferencelist=("plain",)).get_content().strip() == "Play now."
    assert "<b>now</b>" in eml.get_body(preferencelist=("html",)).get_content()
    with session_factory() as s:
        row = s.get(MailMessage, message_id)
        assert (row.status, row.attempts, row.sent_at is not None) == ("sent", 1, True)


def test_text_only_mail_has_no_html_part(session_factory, config):
    mail.deliver(session_factory, config, queue(session_factory))
    (path,) = outbox_files(config)
    eml = parse_eml(path)
    assert not eml.is_multipart() and eml.get_content_type() == "text/plain"


def test_deliver_is_idempotent(session_factory, config):
    message_id = queue(session_factory)
    assert mail.deliver(session_factory, config, message_id) is True
    assert mail.deliver(session_factory, config, message_id) is False
    assert mail.deliver(session_factory, config, 999_999) is False
    assert len(outbox_files(config)) == 1
    with session_factory() as s:
        assert s.get(MailMessage, message_id).attempts == 1


def test_racing_deliveries_send_once(session_factory, config, monkeypatch):
    message_id = queue(session_factory)
    sends = []
    original = mail.OutboxBackend.send
    monkeypatch.setattr(mail.OutboxBackend, "send", lambda self, m, key: sends.append(key) or original(self, m, key))
    start = threading.Barrier(4)
    results = []

    def run():
        start.wait()
        results.append(mail.deliver(session_factory, config, message_id))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [False, False, False, True]
    assert len(sends) == 1 and len(outbox_files(config)) == 1


def test_a_failed_send_goes_back_to_pending_then_fails_for_good(session_factory, config, monkeypatch):
    message_id = queue(session_factory)

    def broken(self, message, key):
        raise OSError("disk full")

    monkeypatch.setattr(mail.OutboxBackend, "send", broken)
    for attempt in range(1, mail.MAX_ATTEMPTS):
        with pytest.raises(mail.TransientMailError):
            mail.deliver(session_factory, config, message_id)
        with session_factory() as s:
            row = s.get(MailMessage, message_id)
            assert (row.status, row.attempts, row.last_error) == ("pending", attempt, "OSError: disk full")
    assert mail.deliver(session_factory, config, message_id) is False
    with session_factory() as s:
        assert s.get(MailMessage, message_id).status == "failed"
    assert mail.pending_ids(session_factory) == []


def test_deliver_pending_sends_everything_and_skips_failures(session_factory, config, monkeypatch):
    ids = [queue(session_factory, to=f"p{i}@example.org") for i in range(3)]
    original = mail.OutboxBackend.send

    def flaky(self, message, key):
        if message["To"] == "p1@example.org":
            raise OSError("mailbox busy")
        original(self, message, key)

    monkeypatch.setattr(mail.OutboxBackend, "send", flaky)
    assert mail.deliver_pending(session_factory, config) == 2
    assert mail.pending_ids(session_factory) == [ids[1]]
    monkeypatch.setattr(mail.OutboxBackend, "send", original)
    assert mail.deliver_pending(session_factory, config) == 1
    assert len(outbox_files(config)) == 3


def test_an_unknown_backend_is_a_clear_error(config):
    with pytest.raises(ValueError, match="CAPUA_MAIL_BACKEND"):
        mail.backend_for(dataclasses.replace(config, mail_backend="carrier-pigeon"))


# --------------------------------------------------------------------------- /dev/outbox


def test_dev_outbox_lists_newest_first_and_shows_a_message(client, web_sessions, web_config):
    first = queue(web_sessions, subject="First", html="<p>first <a href='http://x/y'>link</a></p>")
    second = queue(web_sessions, subject="Second", text="Open http://127.0.0.1:5000/auth/magic/abc now")
    mail.deliver_pending(web_sessions, web_config)
    listing = client.get("/dev/outbox").data.decode()
    assert listing.index("Second") < listing.index("First")
    names = [p.name for p in outbox_files(web_config)]
    assert len(names) == 2 and all(str(i) in " ".join(names) for i in (first, second))

    second_name = next(n for n in names if n.endswith(f"-{second}.eml"))
    page = client.get(f"/dev/outbox/{second_name}").data.decode()
    assert '<a href="http://127.0.0.1:5000/auth/magic/abc">' in page

    first_name = next(n for n in names if n.endswith(f"-{first}.eml"))
    page = client.get(f"/dev/outbox/{first_name}").data.decode()
    assert "<iframe" in page and "sandbox" in page
    assert "&lt;p&gt;first" in page, "the HTML body is shown inside a sandboxed frame, escaped into srcdoc"


@pytest.mark.parametrize("name", ["../secret_key", "..%2Fsecret_key", "x.eml", "20250101T000000-1.eml", "%2e%2e"])
def test_dev_outbox_opens_only_outbox_files(client, name):
    assert client.get(f"/dev/outbox/{name}").status_code == 404


def test_dev_outbox_is_empty_at_first(client):
    assert "No mail yet" in client.get("/dev/outbox").data.decode()


def test_dev_pages_can_be_turned_off(config_overrides, clean_database):
    from service.app import create_app

    app = create_app({**config_overrides, "dev_pages": False})
    try:
        assert app.test_client().get("/dev/outbox").status_code == 404
        assert b"/dev/outbox" not in app.test_client().get("/").data
    finally:
        database.dispose(app)


class WorkerKilled(BaseException):
    """What the process sees of a ``kill -9``: nothing after this point runs."""


@pytest.mark.parametrize("killed_at", [1, 5, 12])
def test_a_worker_killed_mid_burst_leaves_at_most_one_accepted_message_unrecorded(session_factory, config,
                                                                                   monkeypatch, killed_at):
    """Every message the server accepted before the kill is recorded ``sent`` at once; after
    the lease only the one in flight (accepted or not) goes out again, so the server sees
    each message once, except possibly that one, which carries its first Message-ID."""
    ids = [queue(session_factory, subject=f"Mail {n}") for n in range(25)]
    accepted: list[str] = []

    def send_then_die(self, message, key):
        accepted.append(message["Message-ID"])
        if len(accepted) == killed_at:
            raise WorkerKilled()

    monkeypatch.setattr(mail.OutboxBackend, "send", send_then_die)
    with pytest.raises(WorkerKilled):
        mail.deliver_many(session_factory, config, ids)
    with session_factory() as s:
        statuses = [s.get(MailMessage, i).status for i in ids]
    claimed_to = (killed_at - 1) // mail.CLAIM_CHUNK * mail.CLAIM_CHUNK + mail.CLAIM_CHUNK
    assert statuses[:killed_at - 1] == ["sent"] * (killed_at - 1), "accepted messages are recorded one by one"
    assert statuses[killed_at - 1:claimed_to] == ["sending"] * (claimed_to - killed_at + 1)
    assert set(statuses[claimed_to:]) == {"pending"}, "the dead worker held only the chunk it was sending"

    after_the_lease = mail.utcnow() + mail.lease(config) + dt.timedelta(seconds=1)
    assert mail.reset_stuck(session_factory, config, now=after_the_lease) == ids[killed_at - 1:claimed_to]
    monkeypatch.setattr(mail.OutboxBackend, "send", lambda self, message, key: accepted.append(message["Message-ID"]))
    assert mail.deliver_many(session_factory, config, ids) == (len(ids) - killed_at + 1, [])
    assert len(set(accepted)) == len(ids), "every message arrived"
    assert len(accepted) == len(ids) + 1, "only the message in flight at the kill went out twice"
    assert accepted.count(accepted[killed_at - 1]) == 2
