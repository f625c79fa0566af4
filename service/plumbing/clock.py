"""Deadline arithmetic: when a decision opened now must be answered, in pure functions.

A game's clock policy is chosen at creation: the time per decision (12 h, 24 h, 48 h,
72 h, 7 days...), optionally a fixed time of day at which deadlines fall (in the
policy's time zone), and optionally a weekend pause, during which the clock does not
run (Saturday 00:00 to Monday 00:00 local time).  Everything here works on aware UTC
datetimes and converts to local time only to find day and week boundaries, so daylight
saving changes move deadlines the way a player reading a wall clock expects.

Nothing here touches the database; :mod:`service.play.deadlines` stores and applies.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

UTC = dt.timezone.utc
_TIME_OF_DAY = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
#: Saturday and Sunday (``date.weekday()``).
WEEKEND = (5, 6)
#: Reminders go out a quarter of the clock before the deadline, at least an hour and at
#: most a day before it, and never earlier than half-way through the clock.
REMINDER_SHARE = 0.25
REMINDER_MIN = dt.timedelta(hours=1)
REMINDER_MAX = dt.timedelta(hours=24)
#: Window answers (react, use a guard, pass) run on a clock of their own, by default this
#: share of the time per decision (4 h of a 24 h clock), at least an hour: a window that
#: asks everybody in principle must not hold the game for a full decision clock.
WINDOW_SHARE = 1 / 6
#: The decision mode that runs on the window clock.
WINDOW_MODE = "interrupt"
#: The mode whose clock a window's target answers on: the decision clock.
TARGET_CLOCK_MODE = "turn"


def clock_mode(mode: str, seat: int, prompt_args: Optional[Mapping[str, Any]]) -> str:
    """The mode whose clock a decision of ``mode`` addressed to ``seat`` runs on.

    A window answer runs on the window clock, except the one the window's target owes:
    the target is public (a scheme names it aloud, the decision's ``target``), and its
    answer (a guard, a foil) is the one the window is about, so it gets the decision
    clock.  On the window clock a window opened in the evening ran out at night and the
    target lost the foil it would have played (``bench/RESULTS.md``, *Tempo*).  Whether
    a seat is the target never depends on what it holds, so the longer clock says nothing
    about its hand.
    """
    if mode == WINDOW_MODE and prompt_args and prompt_args.get("target") == seat:
        return TARGET_CLOCK_MODE
    return mode


def default_window_hours(hours: int) -> int:
    """The window clock of a game whose time per decision is ``hours``."""
    return max(1, round(hours * WINDOW_SHARE))


#: The stand-in that plays no move of its own: each decision of the absent player's seat
#: gets its default (the answer its deadline would give) at once.
DEFAULTS_ONLY = "defaults"


@dataclass(frozen=True)
class ClockPolicy:
    """How a game's deadlines are set (see :class:`service.plumbing.db.GameClock`)."""

    hours: int = 24
    time_of_day: Optional[str] = None
    timezone: str = "UTC"
    weekend_pause: bool = False
    bot_after_missed: int = 2
    vacation: bool = True
    #: Time per window answer; ``None``: :func:`default_window_hours` of ``hours``.
    window_hours: Optional[int] = None
    #: How an absent player's seat is played: a bot level, or :data:`DEFAULTS_ONLY`;
    #: ``None``: the operator's ``CAPUA_BOT_LEVEL``.
    stand_in: Optional[str] = None

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.timezone)

    @property
    def window(self) -> int:
        """Hours per window answer."""
        return self.window_hours if self.window_hours is not None else default_window_hours(self.hours)

    def for_mode(self, mode: str) -> "ClockPolicy":
        """The policy a decision of ``mode`` runs on: window answers on the window clock."""
        return replace(self, hours=self.window) if mode == WINDOW_MODE else self

    def to_json(self) -> dict:
        return {"hours": self.hours, "window_hours": self.window, "time_of_day": self.time_of_day,
                "timezone": self.timezone, "weekend_pause": self.weekend_pause,
                "bot_after_missed": self.bot_after_missed, "stand_in": self.stand_in, "vacation": self.vacation}


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``; ``ValueError`` when there is none by that name."""
    if not isinstance(name, str) or not name or len(name) > 64 or name.startswith("/") or ".." in name:
        raise ValueError(f"{name!r} is not a time zone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"{name!r} is not a time zone (use a name like Europe/Berlin)") from None


def is_time_zone(name: object) -> bool:
    try:
        zone(name)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def common_time_zones() -> list[str]:
    """Time zone names for a form's drop-down: the IANA names of regions, sorted."""
    return sorted(n for n in available_timezones() if "/" in n and not n.startswith(("Etc/", "SystemV/", "posix/",
                                                                                      "right/")))


def parse_time_of_day(text: Optional[str]) -> Optional[dt.time]:
    """``"20:00"`` -> ``time(20, 0)``; ``None``/empty -> ``None``; else ``ValueError``."""
    if text is None or text == "":
        return None
    match = _TIME_OF_DAY.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a time of day (use HH:MM, 24-hour clock)")
    return dt.time(int(match.group(1)), int(match.group(2)))


def add_running_time(policy: ClockPolicy, start: dt.datetime, duration: dt.timedelta) -> dt.datetime:
    """``start`` plus ``duration`` of time during which the clock runs.

    Without a weekend pause that is plain addition.  With it, Saturdays and Sundays
    (local time) do not count: 24 h started on Friday at 18:00 end on Monday at 18:00.
    """
    start = start.astimezone(UTC)
    if not policy.weekend_pause:
        return start + duration
    tz = policy.zone
    remaining = duration.total_seconds()
    cursor = start
    for _ in range(10_000):  # weeks; a bound a real clock never reaches
        local = cursor.astimezone(tz)
        if local.weekday() in WEEKEND:
            monday = local.date() + dt.timedelta(days=7 - local.weekday())
            cursor = dt.datetime.combine(monday, dt.time(0), tzinfo=tz).astimezone(UTC)
            continue
        saturday = local.date() + dt.timedelta(days=5 - local.weekday())
        boundary = dt.datetime.combine(saturday, dt.time(0), tzinfo=tz).astimezone(UTC)
        span = (boundary - cursor).total_seconds()
        if remaining <= span:
            return cursor + dt.timedelta(seconds=remaining)
        remaining -= span
        cursor = boundary
    raise ValueError("clock duration too long")


def next_time_of_day(policy: ClockPolicy, moment: dt.datetime) -> dt.datetime:
    """The first ``policy.time_of_day`` (local) at or after ``moment``, on a weekday when
    the clock pauses at weekends; ``moment`` itself when the policy fixes no time."""
    at = parse_time_of_day(policy.time_of_day)
    moment = moment.astimezone(UTC)
    if at is None:
        return moment
    tz = policy.zone
    day = moment.astimezone(tz).date()
    for _ in range(10):
        candidate = dt.datetime.combine(day, at, tzinfo=tz).astimezone(UTC)
        if candidate >= moment and not (policy.weekend_pause and day.weekday() in WEEKEND):
            return candidate
        day += dt.timedelta(days=1)
    raise AssertionError("a week always has a weekday")  # pragma: no cover


def deadline_after(policy: ClockPolicy, opened: dt.datetime) -> dt.datetime:
    """The deadline of a decision opened at ``opened``: the time per decision of running
    clock, then moved on to the policy's time of day if it fixes one."""
    return next_time_of_day(policy, add_running_time(policy, opened, dt.timedelta(hours=policy.hours)))


def reminder_lead(policy: ClockPolicy, preferred_hours: Optional[int]) -> Optional[dt.timedelta]:
    """How long before the deadline to remind, or ``None`` for no reminder.

    ``preferred_hours`` is the player's choice (0: no reminders); without one the lead is
    scaled to the clock (a quarter of it, between an hour and a day).  Either way a
    reminder never comes before half of the time per decision has run.
    """
    clock = dt.timedelta(hours=policy.hours)
    if preferred_hours is not None:
        if preferred_hours <= 0:
            return None
        lead = dt.timedelta(hours=preferred_hours)
    else:
        lead = min(max(clock * REMINDER_SHARE, REMINDER_MIN), REMINDER_MAX)
    return min(lead, clock / 2)


def local_date(moment: dt.datetime, tz_name: str) -> dt.date:
    """The calendar day ``moment`` falls on in ``tz_name`` (UTC when the name is unknown)."""
    try:
        tz = zone(tz_name)
    except ValueError:
        tz = ZoneInfo("UTC")
    return moment.astimezone(tz).date()


def end_of_local_day(day: dt.date, tz_name: str) -> dt.datetime:
    """The first moment after ``day`` in ``tz_name``, as UTC (midnight that ends it)."""
    try:
        tz = zone(tz_name)
    except ValueError:
        tz = ZoneInfo("UTC")
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=tz).astimezone(UTC)
