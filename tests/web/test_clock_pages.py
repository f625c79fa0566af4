"""The clock on the game page: the creator's pause, resume and extend buttons and a
returning player's "I am back", posting to page routes that call the same service
functions as ``/api/v1/games/{id}/pause|resume|deadlines/extend|return``."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from service.play import deadlines
from service.plumbing.db import OpenDecision, Seat, utcnow
from tests.web.support import csrf_from, sign_in_with


@pytest.fixture
def ann(app):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    return client


@pytest.fixture
def bob(app):
    client = app.test_client()
    sign_in_with(app, client, "bob@example.org")
    return client


def _clock(web_sessions, game_id):
    with web_sessions() as s:
        return deadlines.clock_view(s, game_id)


def _post(client, game_id, action, **data):
    page = client.get(f"/games/{game_id}")
    return client.post(f"/games/{game_id}/{action}", data={"csrf_token": csrf_from(page.data), **data})


def test_the_creator_pauses_and_resumes_from_the_page(ann, bob, running_game, web_sessions):
    page = ann.get(f"/games/{running_game}").get_data(as_text=True)
    assert "Pause the game" in page and "Extend the deadlines" in page and "Resume the game" not in page
    assert "I am back" not in page

    paused = _post(ann, running_game, "pause", reason="dinner")
    assert paused.status_code == 303 and paused.headers["Location"].endswith(f"/games/{running_game}#clock")
    assert _clock(web_sessions, running_game)["paused"] is True
    page = ann.get(f"/games/{running_game}").get_data(as_text=True)
    assert "Resume the game" in page and "Pause the game" not in page

    again = ann.post(f"/games/{running_game}/pause", data={"csrf_token": csrf_from(page)})
    assert again.status_code == 409 and "paused already" in again.get_data(as_text=True)

    resumed = _post(ann, running_game, "resume")
    assert resumed.status_code == 303 and _clock(web_sessions, running_game)["paused"] is False
    not_paused = _post(ann, running_game, "resume")
    assert not_paused.status_code == 409 and "not paused" in not_paused.get_data(as_text=True)


def test_the_creator_extends_the_deadlines(ann, running_game, web_sessions):
    before = {d["seat"]: d["deadline_at"] for d in _clock(web_sessions, running_game)["deadlines"]}
    assert before and all(before.values())
    extended = _post(ann, running_game, "deadlines/extend", hours="5", seat="1")
    assert extended.status_code == 303
    after = {d["seat"]: d["deadline_at"] for d in _clock(web_sessions, running_game)["deadlines"]}
    assert after[1] - before[1] == dt.timedelta(hours=5)
    assert all(after[s] == before[s] for s in after if s != 1)
    everyone = _post(ann, running_game, "deadlines/extend", hours="2", seat="")
    assert everyone.status_code == 303
    latest = {d["seat"]: d["deadline_at"] for d in _clock(web_sessions, running_game)["deadlines"]}
    assert all(latest[s] - after[s] == dt.timedelta(hours=2) for s in latest)

    for hours, status, words in (("soon", 422, "whole number"), ("", 422, "whole number"),
                                 ("0", 422, "Extend by a whole number of hours from 1 to")):
        refused = _post(ann, running_game, "deadlines/extend", hours=hours)
        assert refused.status_code == status and words in refused.get_data(as_text=True), hours
    refused = _post(ann, running_game, "deadlines/extend", hours="3", seat="7")
    assert refused.status_code == 422 and "There is no such seat in this game." in refused.get_data(as_text=True)
    assert {d["seat"]: d["deadline_at"] for d in _clock(web_sessions, running_game)["deadlines"]} == latest


def test_only_the_creator_controls_the_clock(bob, running_game, web_sessions):
    page = bob.get(f"/games/{running_game}").get_data(as_text=True)
    assert "Pause the game" not in page and "Extend the deadlines" not in page and 'id="clock"' not in page
    for action, data in (("pause", {}), ("resume", {}), ("deadlines/extend", {"hours": "3"})):
        refused = _post(bob, running_game, action, **data)
        assert refused.status_code == 403 and "Only the game&#39;s creator" in refused.get_data(as_text=True)
    assert _clock(web_sessions, running_game)["paused"] is False


def test_the_forms_need_csrf_and_a_signed_in_user(app, ann, running_game, web_sessions):
    assert ann.post(f"/games/{running_game}/pause", data={}).status_code in (400, 403)
    assert _clock(web_sessions, running_game)["paused"] is False
    anonymous = app.test_client()
    page = anonymous.get(f"/games/{running_game}")
    assert "Pause the game" not in page.get_data(as_text=True)
    signin = anonymous.get("/signin").data
    answer = anonymous.post(f"/games/{running_game}/pause", data={"csrf_token": csrf_from(signin)})
    assert answer.status_code == 303 and "/signin?next=" in answer.headers["Location"]
    assert _clock(web_sessions, running_game)["paused"] is False


def test_a_player_whose_seat_the_bot_plays_takes_it_back(bob, running_game, web_sessions):
    refused = _post(bob, running_game, "return")
    assert refused.status_code == 409 and "nothing to take back" in refused.get_data(as_text=True)
    with web_sessions() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == running_game, Seat.seat == 1))
        seat.bot_since, seat.missed_deadlines = utcnow(), 2
        s.commit()
    page = bob.get(f"/games/{running_game}").get_data(as_text=True)
    assert "I am back" in page and "Pause the game" not in page
    back = _post(bob, running_game, "return")
    assert back.status_code == 303
    seats = {s["seat"]: s for s in _clock(web_sessions, running_game)["seats"]}
    assert seats[1]["bot_since"] is None and seats[1]["missed_deadlines"] == 0
    assert "I am back" not in bob.get(f"/games/{running_game}").get_data(as_text=True)
