"""Registering webhooks through the API: what is accepted, what is refused, who sees what."""

from __future__ import annotations

import dataclasses

import pytest

from service.plumbing import netguard
from service.plumbing.db import WebhookEndpoint
from tests.api.support import assert_error
from tests.webhooks.support import count_game, subscribe


def test_a_user_subscribes_for_one_game_or_all_and_sees_only_their_own(ann, bob, receiver):
    game_id = count_game(ann, bob)
    one = subscribe(ann, receiver.url(), game_id=game_id, event_types=["game.events"], description="bot")
    every = subscribe(ann, receiver.url("/all"))
    assert one["secret"].startswith("whsec_") and one["secret"] != every["secret"]
    assert one["game_id"] == game_id and one["event_types"] == ["game.events"] and one["status"] == "enabled"
    assert every["game_id"] is None and set(every["event_types"]) == {
        "game.events", "decision.opened", "game.started", "game.finished", "talk.message"}
    listed = ann.get("webhooks").get_json()["webhooks"]
    assert [w["id"] for w in listed] == [one["id"], every["id"]]
    assert all("secret" not in w for w in listed)
    assert ann.get(f"webhooks/{one['id']}/secret").get_json()["secret"] == one["secret"]
    assert bob.get("webhooks").get_json()["webhooks"] == []
    assert_error(bob.get(f"webhooks/{one['id']}"), 404, "webhook_not_found")
    assert_error(bob.get(f"webhooks/{one['id']}/secret"), 404, "webhook_not_found")
    assert_error(bob.delete(f"webhooks/{one['id']}"), 404, "webhook_not_found")
    types = ann.get("webhooks/event-types").get_json()["event_types"]
    assert {t["name"] for t in types} == set(every["event_types"])


def test_forged_and_malformed_registrations_are_refused_and_change_nothing(app, ann, bob, receiver, count_rows,
                                                                           monkeypatch):
    config = app.extensions["capua.config"]
    monkeypatch.setitem(app.extensions, "capua.config", dataclasses.replace(config, webhooks_allow_private=False))
    for url, code in [("http://127.0.0.1:9/hook", "forbidden_address"), ("http://localhost/x", "forbidden_address"),
                      ("http://169.254.169.254/latest/meta-data/", "forbidden_address"),
                      ("http://[::1]/", "forbidden_address"), ("ftp://example.com/", "invalid_url"),
                      ("https://u:p@example.com/", "invalid_url")]:
        error = assert_error(ann.post("webhooks", json={"url": url}, idempotent=True), 422, code)
        assert error["details"]["field"] == "url"
    assert_error(ann.post("webhooks", json={"url": "https://example.com/", "game_id": "nosuchgame"}), 404)
    assert_error(ann.post("webhooks", json={"url": "https://example.com/", "event_types": ["game.everything"]}),
                 422, "invalid_event_types")
    assert_error(ann.post("webhooks", json={"url": "https://example.com/", "event_types": []}), 422)
    assert_error(ann.post("webhooks", json={"url": "https://example.com/", "secret": "whsec_mine"}), 422)
    assert_error(ann.post("webhooks", json={"url": 7}), 422)
    assert count_rows(WebhookEndpoint) == 0


def test_updating_disabling_and_deleting(ann, receiver, count_rows):
    hook = subscribe(ann, receiver.url())
    changed = ann.request("PATCH", f"webhooks/{hook['id']}", json={"event_types": ["talk.message"],
                                                                     "description": "talk only"}, idempotent=True)
    assert changed.status_code == 200
    assert changed.get_json()["event_types"] == ["talk.message"]
    off = ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": False}).get_json()
    assert off["status"] == "disabled" and off["disabled_reason"] == "disabled by you"
    assert_error(ann.post(f"webhooks/{hook['id']}/test"), 409, "webhook_disabled")
    on = ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": True}).get_json()
    assert on["status"] == "enabled" and on["disabled_reason"] == ""
    assert_error(ann.request("PATCH", f"webhooks/{hook['id']}", json={"enabled": "yes"}), 422)
    assert ann.delete(f"webhooks/{hook['id']}").status_code == 204
    assert count_rows(WebhookEndpoint) == 0


def _refusing_private(app, monkeypatch):
    config = app.extensions["capua.config"]
    monkeypatch.setitem(app.extensions, "capua.config", dataclasses.replace(config, webhooks_allow_private=False))


@pytest.mark.parametrize("url", ["http://127.1/hook", "http://2130706433/hook", "http://0x7f000001/hook",
                                 "http://0177.0.0.1/hook", "https://127.0.0.1.:8443/x"])
def test_addresses_the_resolver_reads_as_loopback_are_refused_at_registration(app, ann, count_rows, monkeypatch,
                                                                              url):
    _refusing_private(app, monkeypatch)
    error = assert_error(ann.post("webhooks", json={"url": url}, idempotent=True), 422, "forbidden_address")
    assert "loopback" in error["message"] and error["details"]["field"] == "url"
    assert count_rows(WebhookEndpoint) == 0


def test_a_hosts_file_alias_of_localhost_is_refused_at_registration_and_when_changed(app, ann, count_rows,
                                                                                   monkeypatch):
    answers = {"hooks.example.com": ["93.184.216.34"], "my-alias": ["127.0.0.1"], "v6-alias": ["::1"],
               "mixed.example.com": ["93.184.216.34", "10.1.2.3"]}
    monkeypatch.setattr(netguard, "resolver", lambda host, port: answers[host])
    _refusing_private(app, monkeypatch)
    for url in ("http://my-alias/hook", "https://v6-alias/", "https://mixed.example.com/"):
        assert_error(ann.post("webhooks", json={"url": url}), 422, "forbidden_address")
    hook = ann.post("webhooks", json={"url": "https://hooks.example.com/x"})
    assert hook.status_code == 201
    changed = ann.request("PATCH", f"webhooks/{hook.get_json()['id']}", json={"url": "http://my-alias:8080/"})
    assert_error(changed, 422, "forbidden_address")
    assert ann.get(f"webhooks/{hook.get_json()['id']}").get_json()["url"] == "https://hooks.example.com/x"
    assert count_rows(WebhookEndpoint) == 1


def test_a_name_that_does_not_resolve_yet_is_accepted_and_checked_at_send_time(app, ann, monkeypatch):
    def no_answer(host, port):
        raise OSError("no such name")

    monkeypatch.setattr(netguard, "resolver", no_answer)
    _refusing_private(app, monkeypatch)
    assert ann.post("webhooks", json={"url": "https://not-yet.example.com/"}).status_code == 201


def test_a_host_name_the_resolver_cannot_encode_is_invalid(app, ann, monkeypatch):
    _refusing_private(app, monkeypatch)
    refused = assert_error(ann.post("webhooks", json={"url": "https://" + "a" * 70 + ".example.com/"}), 422,
                           "invalid_url")
    assert refused["details"]["reason"] == "not_a_host" and refused["details"]["field"] == "url"
