"""Deadlines: defaults applied once and only when due, reminders, the creator's pause,
resume and extension, missed deadlines handing the seat to the bot, and vacations."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading

import pytest
from sqlalchemy import select

from service.notify import reminders
from service.play import absence, deadlines, games
from service.plumbing.db import (
    Game,
    GameClock,
    Notification,
    OpenDecision,
    Seat,
    StoredEvent,
    User,
    VacationDay,
    utcnow,
)
from service.plumbing.errors import Conflict, Forbidden, InvalidInput
from tests.notify.helpers import new_game
from tests.notify.support import pump

LATER = dt.timedelta(days=400)


def _rows(sessions, game_id):
    with sessions() as s:
        return list(s.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id,
                                                         OpenDecision.mode != "free").order_by(OpenDecision.seat)))


def _events(sessions, game_id):
    with sessions() as s:
        return [e.type for e in s.scalars(select(StoredEvent).where(StoredEvent.game_id == game_id)
                                          .order_by(StoredEvent.seq))]


def _user(s, name):
    return s.scalars(select(User).where(User.email == f"{name}@example.org")).one()


def test_a_passed_deadline_plays_the_default_once(sessions, cfg):
    game_id, users = new_game(sessions, cfg, clock={"vacation": False})
    rows = _rows(sessions, game_id)
    assert [r.seat for r in rows] == [0, 1]
    assert deadlines.apply_deadline(sessions, cfg, rows[0].id) == "not_due", "not before the deadline"
    late = rows[0].deadline_at + dt.timedelta(seconds=1)
    assert deadlines.apply_deadline(sessions, cfg, rows[0].id, now=late) == "applied"
    assert deadlines.apply_deadline(sessions, cfg, rows[0].id, now=late) == "not_due", "a duplicate is a no-op"
    with sessions() as s:
        version = s.get(Game, game_id).version
        assert games.apply_default(s, cfg, game_id, rows[0].decision_id, 0, rows[0].version) is None, \
            "a late trigger against the old version changes nothing"
        assert s.get(Game, game_id).version == version
    assert "capua.DeadlineMissed" in _events(sessions, game_id)


def test_racing_sweeps_apply_a_deadline_once(sessions, cfg):
    game_id, users = new_game(sessions, cfg, clock={"vacation": False})
    row = _rows(sessions, game_id)[0]
    late = row.deadline_at + dt.timedelta(seconds=1)
    outcomes = []
    start = threading.Barrier(4)

    def run():
        start.wait()
        outcomes.append(deadlines.apply_deadline(sessions, cfg, row.id, now=late))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes).count("applied") == 1
    assert _events(sessions, game_id).count("capua.DeadlineMissed") == 1


def test_early_resolution_when_everyone_answered(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    before = {r.decision_id for r in _rows(sessions, game_id)}
    with sessions() as s:
        for name in ("ann", "bob"):
            games.submit_command(s, cfg, game_id, _user(s, name), command_type="add", args={"n": 1},
                                 expected_version=None)
        s.commit()
    after = {r.decision_id for r in _rows(sessions, game_id)}
    assert after and not (after & before), "the round moved on without waiting for the deadline"


def test_a_silent_player_cannot_stall_the_game(sessions, cfg):
    """Bob never answers: his deadlines pass, the defaults are played, after two the bot
    takes his seat, and the game finishes by deadlines while Ann plays."""
    game_id, users = new_game(sessions, cfg, options={"target": 40}, clock={"vacation": False})
    now = utcnow()
    for _ in range(200):
        with sessions() as s:
            game = s.get(Game, game_id)
            if game.status == "finished":
                break
            ann = _user(s, "ann")
            if any(d["id"].startswith("add") for d in games.decisions_for(s, game_id, ann)):
                games.submit_command(s, cfg, game_id, ann, command_type="add", args={"n": 2},
                                     expected_version=None)
                s.commit()
        now += dt.timedelta(hours=25)
        deadlines.run_due_deadlines(sessions, cfg, now=now)
    with sessions() as s:
        assert s.get(Game, game_id).status == "finished"
        bob_seat = s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == 1)).one()
        assert bob_seat.bot_since is not None and bob_seat.missed_deadlines == 2
    with sessions() as s:
        bobs = [e.type for e in s.scalars(select(StoredEvent).where(StoredEvent.game_id == game_id))
                if e.type.startswith("capua.") and e.data.get("seat") == 1]
    assert bobs == ["capua.DeadlineMissed", "capua.DeadlineMissed", "capua.BotTookOver"]


def test_the_player_takes_the_seat_back(app, sessions, cfg, smtp_sink):
    game_id, users = new_game(sessions, cfg, options={"target": 1000}, clock={"vacation": False,
                                                                              "bot_after_missed": 1})
    row = next(r for r in _rows(sessions, game_id) if r.seat == 1)
    assert deadlines.apply_deadline(sessions, cfg, row.id, now=row.deadline_at + dt.timedelta(seconds=1)) == "applied"
    with sessions() as s:
        assert s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == 1)).one().bot_since is not None
    client = app.test_client()
    from service.identity import auth

    with sessions() as s:
        _t, token = auth.create_api_token(s, _user(s, "bob"), "t")
        s.commit()
    back = client.post(f"/api/v1/games/{game_id}/return", headers={"Authorization": f"Bearer {token}"})
    assert back.status_code == 200, back.data
    assert [s["bot_since"] for s in back.get_json()["seats"] if s["seat"] == 1] == [None]
    again = client.post(f"/api/v1/games/{game_id}/return", headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "not_taken_over"
    assert "capua.PlayerReturned" in _events(sessions, game_id)


def test_reminders_once_per_deadline_and_rearmed_when_it_moves(sessions, cfg, smtp_sink):
    game_id, users = new_game(sessions, cfg, options={"target": 1000}, clock={"hours": 24})
    row = _rows(sessions, game_id)[0]
    assert row.remind_at == row.deadline_at - dt.timedelta(hours=6), "a quarter of a 24 h clock"
    pump(sessions, cfg)
    before = len(smtp_sink.received())
    at = row.remind_at + dt.timedelta(minutes=1)
    assert reminders.run_due_reminders(sessions, cfg, now=at) == 2
    assert reminders.run_due_reminders(sessions, cfg, now=at) == 0, "at most one per deadline"
    pump(sessions, cfg, now=at)
    sent = smtp_sink.received()[before:]
    assert len(sent) == 2 and all("Reminder" in str(m["Subject"]) for m in sent)
    with sessions() as s:
        deadlines.extend(s, cfg, game_id, _user(s, "ann"), 24)
        s.commit()
    assert reminders.run_due_reminders(sessions, cfg, now=at) == 0
    moved = at + dt.timedelta(hours=24)
    assert reminders.run_due_reminders(sessions, cfg, now=moved) == 2, "the moved deadline re-arms it"


def test_only_those_who_still_owe_are_reminded(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    row = _rows(sessions, game_id)[0]
    with sessions() as s:
        games.submit_command(s, cfg, game_id, _user(s, "ann"), command_type="add", args={"n": 1},
                             expected_version=None)
        s.commit()
    assert reminders.run_due_reminders(sessions, cfg, now=row.remind_at + dt.timedelta(minutes=1)) == 1
    with sessions() as s:
        (note,) = s.scalars(select(Notification).where(Notification.kind == "reminder"))
        assert note.user_id == users["bob"]


def test_pause_resume_and_extend(app, sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    with sessions() as s:
        with pytest.raises(Forbidden):
            deadlines.pause(s, cfg, game_id, _user(s, "bob"))
        deadlines.pause(s, cfg, game_id, _user(s, "ann"), "holidays")
        s.commit()
    assert all(r.deadline_at is None and r.paused_remaining_s > 0 for r in _rows(sessions, game_id))
    with sessions() as s:
        with pytest.raises(Conflict) as err:
            games.submit_command(s, cfg, game_id, _user(s, "bob"), command_type="add", args={"n": 1},
                                 expected_version=None)
        assert err.value.code == "game_paused" and err.value.status == 409
        s.rollback()
    assert deadlines.run_due_deadlines(sessions, cfg, now=utcnow() + LATER) == 0, "no deadline runs while paused"
    with sessions() as s:
        deadlines.resume(s, cfg, game_id, _user(s, "ann"))
        s.commit()
    rows = _rows(sessions, game_id)
    assert all(r.deadline_at is not None and r.paused_remaining_s is None for r in rows)
    before = rows[0].deadline_at
    with sessions() as s:
        with pytest.raises(InvalidInput):
            deadlines.extend(s, cfg, game_id, _user(s, "ann"), 0)
        deadlines.extend(s, cfg, game_id, _user(s, "ann"), 12, seat=0)
        s.commit()
    rows = _rows(sessions, game_id)
    assert rows[0].deadline_at == before + dt.timedelta(hours=12) and rows[1].deadline_at == before
    assert [t for t in _events(sessions, game_id) if t.startswith("capua.")] == \
        ["capua.GamePaused", "capua.GameResumed", "capua.DeadlineExtended"]


def test_service_events_are_in_the_log_but_not_in_the_rules(app, sessions, cfg):
    from service.identity import auth

    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    with sessions() as s:
        deadlines.pause(s, cfg, game_id, _user(s, "ann"), "tea")
        _t, token = auth.create_api_token(s, _user(s, "bob"), "t")
        s.commit()
    client = app.test_client()
    log = client.get(f"/api/v1/games/{game_id}/events", headers={"Authorization": f"Bearer {token}"}).get_json()
    paused = [e for e in log["events"] if e["type"] == "capua.GamePaused"]
    assert paused and paused[0]["data"]["reason"] == "tea"
    view = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert view.status_code == 200 and view.get_json()["version"] == log["version"]
    command = client.post(f"/api/v1/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                          json={"type": "add", "args": {"n": 1}})
    assert command.status_code == 409 and command.get_json()["error"]["code"] == "game_paused"


def test_a_vacation_day_moves_the_deadline_once_per_day(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    other_id, _ = new_game(sessions, cfg, options={"target": 1000})
    row = next(r for r in _rows(sessions, game_id) if r.seat == 1)
    other = next(r for r in _rows(sessions, other_id) if r.seat == 1)
    late = max(row.deadline_at, other.deadline_at) + dt.timedelta(seconds=1)
    assert deadlines.apply_deadline(sessions, cfg, row.id, now=late) == "vacation"
    assert deadlines.apply_deadline(sessions, cfg, other.id, now=late) == "vacation"
    with sessions() as s:
        assert s.scalars(select(VacationDay).where(VacationDay.user_id == users["bob"])).all().__len__() == 1, \
            "one calendar day covers every game"
        moved = s.get(OpenDecision, row.id).deadline_at
        assert moved == late + dt.timedelta(hours=24) or moved > late
    assert "capua.VacationDaySpent" in _events(sessions, game_id)


def test_no_allowance_left_means_the_deadline_passes(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000})
    row = next(r for r in _rows(sessions, game_id) if r.seat == 1)
    late = row.deadline_at + dt.timedelta(seconds=1)
    spent = dataclasses.replace(cfg, vacation_days_per_year=0)
    assert deadlines.apply_deadline(sessions, spent, row.id, now=late) == "applied"


def test_a_declared_vacation_moves_deadlines_past_its_end(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000}, clock={"hours": 24})
    row = next(r for r in _rows(sessions, game_id) if r.seat == 1)
    late = row.deadline_at + dt.timedelta(seconds=1)
    with sessions() as s:
        bob = _user(s, "bob")
        absence.declare_vacation(s, bob, late.date(), late.date() + dt.timedelta(days=3), "Rome",
                                 today=late.date())
        s.commit()
    assert deadlines.apply_deadline(sessions, cfg, row.id, now=late) == "vacation"
    with sessions() as s:
        moved = s.get(OpenDecision, row.id).deadline_at
        end = dt.datetime.combine(late.date() + dt.timedelta(days=4), dt.time(0), tzinfo=dt.timezone.utc)
        assert moved == end + dt.timedelta(hours=24), "a full clock after the vacation ends"
        assert len(s.scalars(select(VacationDay).where(VacationDay.user_id == users["bob"])).all()) == 4


@pytest.mark.parametrize("bad", [
    {"starts_on": "2026-13-01", "ends_on": "2026-12-31"},
    {"starts_on": "2030-01-10", "ends_on": "2030-01-01"},
    {"starts_on": "2020-01-01", "ends_on": "2020-01-02"},
    {"starts_on": "2030-01-01", "ends_on": "2032-01-01"},
])
def test_malformed_vacations_are_refused(sessions, cfg, bad):
    with sessions() as s:
        from service.identity import auth

        user = auth.get_or_create_user(s, "ann@example.org")
        with pytest.raises(InvalidInput) as err:
            absence.declare_vacation(s, user, bad["starts_on"], bad["ends_on"])
        assert err.value.code == "invalid_vacation" and err.value.details["fields"]


def test_a_clock_with_a_time_of_day_and_weekend_pause_is_stored(sessions, cfg):
    game_id, users = new_game(sessions, cfg, options={"target": 1000},
                              clock={"hours": 12, "time_of_day": "20:00", "timezone": "Europe/Berlin",
                                     "weekend_pause": True, "bot_after_missed": 3})
    with sessions() as s:
        clock_row = s.get(GameClock, game_id)
        assert (clock_row.time_of_day, clock_row.timezone, clock_row.weekend_pause, clock_row.bot_after_missed) \
            == ("20:00", "Europe/Berlin", True, 3)
        assert s.get(Game, game_id).clock_hours == 12
    for row in _rows(sessions, game_id):
        local = row.deadline_at.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin"))
        assert (local.hour, local.minute) == (20, 0) and local.weekday() < 5
