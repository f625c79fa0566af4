"""Notification settings: defaults, validation (malformed input changes nothing), the
API and page forms, and when a notification may go out (coalescing, quiet hours, digest)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from sqlalchemy import select

from service.identity import auth, settings
from service.notify import notifications
from service.plumbing.db import Notification, User, utcnow
from tests.notify.helpers import new_game
from tests.notify.support import csrf_from, pump, sign_in

UTC = dt.timezone.utc


def _token(sessions, name="ann"):
    with sessions() as s:
        user = auth.get_or_create_user(s, f"{name}@example.org")
        _row, raw = auth.create_api_token(s, user, "t")
        s.commit()
        return {"Authorization": f"Bearer {raw}"}, user.id


def test_defaults_act_at_once_and_digest_the_rest(app, sessions):
    headers, _ = _token(sessions)
    prefs = app.test_client().get("/api/v1/me/notifications", headers=headers).get_json()
    assert prefs == {"act_delivery": "immediate", "info_delivery": "digest", "digest_hour": 8, "quiet_start": None,
                     "quiet_end": None, "reminder_lead_hours": None, "email_enabled": True, "language": "en",
                     "timezone": "UTC"}


def test_changing_settings_over_the_api(app, sessions):
    headers, user_id = _token(sessions)
    client = app.test_client()
    answer = client.patch("/api/v1/me/notifications", headers=headers,
                          json={"language": "de", "timezone": "Europe/Berlin", "quiet_start": 22, "quiet_end": 7,
                                "info_delivery": "off"})
    assert answer.status_code == 200, answer.data
    assert answer.get_json()["language"] == "de" and answer.get_json()["quiet_start"] == 22
    assert client.get("/api/v1/me/notifications", headers=headers).get_json()["timezone"] == "Europe/Berlin"


@pytest.mark.parametrize("body", [
    {"act_delivery": "sometimes"}, {"digest_hour": 24}, {"digest_hour": "8"}, {"timezone": "Mars/Olympus"},
    {"language": "fr"}, {"quiet_start": 22}, {"quiet_start": 5, "quiet_end": 5}, {"reminder_lead_hours": -1},
    {"email_enabled": "yes"}, {"colour": "red"}, ["not", "an", "object"],
])
def test_malformed_settings_are_refused_and_change_nothing(app, sessions, body):
    headers, user_id = _token(sessions)
    client = app.test_client()
    before = client.get("/api/v1/me/notifications", headers=headers).get_json()
    answer = client.patch("/api/v1/me/notifications", headers=headers, json=body)
    assert answer.status_code == 422, answer.data
    error = answer.get_json()["error"]
    assert error["code"] in ("invalid_input", "invalid_preferences") and error["message"]
    assert client.get("/api/v1/me/notifications", headers=headers).get_json() == before


def test_per_game_settings_inherit_and_override(app, sessions, cfg):
    game_id, users = new_game(sessions, cfg)
    headers, _ = _token(sessions, "ann")
    client = app.test_client()
    url = f"/api/v1/me/notifications/games/{game_id}"
    assert client.get(url, headers=headers).get_json()["effective"]["info_delivery"] == "digest"
    changed = client.patch(url, headers=headers, json={"info_delivery": "immediate"})
    assert changed.status_code == 200 and changed.get_json()["effective"]["info_delivery"] == "immediate"
    assert client.get("/api/v1/me/notifications/games", headers=headers).get_json()["games"][0]["game_id"] == game_id
    assert client.delete(url, headers=headers).status_code == 204
    assert client.get(url, headers=headers).get_json()["overrides"]["info_delivery"] is None
    stranger, _ = _token(sessions, "zed")
    assert client.get(url, headers=stranger).status_code == 404


def test_vacation_over_the_api(app, sessions):
    headers, _ = _token(sessions)
    client = app.test_client()
    summary = client.get("/api/v1/me/vacation", headers=headers).get_json()
    assert summary["remaining"] == summary["days_per_year"] and summary["vacations"] == []
    made = client.post("/api/v1/me/vacation/periods", headers=headers,
                       json={"starts_on": "2099-07-01", "ends_on": "2099-07-14", "note": "Capri"})
    assert made.status_code == 201 and made.get_json()["vacations"][0]["note"] == "Capri"
    bad = client.post("/api/v1/me/vacation/periods", headers=headers,
                      json={"starts_on": "2099-07-14", "ends_on": "2099-07-01"})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "invalid_vacation"
    vid = made.get_json()["vacations"][0]["id"]
    assert client.delete(f"/api/v1/me/vacation/periods/{vid}", headers=headers).status_code == 204
    assert client.delete(f"/api/v1/me/vacation/periods/{vid}", headers=headers).status_code == 404


def test_the_settings_pages(app, sessions, cfg, smtp_sink):
    browser = app.test_client()
    assert browser.get("/settings/notifications").status_code == 303, "signed-in players only"
    sign_in(app, browser, smtp_sink, "ann@example.org")
    page = browser.get("/settings/notifications")
    assert page.status_code == 200 and "Notification settings" in page.data.decode()
    form = {"csrf_token": csrf_from(page.data.decode()), "act_delivery": "immediate", "info_delivery": "off",
            "digest_hour": "9", "quiet_start": "", "quiet_end": "", "reminder_lead_hours": "3", "language": "ru",
            "timezone": "Europe/Moscow", "email_enabled": "1"}
    saved = browser.post("/settings/notifications", data=form)
    assert saved.status_code == 200 and "Сохранено" in saved.data.decode(), "the page now speaks Russian"
    refused = browser.post("/settings/notifications", data={**form, "digest_hour": "25"})
    assert refused.status_code == 422
    with sessions() as s:
        user = s.scalars(select(User).where(User.email == "ann@example.org")).one()
        assert settings.preferences(s, user).digest_hour == 9

    vacation = browser.get("/settings/vacation")
    declared = browser.post("/settings/vacation", data={"csrf_token": csrf_from(vacation.data.decode()),
                                                         "starts_on": "2099-01-01", "ends_on": "2099-01-03"})
    assert declared.status_code == 303
    assert "2099-01-01" in browser.get("/settings/vacation").data.decode()
    bad = browser.post("/settings/vacation", data={"csrf_token": csrf_from(vacation.data.decode()),
                                                    "starts_on": "soon", "ends_on": "later"})
    assert bad.status_code == 422


# --------------------------------------------------------------------------- when mail may go out


def _prefs(**kw) -> settings.Preferences:
    return settings.Preferences(**kw)


def test_immediate_mail_is_coalesced_within_the_window(cfg):
    now = dt.datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    config = dataclasses.replace(cfg, notify_coalesce_seconds=60)
    assert notifications.due_time(config, _prefs(), "immediate", now, None) == now
    assert notifications.due_time(config, _prefs(), "immediate", now, now - dt.timedelta(seconds=20)) == \
        now + dt.timedelta(seconds=40)


def test_quiet_hours_hold_mail_until_they_end(cfg):
    prefs = _prefs(quiet_start=22, quiet_end=7, timezone="Europe/Berlin")
    late = dt.datetime(2026, 11, 26, 22, 30, tzinfo=UTC)  # 23:30 in Berlin
    assert notifications.due_time(cfg, prefs, "immediate", late, None) == dt.datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
    noon = dt.datetime(2026, 11, 26, 11, 0, tzinfo=UTC)
    assert notifications.due_time(cfg, prefs, "immediate", noon, None) == noon


def test_the_digest_waits_for_the_chosen_hour(cfg):
    prefs = _prefs(digest_hour=8, timezone="Asia/Tokyo")
    now = dt.datetime(2026, 11, 26, 12, 0, tzinfo=UTC)  # 21:00 in Tokyo
    assert notifications.due_time(cfg, prefs, "digest", now, None) == dt.datetime(2026, 11, 26, 23, 0, tzinfo=UTC)


def test_notifications_arriving_together_become_one_mail(app, sessions, cfg, smtp_sink):
    """No storms: everything pending for a player goes out as one message."""
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    other_id, _ = new_game(sessions, cfg, options={"target": 1000})
    pump(sessions, cfg)
    ann = [m for m in smtp_sink.received() if m["To"] == "ann@example.org"]
    assert len(ann) == 1 and "2 games" in str(ann[0]["Subject"])
    with sessions() as s:
        assert {n.status for n in s.scalars(select(Notification).where(Notification.user_id == users["ann"]))} \
            == {"mailed"}


def test_an_answered_decision_is_not_mailed_and_its_news_waits_for_the_digest(app, sessions, cfg, smtp_sink):
    from service.play import games

    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    with sessions() as s:  # Ann answers on the site before her mail went out
        games.submit_command(s, cfg, game_id, s.get(User, users["ann"]), command_type="add", args={"n": 1},
                             expected_version=None)
        s.commit()
    pump(sessions, cfg)
    assert [m["To"] for m in smtp_sink.received()] == ["bob@example.org"]
    with sessions() as s:
        (note,) = s.scalars(select(Notification).where(Notification.user_id == users["ann"]))
        assert (note.kind, note.urgent, note.status) == ("news", False, "pending"), "what it said waits for the digest"
        assert note.due_at > utcnow()


def test_mail_shows_only_what_the_seat_may_see(app, sessions, cfg, smtp_sink, count_game):
    """The count game writes secrets as S<seat>:<value>; no mail may name another's."""
    from service.play import games, store
    from service.plumbing.db import Game

    game_id, users = new_game(sessions, cfg, players=("ann", "bob", "cyd"), options={"target": 1000})
    with sessions() as s:
        for name in ("ann", "bob", "cyd"):
            games.submit_command(s, cfg, game_id, s.scalars(select(User).where(User.email == f"{name}@example.org"))
                                 .one(), command_type="add", args={"n": 2}, expected_version=None)
        s.commit()
        state = store.load_state(s, s.get(Game, game_id))
    pump(sessions, cfg, now=dt.datetime.now(UTC) + dt.timedelta(days=2))
    seat_of = {"ann@example.org": 0, "bob@example.org": 1, "cyd@example.org": 2}
    received = smtp_sink.received()
    assert received
    for message in received:
        body = message.get_body(preferencelist=("plain",)).get_content() + \
            message.get_body(preferencelist=("html",)).get_content()
        me = seat_of[str(message["To"])]
        for seat, value in enumerate(state.secrets):
            if seat != me:
                assert f"S{seat}:{value}" not in body
