"""Delivering webhooks to a real HTTP receiver on loopback: signatures checked with the
``standardwebhooks`` library, the retry schedule, ``Retry-After``, ``410``, exhausted
retries, the delivery log and manual redelivery."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service.notify import webhook_delivery
from service.plumbing import netguard
from service.plumbing.db import MailMessage, WebhookDelivery, WebhookEndpoint, utcnow
from tests.api.support import assert_error
from tests.webhooks.support import add, count_game, deliver_all, payloads, subscribe, verified


def _rows(sessions, model, *where):
    with sessions() as s:
        return list(s.scalars(select(model).where(*where).order_by(model.id)))


def test_players_receive_signed_messages_of_what_they_may_see(ann, bob, receiver, sessions, app_config):
    ann_hook = subscribe(ann, receiver.url("/ann"))
    game_id = count_game(ann, bob)
    bob_hook = subscribe(bob, receiver.url("/bob"), game_id=game_id, event_types=["game.events", "decision.opened"])
    add(ann, game_id, 2)
    add(bob, game_id, 1)
    counts = deliver_all(sessions, app_config)
    assert counts.get("succeeded", 0) == len(receiver.requests) > 0 and "retry" not in counts

    for request in receiver.requests:
        secret = ann_hook["secret"] if request.path == "/ann" else bob_hook["secret"]
        body = verified(request, secret)  # raises unless the signature is valid
        assert request.headers["webhook-id"].startswith("msg_")
        assert request.headers["content-type"] == "application/json"
        with pytest.raises(WebhookVerificationError):
            Webhook(bob_hook["secret"] if request.path == "/ann" else ann_hook["secret"]).verify(
                request.body, request.headers)
        assert body["data"]["game_id"] == game_id

    ann_msgs, bob_msgs = payloads(receiver, "/ann"), payloads(receiver, "/bob")
    assert [m["type"] for m in ann_msgs][:3] == ["game.started", "game.events", "decision.opened"]
    assert "game.started" not in {m["type"] for m in bob_msgs}  # Bob subscribed after the start, to two types
    assert {m["type"] for m in bob_msgs} == {"game.events", "decision.opened"}
    assert all(m["data"]["seat"] == 0 for m in ann_msgs) and all(m["data"]["seat"] == 1 for m in bob_msgs)
    decisions = [m["data"]["decision"] for m in ann_msgs if m["type"] == "decision.opened"]
    assert decisions and all(d["seat"] == 0 and d["command_type"] == "add" and d["deadline_at"] for d in decisions)

    # The hidden information of the count game: each seat's secret, and an amount before the reveal.
    with sessions() as s:
        from service.play import store
        from service.plumbing.db import Game
        secrets_ = store.load_state(s, s.get(Game, game_id)).secrets
    ann_text = " ".join(r.body.decode() for r in receiver.requests if r.path == "/ann")
    bob_text = " ".join(r.body.decode() for r in receiver.requests if r.path == "/bob")
    assert f"S0:{secrets_[0]}" in ann_text and f"S1:{secrets_[1]}" not in ann_text
    assert f"S0:{secrets_[0]}" not in bob_text
    first_events = next(m for m in ann_msgs if m["type"] == "game.events" and
                        any(e["type"] == "AmountChosen" for e in m["data"]["events"]))
    chosen = [e for e in first_events["data"]["events"] if e["type"] == "AmountChosen"]
    assert chosen == [{"seq": chosen[0]["seq"], "type": "AmountChosen", "at": chosen[0]["at"],
                       "data": {"seat": 0, "round": 1, "n": 2}}]
    bob_sees_ann = [e for m in bob_msgs if m["type"] == "game.events" for e in m["data"]["events"]
                    if e["type"] == "AmountChosen" and e["data"]["seat"] == 0]
    assert bob_sees_ann and all("n" not in e["data"] for e in bob_sees_ann)

    log = ann.get(f"webhooks/{ann_hook['id']}/deliveries").get_json()["deliveries"]
    assert len(log) == len(ann_msgs) and all(d["status"] == "succeeded" and d["attempts"] == 1 for d in log)
    detail = ann.get(f"webhooks/{ann_hook['id']}/deliveries/{log[0]['id']}").get_json()
    assert json.loads(detail["payload"]) == ann_msgs[-1]
    assert [a["status_code"] for a in detail["attempt_log"]] == [200]
    assert_error(bob.get(f"webhooks/{ann_hook['id']}/deliveries"), 404)


def test_a_spectators_webhook_gets_the_public_view_only(ann, bob, make_client, receiver, sessions, app_config):
    game_id = count_game(ann, bob)
    cat = make_client("cat")
    hook = subscribe(cat, receiver.url("/cat"), game_id=game_id)
    add(ann, game_id, 1)
    bob_msg = bob.post(f"games/{game_id}/messages", json={"body": "hello table"})
    assert bob_msg.status_code == 201
    deliver_all(sessions, app_config)
    got = [verified(r, hook["secret"]) for r in receiver.requests]
    assert {m["type"] for m in got} == {"game.events"}
    assert all(m["data"]["seat"] is None for m in got)
    text = json.dumps(got)
    assert "S0:" not in text and "S1:" not in text and '"n"' not in text and "hello table" not in text


def test_failures_are_retried_on_the_schedule_honouring_retry_after(ann, bob, receiver, sessions, app_config):
    hook = subscribe(ann, receiver.url(), event_types=["game.started"])
    receiver.answer((500, {}), (503, {"Retry-After": "120"}), (302, {"Location": "http://127.0.0.1:1/"}))
    count_game(ann, bob)
    (delivery,) = _rows(sessions, WebhookDelivery)
    t0 = utcnow()
    assert webhook_delivery.deliver(sessions, app_config, delivery.id) == "retry"
    (row,) = _rows(sessions, WebhookDelivery)
    # schedule "1s,2s,3s", jittered by up to a fifth
    assert t0 + dt.timedelta(seconds=0.7) < row.next_attempt_at < utcnow() + dt.timedelta(seconds=1.3)
    assert webhook_delivery.deliver(sessions, app_config, delivery.id) == "skipped"  # not due yet
    later = row.next_attempt_at + dt.timedelta(milliseconds=1)
    assert webhook_delivery.deliver(sessions, app_config, delivery.id, now=later) == "retry"
    (row,) = _rows(sessions, WebhookDelivery)
    assert row.next_attempt_at >= later + dt.timedelta(seconds=119)  # Retry-After beats the 2 s of the schedule
    assert webhook_delivery.deliver(sessions, app_config, delivery.id, now=row.next_attempt_at) == "retry"
    (row,) = _rows(sessions, WebhookDelivery)
    assert row.last_status_code == 302 and row.attempts == 3  # a redirect is a failure, never followed
    assert webhook_delivery.deliver(sessions, app_config, delivery.id, now=row.next_attempt_at) == "succeeded"
    assert len(receiver.requests) == 4
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1
    for request in receiver.requests:
        verified(request, hook["secret"])
    log = ann.get(f"webhooks/{hook['id']}/deliveries/{delivery.id}").get_json()
    assert [a["status_code"] for a in log["attempt_log"]] == [500, 503, 302, 200]
    assert log["status"] == "succeeded"


def test_an_endpoint_that_keeps_failing_is_disabled_and_its_owner_emailed(ann, bob, receiver, sessions, app_config):
    hook = subscribe(ann, receiver.url(), event_types=["game.started", "game.events"])
    receiver.answer(*[(500, {})] * 10)
    game_id = count_game(ann, bob)
    first = _rows(sessions, WebhookDelivery)[0]
    now = utcnow()
    outcomes = []
    for _ in range(4):  # the first attempt and the three retries of "1s,2s,3s"
        outcomes.append(webhook_delivery.deliver(sessions, app_config, first.id, now=now))
        now = _rows(sessions, WebhookDelivery, WebhookDelivery.id == first.id)[0].next_attempt_at
    assert outcomes == ["retry", "retry", "retry", "failed"]
    endpoint = _rows(sessions, WebhookEndpoint)[0]
    assert endpoint.status == "disabled" and "4 attempts" in endpoint.disabled_reason
    assert endpoint.disabled_code == "retries_exhausted" and endpoint.disabled_details["attempts"] == 4
    (notice,) = _rows(sessions, MailMessage, MailMessage.kind == "webhook_disabled")
    assert notice.to_address == "ann@example.org" and receiver.url() in notice.text_body
    # Other messages for it are not sent while it is off.
    sent = len(receiver.requests)
    add(ann, game_id)
    deliver_all(sessions, app_config, now=utcnow() + dt.timedelta(hours=1))
    assert len(receiver.requests) == sent
    # Turned on again (the receiver works now), a failed message can be redelivered: same id, same body.
    receiver.script.clear()
    assert_error(ann.post(f"webhooks/{hook['id']}/deliveries/{first.id}/redeliver"), 409, "webhook_disabled")
    assert ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": True}).status_code == 200
    again = ann.post(f"webhooks/{hook['id']}/deliveries/{first.id}/redeliver", idempotent=True)
    assert again.status_code == 202 and again.get_json()["status"] == "pending"
    assert webhook_delivery.deliver(sessions, app_config, first.id) == "succeeded"
    assert receiver.requests[-1].headers["webhook-id"] == first.message_id
    assert receiver.requests[-1].body == receiver.requests[0].body


def test_410_gone_disables_at_once(ann, bob, receiver, sessions, app_config):
    subscribe(ann, receiver.url(), event_types=["game.started"])
    receiver.answer((410, {}))
    count_game(ann, bob)
    (delivery,) = _rows(sessions, WebhookDelivery)
    assert webhook_delivery.deliver(sessions, app_config, delivery.id) == "failed"
    endpoint = _rows(sessions, WebhookEndpoint)[0]
    assert endpoint.status == "disabled" and "410" in endpoint.disabled_reason
    assert len(_rows(sessions, MailMessage, MailMessage.kind == "webhook_disabled")) == 1


def test_private_addresses_are_refused_at_send_time_when_not_allowed(app, ann, bob, receiver, sessions, app_config,
                                                                     monkeypatch):
    # Registered while allowed (or under a public-looking name), sent once it is not.
    subscribe(ann, receiver.url("/literal"), event_types=["game.started"])
    subscribe(ann, f"http://hooks.example.com:{receiver.port}/named", event_types=["game.started"])
    monkeypatch.setattr(netguard, "resolver", lambda host, port: ["127.0.0.1"])
    count_game(ann, bob)
    strict = dataclasses.replace(app_config, webhooks_allow_private=False)
    counts = deliver_all(sessions, strict)
    assert counts == {"failed": 2}
    assert receiver.requests == []
    for endpoint in _rows(sessions, WebhookEndpoint):
        assert endpoint.status == "disabled" and "loopback" in endpoint.disabled_reason
        assert endpoint.disabled_code == "address_refused"
        assert endpoint.disabled_details["host"] in ("127.0.0.1", "hooks.example.com")
    assert all("refused" in d.last_error for d in _rows(sessions, WebhookDelivery))


def test_delivery_is_idempotent_and_a_dead_workers_claim_expires(ann, bob, receiver, sessions, app_config):
    subscribe(ann, receiver.url(), event_types=["game.started"])
    count_game(ann, bob)
    (delivery,) = _rows(sessions, WebhookDelivery)
    with sessions() as s:  # a worker claimed it and died
        row = s.get(WebhookDelivery, delivery.id)
        row.status, row.locked_until = "sending", utcnow() + dt.timedelta(minutes=1)
        s.commit()
    assert webhook_delivery.deliver(sessions, app_config, delivery.id) == "skipped"
    assert webhook_delivery.due_ids(sessions) == []
    later = utcnow() + dt.timedelta(minutes=2)
    assert webhook_delivery.due_ids(sessions, now=later) == [delivery.id]
    assert webhook_delivery.deliver(sessions, app_config, delivery.id, now=later) == "succeeded"
    assert webhook_delivery.deliver(sessions, app_config, delivery.id, now=later) == "skipped"
    assert len(receiver.requests) == 1


def test_rotation_signs_with_both_secrets_for_the_grace_period(ann, receiver, sessions, app_config):
    hook = subscribe(ann, receiver.url())
    rotated = ann.post(f"webhooks/{hook['id']}/rotate-secret", json={"grace_hours": 2}, idempotent=True)
    assert rotated.status_code == 200
    new = rotated.get_json()["secret"]
    assert new != hook["secret"] and rotated.get_json()["previous_secret_expires_at"]
    assert ann.post(f"webhooks/{hook['id']}/test").status_code == 202
    deliver_all(sessions, app_config)
    request = receiver.requests[-1]
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    assert verified(request, new)["type"] == "webhook.test"
    assert verified(request, hook["secret"])["type"] == "webhook.test"

    dropped = ann.post(f"webhooks/{hook['id']}/rotate-secret", json={"grace_hours": 0}).get_json()
    assert dropped["previous_secret_expires_at"] is None
    assert ann.post(f"webhooks/{hook['id']}/test").status_code == 202
    deliver_all(sessions, app_config)
    request = receiver.requests[-1]
    assert verified(request, dropped["secret"])["data"]["webhook_id"] == hook["id"]
    for old in (hook["secret"], new):
        with pytest.raises(WebhookVerificationError):
            Webhook(old).verify(request.body, request.headers)
    assert_error(ann.post(f"webhooks/{hook['id']}/rotate-secret", json={"grace_hours": 1000}), 422)


def test_the_workers_send_what_the_api_committed(app, ann, bob, receiver, sessions, app_config, stop_workers,
                                                worker_runtime):
    from service import inprocess
    from worker import tasks

    subscribe(ann, receiver.url(), event_types=["game.started", "game.events"])
    count_game(ann, bob)
    ids = [d.id for d in _rows(sessions, WebhookDelivery)]
    assert tasks.deliver_webhook(ids[0]) == "succeeded"
    worker = inprocess.start(sessions, app_config)
    rounds = worker.rounds
    assert inprocess.notify(app_config)
    assert worker.wait_rounds(rounds + 1)
    assert {d.status for d in _rows(sessions, WebhookDelivery)} == {"succeeded"}
    assert len(receiver.requests) == len(ids)


@pytest.mark.parametrize("lang,subject,words", [
    ("en", "Capua: a webhook of yours was turned off", "Reason: Your server answered 410 Gone"),
    ("de", "Capua: einer deiner Webhooks wurde abgeschaltet", "Grund: Dein Server hat mit 410 Gone geantwortet"),
    ("ru", "Capua: один из ваших вебхуков отключён", "Причина: Ваш сервер ответил 410 Gone")])
def test_the_disabled_webhook_mail_is_in_the_owners_language(ann, receiver, sessions, app_config, lang, subject,
                                                             words):
    from service.identity import settings
    from service.plumbing.db import User

    hook = subscribe(ann, receiver.url(), event_types=["game.started"])
    with sessions() as s:
        settings.update_preferences(s, s.get(User, ann.user_id), {"language": lang})
        s.commit()
    with sessions() as s:
        endpoint = s.get(WebhookEndpoint, hook["id"])
        assert webhook_delivery.disable(s, app_config, endpoint, "gone_410")
        assert not webhook_delivery.disable(s, app_config, endpoint, "gone_410"), "it was off already"
        s.commit()
    (notice,) = _rows(sessions, MailMessage, MailMessage.kind == "webhook_disabled")
    assert notice.subject == subject and notice.to_address == "ann@example.org"
    assert words in notice.text_body and words in notice.html_body and receiver.url() in notice.text_body
