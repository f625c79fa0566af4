"""Deadline arithmetic: time per decision, fixed time of day, weekend pause, DST, reminders."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from service.plumbing.clock import ClockPolicy, add_running_time, deadline_after, reminder_lead

UTC = dt.timezone.utc
BERLIN = ZoneInfo("Europe/Berlin")


def at(*args, tz=UTC):
    return dt.datetime(*args, tzinfo=tz)


@pytest.mark.parametrize("hours", [12, 24, 48, 72, 168])
def test_plain_clock_adds_the_time_per_decision(hours):
    start = at(2026, 11, 26, 10, 0)
    assert deadline_after(ClockPolicy(hours=hours), start) == start + dt.timedelta(hours=hours)


def test_weekend_pause_skips_saturday_and_sunday():
    policy = ClockPolicy(hours=24, weekend_pause=True, timezone="Europe/Berlin")
    friday_evening = at(2026, 11, 27, 18, 0, tz=BERLIN)
    assert deadline_after(policy, friday_evening) == at(2026, 11, 30, 18, 0, tz=BERLIN)
    saturday = at(2026, 11, 28, 12, 0, tz=BERLIN)
    assert deadline_after(policy, saturday) == at(2026, 12, 1, 0, 0, tz=BERLIN), "starts running on Monday"


def test_a_fixed_time_of_day():
    policy = ClockPolicy(hours=24, time_of_day="20:00", timezone="Europe/Berlin")
    assert deadline_after(policy, at(2026, 11, 26, 10, 0, tz=BERLIN)) == at(2026, 11, 27, 20, 0, tz=BERLIN)
    assert deadline_after(policy, at(2026, 11, 26, 21, 0, tz=BERLIN)) == at(2026, 11, 28, 20, 0, tz=BERLIN)


def test_time_of_day_never_lands_on_a_weekend_with_the_pause():
    policy = ClockPolicy(hours=12, time_of_day="09:00", timezone="Europe/Berlin", weekend_pause=True)
    deadline = deadline_after(policy, at(2026, 11, 27, 20, 0, tz=BERLIN))
    assert deadline.astimezone(BERLIN).weekday() == 0 and deadline.astimezone(BERLIN).hour == 9


def test_daylight_saving_keeps_the_wall_clock_time():
    policy = ClockPolicy(hours=24, time_of_day="20:00", timezone="Europe/Berlin")
    before_change = at(2026, 10, 24, 21, 0, tz=BERLIN)  # clocks go back at 03:00 on 25 October
    deadline = deadline_after(policy, before_change).astimezone(BERLIN)
    assert (deadline.day, deadline.hour, deadline.minute) == (25, 20, 0), \
        "24 real hours end at 20:00 on the 25th (the night had 25 hours): exactly the time of day"
    assert deadline.astimezone(UTC) - before_change.astimezone(UTC) == dt.timedelta(hours=24)


def test_running_time_over_a_long_weekend_span():
    policy = ClockPolicy(weekend_pause=True)
    monday = at(2026, 11, 23, 0, 0)
    assert add_running_time(policy, monday, dt.timedelta(days=7)) == at(2026, 12, 2, 0, 0)


@pytest.mark.parametrize("hours,preferred,lead", [
    (12, None, 3), (24, None, 6), (48, None, 12), (72, None, 18), (168, None, 24), (2, None, 1),
    (24, 2, 2), (24, 20, 12), (24, 0, None),
])
def test_reminder_lead_scales_with_the_clock(hours, preferred, lead):
    got = reminder_lead(ClockPolicy(hours=hours), preferred)
    assert got == (dt.timedelta(hours=lead) if lead is not None else None)


@pytest.mark.parametrize("hours, window", [(24, 4), (48, 8), (72, 12), (12, 2), (3, 1), (1, 1)])
def test_window_answers_get_a_sixth_of_the_clock_at_least_an_hour(hours, window):
    policy = ClockPolicy(hours=hours)
    start = at(2026, 11, 26, 10, 0)
    assert policy.window == window
    assert deadline_after(policy.for_mode("interrupt"), start) == start + dt.timedelta(hours=window)
    for mode in ("turn", "simultaneous"):
        assert deadline_after(policy.for_mode(mode), start) == start + dt.timedelta(hours=hours)


def test_a_chosen_window_clock_and_its_reminder():
    policy = ClockPolicy(hours=24, window_hours=2)
    assert policy.for_mode("interrupt").hours == 2 and policy.to_json()["window_hours"] == 2
    assert reminder_lead(policy.for_mode("interrupt"), None) == dt.timedelta(hours=1)
    assert reminder_lead(policy.for_mode("interrupt"), 12) == dt.timedelta(hours=1), "never before half-way"
