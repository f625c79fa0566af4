"""One transaction per change: a command's events, the outbox rows its listeners write
and its idempotency record are committed together, or none of them is.

The listener added here writes a real outbox row (a mail) with the caller's session, as
the notification and webhook listeners do; the second test makes it fail after writing.
"""

from __future__ import annotations

import pytest

from service.play import fanout
from service.plumbing import mail
from service.plumbing.db import IdempotencyKey, MailMessage, StoredEvent
from tests.api.players import blocking, create_game


@pytest.fixture
def duel(ann):
    return create_game(ann, game_type="pax", seats=2, bot_seats=[1])


def _command(client, game_id):
    body = client.get(f"games/{game_id}/decisions").get_json()
    option = blocking(body["decisions"])[0]["options"][0]
    return {"type": option["type"], "args": option["args"], "expected_version": body["version"]}


def _listening(monkeypatch, *, then_fail: bool) -> list:
    heard = []

    def listener(session, config, game, rules, state, appended, seats, change):
        mail.queue_mail(session, to="watcher@example.org", subject=f"game {game.id} moved", text="moved")
        heard.append([seq for seq, _event in appended])
        if then_fail:
            raise RuntimeError("a listener failed after writing its outbox row")

    monkeypatch.setattr(fanout, "_on_append", (*fanout.listeners(), listener))
    return heard


def test_events_outbox_rows_and_idempotency_record_commit_together(ann, duel, count_rows, monkeypatch):
    heard = _listening(monkeypatch, then_fail=False)
    before = {model: count_rows(model) for model in (StoredEvent, MailMessage, IdempotencyKey)}
    answer = ann.post(f"games/{duel['id']}/commands", json=_command(ann, duel["id"]),
                      headers={"Idempotency-Key": "together"})
    assert answer.status_code == 200
    assert heard, "the fan-out ran"
    assert count_rows(StoredEvent) > before[StoredEvent]
    assert count_rows(MailMessage) >= before[MailMessage] + len(heard), "the listener's rows are in"
    assert count_rows(IdempotencyKey) == before[IdempotencyKey] + 1


def test_a_failure_after_the_outbox_rows_were_written_leaves_nothing(ann, duel, count_rows, monkeypatch):
    heard = _listening(monkeypatch, then_fail=True)
    version = ann.get(f"games/{duel['id']}").get_json()["version"]
    before = {model: count_rows(model) for model in (StoredEvent, MailMessage, IdempotencyKey)}
    answer = ann.post(f"games/{duel['id']}/commands", json=_command(ann, duel["id"]),
                      headers={"Idempotency-Key": "all-or-nothing"})
    assert answer.status_code == 500
    assert heard, "the events were appended and the row written before the failure"
    assert {model: count_rows(model) for model in before} == before, "no event, no outbox row, no key"
    assert ann.get(f"games/{duel['id']}").get_json()["version"] == version
