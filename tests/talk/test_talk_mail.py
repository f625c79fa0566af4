"""Table-talk mail follows the notification preferences: immediate players get it
coalesced with their other mail and held through their quiet hours, digest players in
their digest; every message carries its own reply address, and a private message never
reaches anyone else.  Mail goes to a real SMTP server on loopback."""

from __future__ import annotations

import base64
import datetime as dt
import re
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from service.identity import settings
from service.notify import notifications
from service.plumbing import mail
from service.plumbing.db import Notification, User, utcnow
from tests.api.support import assert_error
from tests.notify.sink import smtp_settings, smtp_sink  # noqa: F401 (the fixture)
from tests.notify.support import html_of, text_of
from tests.talk.support import Mailroom, three_player_game
from tests.webhooks.support import count_game

AUTH = {"Authorization": "Basic " + base64.b64encode(b"capua:inbound-secret-for-tests").decode()}
COALESCE = 600
_MAILTO = re.compile(r"mailto:(talk\+[a-z0-9-]+@reply\.capua\.test)\?subject=\S+")


@pytest.fixture
def config_overrides(config_overrides, smtp_sink) -> dict:
    return {**config_overrides, **smtp_settings(smtp_sink), "notify_coalesce_seconds": COALESCE}


def set_preferences(sessions, client, **changes) -> None:
    with sessions() as s:
        settings.update_preferences(s, s.get(User, client.user_id), changes)
        s.commit()


def sent(sessions, config, sink, to: str) -> list[EmailMessage]:
    """Send the outbox through SMTP; what the server received for ``to``."""
    mail.deliver_pending(sessions, config)
    return [m for m in sink.received() if m["To"] == to]


def talk_rows(sessions, user_id) -> list[Notification]:
    with sessions() as s:
        return list(s.scalars(select(Notification).where(Notification.user_id == user_id,
                                                         Notification.kind == "talk").order_by(Notification.id)))


def new_mail(raw_to: str, body: str, sender: str, message_id: str) -> str:
    """What a mail program sends when the player clicks a reply link and writes."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, raw_to, "Re: Count to N", message_id
    msg.set_content(body + "\n")
    return msg.as_string()


def test_talk_inside_quiet_hours_is_held_until_they_end(ann, bob, sessions, app_config, smtp_sink):
    game_id = count_game(ann, bob)
    room = Mailroom(sessions, app_config)
    start = utcnow()
    room.compose(at=start)  # the game's own mail goes out now
    set_preferences(sessions, bob, quiet_start=start.hour, quiet_end=(start.hour + 2) % 24, timezone="UTC")
    before = len(sent(sessions, app_config, smtp_sink, "bob@example.org"))

    assert ann.post(f"games/{game_id}/messages", json={"body": "Psst, Bob.", "to": [1]}).status_code == 201
    (row,) = talk_rows(sessions, bob.user_id)
    quiet_end = start.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=2)
    assert row.urgent and row.due_at.replace(tzinfo=dt.timezone.utc) == quiet_end
    assert room.compose(at=quiet_end - dt.timedelta(minutes=1)) == []
    assert len(sent(sessions, app_config, smtp_sink, "bob@example.org")) == before, "held in the quiet hours"

    (queued,) = room.compose(at=quiet_end)
    (delivered,) = sent(sessions, app_config, smtp_sink, "bob@example.org")[before:]
    assert delivered["Subject"] == "Count to N: Ann (A) writes to you privately"
    assert "Psst, Bob." in text_of(delivered) and "Psst, Bob." in html_of(delivered)
    assert delivered["Reply-To"] == queued.headers["Reply-To"] and delivered["Reply-To"].startswith("talk+")


def test_two_messages_within_the_window_arrive_in_one_mail(ann, bob, sessions, app_config, smtp_sink):
    game_id = count_game(ann, bob)
    # news immediately too: by default the public message would wait for the digest hour,
    # which falls inside the window when the test runs in the ten minutes before it
    set_preferences(sessions, bob, info_delivery="immediate")
    room = Mailroom(sessions, app_config)
    start = utcnow()
    room.compose(at=start)  # Bob just got mail: what follows waits for the window's end
    before = len(sent(sessions, app_config, smtp_sink, "bob@example.org"))

    ann.post(f"games/{game_id}/messages", json={"body": "First: will you support me?", "to": [1]})
    ann.post(f"games/{game_id}/messages", json={"body": "Second: I pay 3 aurei."})
    bob_rows = talk_rows(sessions, bob.user_id)
    assert len(bob_rows) == 2
    assert {r.due_at for r in bob_rows} == {bob_rows[0].due_at}, "both wait for the end of the same window"
    assert room.compose(at=start + dt.timedelta(seconds=COALESCE - 5)) == []
    (queued,) = room.compose(at=max(r.due_at for r in bob_rows).replace(tzinfo=dt.timezone.utc))
    assert queued.to_address == "bob@example.org"

    (delivered,) = sent(sessions, app_config, smtp_sink, "bob@example.org")[before:]
    text, html = text_of(delivered), html_of(delivered)
    assert delivered["Subject"] == "Count to N: 2 messages at the table"
    assert text.index("First: will you support me?") < text.index("Second: I pay 3 aurei.")
    addresses = _MAILTO.findall(text)
    assert len(addresses) == 2 and len(set(addresses)) == 2, "one reply address per message"
    assert _MAILTO.findall(html.replace("&amp;", "&")) == addresses
    assert delivered["Reply-To"] is None, "replying to the mail itself could mean either message"


def test_a_digest_carries_talk_with_a_reply_address_per_message(ann, bob, make_client, sessions, app_config,
                                                                 smtp_sink, anonymous):
    cat = make_client("cat")
    game_id = three_player_game(ann, bob, cat)
    room = Mailroom(sessions, app_config)
    room.compose(at=utcnow())
    set_preferences(sessions, cat, act_delivery="digest", info_delivery="digest", digest_hour=7,
                    timezone="Europe/Berlin")
    set_preferences(sessions, ann, act_delivery="digest", info_delivery="digest", digest_hour=7,
                    timezone="Europe/Berlin")

    ann.post(f"games/{game_id}/messages", json={"body": "Ave, senators!"})
    bob.post(f"games/{game_id}/messages", json={"body": "Cat, against Ann together?", "to": [2]})
    bob.post(f"games/{game_id}/messages", json={"body": "Ann: only for you.", "to": [0]})
    with sessions() as s:
        prefs = settings.preferences(s, s.get(User, cat.user_id))
    digest_at = notifications.next_digest(prefs, utcnow())
    assert digest_at.astimezone(ZoneInfo("Europe/Berlin")).hour == 7
    assert all(r.due_at.replace(tzinfo=dt.timezone.utc) == digest_at for r in talk_rows(sessions, cat.user_id))
    assert [m.to_address for m in room.compose(at=digest_at - dt.timedelta(minutes=1))
            if m.to_address in ("cat@example.org", "ann@example.org")] == []

    queued = room.compose(at=digest_at)
    assert sorted(m.to_address for m in queued if m.to_address != "bob@example.org") == \
        ["ann@example.org", "cat@example.org"]
    (digest,) = sent(sessions, app_config, smtp_sink, "cat@example.org")[-1:]
    text = text_of(digest)
    assert "Ave, senators!" in text and "Cat, against Ann together?" in text
    assert "only for you" not in text + html_of(digest), "a private message reaches only its recipients"
    assert digest["Reply-To"] is None
    first, second = _MAILTO.findall(text)
    (ann_digest,) = sent(sessions, app_config, smtp_sink, "ann@example.org")[-1:]
    assert "Ann: only for you." in text_of(ann_digest)
    assert "against Ann" not in text_of(ann_digest) + html_of(ann_digest)

    # Cat answers the second message by its link: it goes to that game, to Bob and Cat only.
    raw = new_mail(second, "Agreed, Bob.", "Cat <cat@example.org>", "<cat-reply@mail.example.org>")
    answer = anonymous.post("/api/v1/inbound/mail", headers=AUTH,
                            json={"raw": raw, "recipient": second, "sender": "cat@example.org"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["game_id"] == game_id
    posted = bob.get(f"games/{game_id}/messages").get_json()["messages"][-1]
    assert (posted["body"], posted["sender_seat"], posted["to"], posted["via"]) == ("Agreed, Bob.", 2, [1, 2],
                                                                                     "email")
    assert "Agreed, Bob." not in [m["body"] for m in ann.get(f"games/{game_id}/messages").get_json()["messages"]]
    # The first address answers the whole table.
    raw = new_mail(first, "Ave, Ann.", "cat@example.org", "<cat-reply-2@mail.example.org>")
    assert anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": raw}).status_code == 200
    assert ann.get(f"games/{game_id}/messages").get_json()["messages"][-1]["body"] == "Ave, Ann."

    # A stranger using Cat's address, or an address altered to another message, posts nothing.
    make_client("eve")
    stranger = new_mail(second, "me too", "eve@example.org", "<eve@x>")
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": stranger}), 403, "sender_mismatch")
    local, domain = second.split("@")
    user_id, message_id, mac = local[len("talk+"):].split("-")
    tampered = f"talk+{user_id}-{int(message_id) + 1}-{mac}@{domain}"
    raw = new_mail(tampered, "sneaky", "cat@example.org", "<cat-3@x>")
    assert_error(anonymous.post("/api/v1/inbound/mail", headers=AUTH, json={"raw": raw}), 403, "bad_reply_address")


def test_per_game_settings_apply_to_talk(ann, bob, sessions, app_config):
    game_id = count_game(ann, bob)
    room = Mailroom(sessions, app_config)
    room.compose()
    with sessions() as s:
        settings.update_game_preferences(s, s.get(User, bob.user_id), game_id, {"act_delivery": "off"})
        s.commit()
    ann.post(f"games/{game_id}/messages", json={"body": "private, muted", "to": [1]})
    ann.post(f"games/{game_id}/messages", json={"body": "public, digested"})
    (row,) = talk_rows(sessions, bob.user_id)
    assert row.payload["message"]["body"] == "public, digested" and not row.urgent
    (only,) = room.compose()
    assert "public, digested" in only.text_body and "private, muted" not in only.text_body


@pytest.mark.parametrize("lang,public_link,private_link,subject", [
    ("de", "Dem ganzen Tisch per Mail antworten", "Denselben Spielern per Mail antworten",
     "Count to N: 2 Nachrichten am Tisch"),
    ("ru", "Ответить всему столу по почте", "Ответить тем же игрокам по почте", "Count to N: сообщений за столом: 2")])
def test_a_mail_with_several_messages_speaks_the_readers_language(ann, bob, sessions, app_config, smtp_sink, lang,
                                                                  public_link, private_link, subject):
    game_id = count_game(ann, bob)
    room = Mailroom(sessions, app_config)
    room.compose()
    set_preferences(sessions, bob, language=lang)
    ann.post(f"games/{game_id}/messages", json={"body": "Ave!"})
    ann.post(f"games/{game_id}/messages", json={"body": "Psst.", "to": [1]})
    (queued,) = room.compose()
    (delivered,) = sent(sessions, app_config, smtp_sink, "bob@example.org")[-1:]
    assert delivered["Subject"] == subject == queued.subject
    text, html = text_of(delivered), html_of(delivered)
    for words in (public_link, private_link):
        assert words in text and words in html
    assert len(set(_MAILTO.findall(text))) == 2
