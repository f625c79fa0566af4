"""Why a webhook was turned off: a code with details, told in the owner's language in
the email and to the pages, machine-readable in the API; rows from before codes existed
are migrated."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy import select

from service.identity import settings
from service.notify import webhook_delivery, webhooks
from service.plumbing.db import MailMessage, User, WebhookDelivery, WebhookEndpoint, make_engine
from service.plumbing.schema_upgrade import upgrade
from tests.service.test_migrations import empty_database_url, migration_database_url  # noqa: F401 (fixtures)
from tests.webhooks.support import count_game, subscribe

GONE = {"en": "Your server answered 410 Gone, which asks for no more messages.",
        "de": "Dein Server hat mit 410 Gone geantwortet und damit gebeten, keine Nachrichten mehr zu schicken.",
        "ru": "Ваш сервер ответил 410 Gone, то есть попросил больше не присылать сообщений."}


def _speaks(sessions, client, language: str) -> None:
    with sessions() as s:
        settings.update_preferences(s, s.get(User, client.user_id), {"language": language})
        s.commit()


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_a_410_is_told_in_the_owners_language_and_kept_as_a_code(ann, bob, receiver, sessions, app_config, lang):
    hook = subscribe(ann, receiver.url(), event_types=["game.started"])
    _speaks(sessions, ann, lang)
    receiver.answer((410, {}))
    count_game(ann, bob)
    with sessions() as s:
        (delivery,) = s.scalars(select(WebhookDelivery)).all()
    assert webhook_delivery.deliver(sessions, app_config, delivery.id) == "failed"

    with sessions() as s:
        (notice,) = s.scalars(select(MailMessage).where(MailMessage.kind == "webhook_disabled")).all()
        endpoint = s.get(WebhookEndpoint, hook["id"])
        assert webhooks.disabled_reason_text(endpoint, lang) == GONE[lang]
        assert webhooks.disabled_reason_text(endpoint, "en") == GONE["en"]
    assert GONE[lang] in notice.text_body and GONE[lang] in notice.html_body
    assert GONE["en"] not in notice.text_body, "the reason is not left in English"

    shown = ann.get(f"webhooks/{hook['id']}").get_json()
    assert (shown["status"], shown["disabled_code"], shown["disabled_details"], shown["disabled_reason"]) == \
        ("disabled", "gone_410", None, "the receiver answered 410 Gone")
    assert ann.get("webhooks").get_json()["webhooks"][0]["disabled_code"] == "gone_410"
    conflict = ann.post(f"webhooks/{hook['id']}/test").get_json()["error"]
    assert conflict["code"] == "webhook_disabled" and conflict["details"]["reason_code"] == "gone_410"


@pytest.mark.parametrize("lang,words", [
    ("de", ["Eine Nachricht ist 4 Mal hintereinander gescheitert; die letzte Antwort war HTTP 503."]),
    ("ru", ["Сообщение не доставлено, неудачных попыток подряд: 4; последний ответ: HTTP 503."])])
def test_exhausted_retries_are_told_with_their_count_and_last_answer(ann, bob, receiver, sessions, app_config,
                                                                     lang, words):
    hook = subscribe(ann, receiver.url(), event_types=["game.started"])
    _speaks(sessions, ann, lang)
    receiver.answer(*[(503, {})] * 10)
    count_game(ann, bob)
    with sessions() as s:
        (delivery,) = s.scalars(select(WebhookDelivery)).all()
    now = None
    for _ in range(4):  # the first attempt and the three retries of "1s,2s,3s"
        webhook_delivery.deliver(sessions, app_config, delivery.id, now=now)
        with sessions() as s:
            now = s.get(WebhookDelivery, delivery.id).next_attempt_at
    shown = ann.get(f"webhooks/{hook['id']}").get_json()
    assert shown["disabled_code"] == "retries_exhausted"
    assert shown["disabled_details"] == {"attempts": 4, "status": 503, "error": "the receiver answered 503"}
    with sessions() as s:
        (notice,) = s.scalars(select(MailMessage).where(MailMessage.kind == "webhook_disabled")).all()
    assert all(w in notice.text_body and w in notice.html_body for w in words)


def test_every_code_reads_in_every_language():
    cases = [("by_owner", None), ("gone_410", None), ("address_refused", {"host": "10.0.0.7", "detail": "x"}),
             ("retries_exhausted", {"attempts": 8, "status": None, "error": "ConnectionRefusedError: refused"}),
             ("retries_exhausted", {"attempts": 8, "status": 500, "error": "the receiver answered 500"})]
    for code, details in cases:
        endpoint = WebhookEndpoint(status="disabled", disabled_code=code, disabled_details=details,
                                   disabled_reason=webhooks.reason_sentence(code, details))
        texts = {lang: webhooks.disabled_reason_text(endpoint, lang) for lang in ("en", "de", "ru")}
        assert len(set(texts.values())) == 3 and all(texts.values()), (code, texts)
        assert all("%(" not in t for t in texts.values())
        for value in (details or {}).values():
            if value in ("10.0.0.7", 500, "ConnectionRefusedError: refused"):
                assert all(str(value) in t for t in texts.values())
    legacy = WebhookEndpoint(status="disabled", disabled_code="other", disabled_details={"text": "it broke"},
                             disabled_reason="it broke")
    assert webhooks.disabled_reason_text(legacy, "de") == "it broke"
    assert webhooks.disabled_reason_text(WebhookEndpoint(status="enabled", disabled_code=""), "de") == ""


def test_turning_it_off_and_on_sets_and_clears_the_code(ann, receiver):
    hook = subscribe(ann, receiver.url(), event_types=["game.started"])
    off = ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": False}).get_json()
    assert (off["disabled_code"], off["disabled_reason"]) == ("by_owner", "disabled by you")
    on = ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": True}).get_json()
    assert (on["disabled_code"], on["disabled_details"], on["disabled_reason"]) == ("", None, "")


def test_existing_rows_are_migrated_to_codes(empty_database_url):  # noqa: F811 (the fixture)
    upgrade(empty_database_url, "0003")
    engine = make_engine(empty_database_url)
    now = dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc)
    reasons = {
        1: ("enabled", ""),
        2: ("disabled", "disabled by you"),
        3: ("disabled", "the receiver answered 410 Gone"),
        4: ("disabled", "its address was refused (hooks.example.com resolves to 127.0.0.1: 127.0.0.1 is a loopback "
                        "address; webhooks go to public addresses only)"),
        5: ("disabled", "a message failed 8 attempts in a row (last: the receiver answered 502)"),
        6: ("disabled", "a message failed 8 attempts in a row (last: ConnectionRefusedError: [Errno 111] Conn"),
        7: ("disabled", "the moon was in the wrong phase"),
    }
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO users (id, email, display_name, language, timezone, created_at) "
                                 "VALUES (1, 'ann@example.org', 'Ann', 'de', 'UTC', :now)"), {"now": now})
            for id_, (status, reason) in reasons.items():
                conn.execute(sa.text(
                    "INSERT INTO webhook_endpoints (id, user_id, url, description, event_types, secret, status, "
                    "disabled_reason, created_at, updated_at) VALUES (:id, 1, 'https://hooks.example.com/x', '', "
                    "'[]', 'whsec_x', :status, :reason, :now, :now)"),
                    {"id": id_, "status": status, "reason": reason, "now": now})
        upgrade(empty_database_url)
        with engine.connect() as conn:
            table = sa.Table("webhook_endpoints", sa.MetaData(), autoload_with=conn)
            rows = {r.id: (r.disabled_code, r.disabled_details, r.disabled_reason)
                    for r in conn.execute(sa.select(table.c.id, table.c.disabled_code, table.c.disabled_details,
                                                    table.c.disabled_reason))}
    finally:
        engine.dispose()
    assert rows[1] == ("", None, "")
    assert rows[2][:2] == ("by_owner", None) and rows[3][:2] == ("gone_410", None)
    assert rows[4][:2] == ("address_refused", {
        "host": "hooks.example.com",
        "detail": "hooks.example.com resolves to 127.0.0.1: 127.0.0.1 is a loopback address; webhooks go to public "
                  "addresses only"})
    assert rows[5][:2] == ("retries_exhausted", {"attempts": 8, "status": 502, "error": "the receiver answered 502"})
    assert rows[6][:2] == ("retries_exhausted", {"attempts": 8, "status": None,
                                                 "error": "ConnectionRefusedError: [Errno 111] Conn"})
    assert rows[7][:2] == ("other", {"text": "the moon was in the wrong phase"})
    assert all(rows[i][2] == reasons[i][1] for i in reasons), "the English sentence stays as it was"
    # Each migrated row reads back as the service writes it now (row 6 was cut off at the column's length).
    for code, details, reason in rows.values():
        if code and code != "other":
            assert webhooks.reason_sentence(code, details).startswith(reason)
