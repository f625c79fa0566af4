"""The SMTP backend against a real server on loopback: plain, STARTTLS with a login,
permanent and transient refusals, and a connection reused across messages."""

from __future__ import annotations

import dataclasses
import ssl
import subprocess

import pytest

from service.plumbing import mail, smtp
from service.plumbing.db import MailMessage
from tests.notify.sink import SmtpSink


def _queue(sessions, to="ann@example.org", n=1) -> list[int]:
    with sessions() as s:
        ids = [mail.queue_mail(s, to=to, subject=f"Your move {i}", text="Play now.", html="<p>Play now.</p>").id
               for i in range(n)]
        s.commit()
        return ids


def test_messages_reach_the_server_with_a_stable_message_id(sessions, cfg, smtp_sink):
    ids = _queue(sessions, n=3)
    for message_id in ids:
        assert mail.deliver(sessions, cfg, message_id) is True
    received = smtp_sink.received()
    assert [str(m["Subject"]) for m in received] == ["Your move 0", "Your move 1", "Your move 2"]
    assert all(m["Message-ID"] and m["From"] == "Capua <capua@capua.test>" for m in received)
    with sessions() as s:
        row = s.get(MailMessage, ids[0])
        again = mail.build_email(cfg, row)
    assert again["Message-ID"] == received[0]["Message-ID"], "a resend would carry the same Message-ID"


def test_a_permanent_refusal_fails_at_once(sessions, cfg, smtp_sink):
    smtp_sink.reply_to_rcpt["nobody@example.org"] = "550 No such user"
    (message_id,) = _queue(sessions, to="nobody@example.org")
    assert mail.deliver(sessions, cfg, message_id) is False
    with sessions() as s:
        row = s.get(MailMessage, message_id)
        assert (row.status, row.attempts) == ("failed", 1) and "550" in row.last_error


def test_a_transient_refusal_is_retried(sessions, cfg, smtp_sink):
    smtp_sink.reply_to_rcpt["busy@example.org"] = "451 Try again later"
    (message_id,) = _queue(sessions, to="busy@example.org")
    with pytest.raises(mail.TransientMailError):
        mail.deliver(sessions, cfg, message_id)
    del smtp_sink.reply_to_rcpt["busy@example.org"]
    assert mail.deliver(sessions, cfg, message_id) is True
    with sessions() as s:
        assert s.get(MailMessage, message_id).attempts == 2


def test_an_unreachable_server_is_transient(sessions, cfg):
    (message_id,) = _queue(sessions)
    down = dataclasses.replace(cfg, smtp_port=1)
    with pytest.raises(mail.TransientMailError):
        mail.deliver(sessions, down, message_id)
    assert mail.pending_ids(sessions) == [message_id]


def test_a_connection_closed_while_idle_is_reopened(sessions, cfg, smtp_sink):
    ids = _queue(sessions, n=2)
    mail.deliver(sessions, cfg, ids[0])
    backend = smtp.SmtpBackend.from_config(cfg)
    backend._connection().close()  # the server hung up on the idle connection
    mail.deliver(sessions, cfg, ids[1])
    assert len(smtp_sink.received()) == 2


def _self_signed(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return key, cert


def test_starttls_with_a_login(sessions, cfg, tmp_path, monkeypatch):
    key, cert = _self_signed(tmp_path)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(str(cert), str(key))
    sink = SmtpSink(login=("capua", "s3cret"), tls_context=server_tls).start()
    trusting = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(smtp.ssl, "create_default_context", lambda *a, **k: trusting)
    try:
        secure = dataclasses.replace(cfg, smtp_port=sink.port, smtp_security="starttls", smtp_username="capua",
                                     smtp_password="s3cret")
        (message_id,) = _queue(sessions)
        assert mail.deliver(sessions, secure, message_id) is True
        assert len(sink.received()) == 1
        wrong = dataclasses.replace(secure, smtp_password="guess", smtp_timeout_seconds=2)
        (other,) = _queue(sessions)
        smtp.SmtpBackend.from_config(wrong).drop()
        with pytest.raises(mail.TransientMailError):
            mail.deliver(sessions, wrong, other)
    finally:
        sink.stop()


def test_stuck_rows_of_a_dead_worker_go_back_to_pending(sessions, cfg):
    import datetime as dt

    from sqlalchemy import update

    (message_id,) = _queue(sessions)
    with sessions() as s:
        s.execute(update(MailMessage).values(status="sending", claimed_at=mail.utcnow()))
        s.commit()
    assert mail.reset_stuck(sessions, cfg) == [], "a live claim is left alone"
    later = mail.utcnow() + mail.lease(cfg) + dt.timedelta(seconds=1)
    assert mail.reset_stuck(sessions, cfg, now=later) == [message_id]
    assert mail.pending_ids(sessions) == [message_id]


def test_a_send_whose_lease_has_run_out_hands_over_nothing(sessions, cfg, smtp_sink):
    import time

    from service.plumbing.mail_backend import LeaseSpent, send_by, time_left

    backend = smtp.SmtpBackend.from_config(cfg)
    (message_id,) = _queue(sessions)
    with sessions() as s:
        message = mail.build_email(cfg, s.get(MailMessage, message_id))
    with send_by(time.monotonic() - 1):
        with pytest.raises(LeaseSpent):
            backend.send(message, "k")
    assert smtp_sink.received() == [], "no step is taken once the lease is spent"
    with send_by(time.monotonic() + 3600):
        assert time_left(cfg.smtp_timeout_seconds) == cfg.smtp_timeout_seconds, "a step waits no longer than usual"
        backend.send(message, "k")
    assert len(smtp_sink.received()) == 1
    assert issubclass(LeaseSpent, OSError), "a spent lease is a transient failure: the mail is retried"
