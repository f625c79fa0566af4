"""Replies by mail: through the provider webhook and through a real SMTP/LMTP receiver on
loopback.  Only the player a mail was sent to can answer it; strangers, tampered
addresses and auto-replies post nothing."""

from __future__ import annotations

import base64
import smtplib
import socket
from email.message import EmailMessage

import pytest
from sqlalchemy import func, select

from service.notify import inbound_mail, talk
from service.plumbing.db import TableMessage
from tests.api.support import assert_error
from tests.talk.support import Mailroom
from tests.webhooks.support import count_game

AUTH = {"Authorization": "Basic " + base64.b64encode(b"capua:inbound-secret-for-tests").decode()}


@pytest.fixture
def talk_mail(ann, bob, sessions, app_config):
    """Ann says something; the mail Bob got, with its reply address."""
    game_id = count_game(ann, bob)
    room = Mailroom(sessions, app_config)
    room.compose()
    posted = ann.post(f"games/{game_id}/messages", json={"body": "Support my scheme?"}).get_json()
    (row,) = [m for m in room.compose() if m.to_address == "bob@example.org"]
    return {"game_id": game_id, "message": posted, "reply_to": row.headers["Reply-To"]}


def reply(to: str, sender: str = "Bob <bob@example.org>", body: str = "Yes, I will support you.",
          message_id: str = "<r1@mail.example.org>", **headers: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, to, "Re: Count to N: Ann says", message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(f"{body}\n\nOn Thu, 26 Nov 2026 at 10:00, Capua <capua@localhost> wrote:\n> Support my scheme?\n")
    return msg.as_bytes()


def _count(sessions) -> int:
    with sessions() as s:
        return s.scalar(select(func.count()).select_from(TableMessage))


def test_a_reply_through_the_provider_webhook_is_posted_once(anonymous, ann, bob, talk_mail, sessions):
    raw = reply(talk_mail["reply_to"]).decode()
    answer = anonymous.post("/api/v1/inbound/mail", json={"raw": raw, "recipient": talk_mail["reply_to"],
                                                          "sender": "bob@example.org"}, headers=AUTH)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["status"] == "posted" and answer.get_json()["game_id"] == talk_mail["game_id"]
    again = anonymous.post("/api/v1/inbound/mail", json={"raw": raw}, headers=AUTH)
    assert again.get_json() == {**answer.get_json(), "status": "duplicate"}
    messages = ann.get(f"games/{talk_mail['game_id']}/messages").get_json()["messages"]
    assert [(m["body"], m["sender_seat"], m["via"], m["reply_to_id"], m["public"]) for m in messages][-1] == \
        ("Yes, I will support you.", 1, "email", talk_mail["message"]["id"], True)
    assert _count(sessions) == 2


def test_a_provider_form_post_works_too(anonymous, talk_mail, sessions):
    answer = anonymous.post("/api/v1/inbound/mail", headers=AUTH, data={
        "recipient": f"Capua <{talk_mail['reply_to']}>", "sender": "bob@example.org",
        "body-mime": reply(talk_mail["reply_to"]).decode()})
    assert answer.status_code == 200, answer.get_json()
    assert _count(sessions) == 2


def test_strangers_tampering_and_automatic_mail_post_nothing(anonymous, talk_mail, sessions, make_client):
    make_client("eve")
    address = talk_mail["reply_to"]
    local, domain = address.split("@")
    user_id, message_id, mac = local[len("talk+"):].split("-")
    tampered = [f"talk+{int(user_id) + 1}-{message_id}-{mac}@{domain}",
                f"talk+{user_id}-{message_id}-{'a' * 26}@{domain}", f"{local}@elsewhere.example",
                "capua@reply.capua.test"]
    for to in tampered:
        error = assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH,
                                            json={"raw": reply(to).decode(), "recipient": to}), 403)
        assert error["code"] == "bad_reply_address"
    stranger = reply(address, sender="Eve <eve@example.org>", message_id="<e1@x>")
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": stranger.decode()}), 403,
                 "sender_mismatch")
    spoofed_envelope = {"raw": reply(address, message_id="<e2@x>").decode(), "sender": "eve@example.org"}
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json=spoofed_envelope), 403, "sender_mismatch")
    auto = reply(address, message_id="<a1@x>", Auto_Submitted="auto-replied")
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": auto.decode()}), 403,
                 "automatic_mail")
    empty = reply(address, body="", message_id="<m1@x>")
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": empty.decode()}), 422,
                 "empty_reply")
    assert_error(anonymous.post("/api/v1/inbound/mail", json={"raw": reply(address).decode()}), 401)
    wrong = {"Authorization": "Basic " + base64.b64encode(b"capua:guess").decode()}
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=wrong, json={"raw": reply(address).decode()}), 401)
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"mail": "x"}), 422)
    assert _count(sessions) == 1


def test_the_inbound_endpoint_is_off_without_a_secret(app, anonymous, monkeypatch):
    import dataclasses

    config = app.extensions["capua.config"]
    monkeypatch.setitem(app.extensions, "capua.config", dataclasses.replace(config, inbound_mail_secret=""))
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": "x"}), 403, "inbound_mail_off")


def test_quoted_text_and_signatures_are_stripped():
    text = ("Deal: 3 gold for your support.\n\nBob\n-- \nBob Example, Capua\n\n"
            "On Thu, 26 Nov 2026, Capua wrote:\n> Support my scheme?\n")
    assert inbound_mail.strip_quoted(text) == "Deal: 3 gold for your support.\n\nBob"
    assert inbound_mail.strip_quoted("Ja.\n\nAm 26.11.2026 um 10:00 schrieb Capua <c@x>:\n> alt") == "Ja."
    assert inbound_mail.strip_quoted("Ok\n\nFrom: Capua <c@x>\nSent: today\nSubject: hi\n\nold") == "Ok"
    assert inbound_mail.strip_quoted("> all quoted\n> nothing new") == ""
    assert inbound_mail.html_to_text("<p>Yes!</p><blockquote>old <b>stuff</b></blockquote>").strip() == "Yes!"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("lmtp", [False, True], ids=["smtp", "lmtp"])
def test_the_smtp_and_lmtp_receiver_posts_replies_and_refuses_strangers(sessions, app_config, talk_mail, lmtp):
    port = _free_port()
    controller = inbound_mail.make_controller(sessions, app_config, host="127.0.0.1", port=port, lmtp=lmtp)
    controller.start()
    try:
        client = smtplib.LMTP("127.0.0.1", port) if lmtp else smtplib.SMTP("127.0.0.1", port)
        with client:
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                client.sendmail("bob@example.org", ["nobody@reply.capua.test"], reply(talk_mail["reply_to"]))
            with pytest.raises(smtplib.SMTPDataError) as stranger:
                client.sendmail("eve@example.org", [talk_mail["reply_to"]],
                                reply(talk_mail["reply_to"], sender="eve@example.org", message_id="<s1@x>"))
            assert stranger.value.smtp_code == 550
            assert client.sendmail("bob@example.org", [talk_mail["reply_to"]], reply(talk_mail["reply_to"])) == {}
    finally:
        controller.stop()
    with sessions() as s:
        posted = s.scalars(select(TableMessage).order_by(TableMessage.id.desc())).first()
    assert posted.body == "Yes, I will support you." and posted.via == "email"
    assert _count(sessions) == 2


def test_reply_addresses_are_short_and_verify():
    from service.plumbing.config import load_config

    config = load_config(environ={}, overrides={"instance_dir": "/tmp/capua-reply", "secret_key": "k",
                                                "inbound_mail_domain": "Reply.Example.ORG"})
    address = talk.reply_address(config, 12345, 987654321)
    assert len(address.split("@")[0]) <= 64 and address == address.lower()
    assert talk.read_reply_address(config, address.upper()) == (12345, 987654321)


def test_capua_mail_receive_serves_smtp_until_stopped(tmp_path, database_url, app_config, talk_mail, sessions):
    """The real command, in a process of its own, as an operator runs it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from click.testing import CliRunner

    from service.cli import cli

    off = CliRunner().invoke(cli, ["mail", "receive"], env={"CAPUA_INBOUND_MAIL_DOMAIN": "",
                                                            "CAPUA_INSTANCE_DIR": str(tmp_path / "i")})
    assert off.exit_code == 1 and "CAPUA_INBOUND_MAIL_DOMAIN" in off.output

    port = _free_port()
    env = {**os.environ, "CAPUA_DATABASE_URL": database_url, "CAPUA_SECRET_KEY": app_config.secret_key,
           "CAPUA_INBOUND_MAIL_DOMAIN": app_config.inbound_mail_domain, "CAPUA_INSTANCE_DIR": str(tmp_path / "i"),
           "CAPUA_REDIS_URL": ""}
    process = subprocess.Popen([sys.executable, "-c", "from service.cli import main; main()", "mail", "receive",
                                "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                client = smtplib.SMTP("127.0.0.1", port, timeout=5)
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the receiver did not start"
                time.sleep(0.2)
        with client:
            client.sendmail("bob@example.org", [talk_mail["reply_to"]],
                            reply(talk_mail["reply_to"], body="Over SMTP.", message_id="<cli@x>"))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    assert process.returncode == 0
    with sessions() as s:
        assert s.scalars(select(TableMessage.body).order_by(TableMessage.id.desc())).first() == "Over SMTP."
