"""A game's clock: its policy (time per decision, time of day, weekend pause, what a
missed deadline costs), the deadline of a decision opened now, and when to remind.

The arithmetic is pure (:mod:`service.plumbing.clock`); this module reads and checks a
game's policy.  Commands ask it for deadlines when decisions open
(:func:`service.play.games.refresh_open_decisions`); :mod:`service.play.deadlines` acts
when they pass.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any, Mapping, Optional

from sqlalchemy.orm import Session

from engine.core import bots
from service.plumbing import clock
from service.plumbing.clock import ClockPolicy
from service.plumbing.db import Game, GameClock, OpenDecision
from service.plumbing.rows import get_row
from service.plumbing.errors import InvalidInput

#: How an absent player's seat may be played: by a bot of a level, or by the defaults alone.
STAND_INS = (*bots.LEVELS, clock.DEFAULTS_ONLY)

#: The time per decision a game may choose, in hours (7 days at most... 90 days).
MAX_CLOCK_HOURS = 24 * 90


def checked_clock(spec: Any, default_hours: int) -> tuple[int, dict]:
    """``(hours, GameClock fields)`` from a ``clock`` object of a new game, or 422.

    Keys: ``hours`` (time per decision), ``window_hours`` (time per window answer, at most
    ``hours``; null: a sixth of it, at least an hour), ``time_of_day`` ("HH:MM" or null),
    ``timezone``, ``weekend_pause``, ``bot_after_missed`` (0: never), ``stand_in`` (how
    the bot plays an absent player's seat: a bot level or ``defaults``; null: the
    operator's level), ``vacation``.
    """
    if spec is None:
        spec = {}
    if not isinstance(spec, Mapping):
        raise InvalidInput("clock must be a JSON object", code="invalid_clock", details={"field": "clock"})
    problems = {}
    unknown = set(spec) - {"hours", "window_hours", "time_of_day", "timezone", "weekend_pause", "bot_after_missed",
                           "stand_in", "vacation"}
    for name in unknown:
        problems[str(name)[:64]] = "is not a clock setting"
    hours = spec.get("hours", default_hours)
    if type(hours) is not int or not 1 <= hours <= MAX_CLOCK_HOURS:
        problems["hours"] = f"must be a whole number of hours from 1 to {MAX_CLOCK_HOURS}"
    window = spec.get("window_hours")
    if window is not None and (type(window) is not int or not 1 <= window <= (hours if type(hours) is int else 1)):
        problems["window_hours"] = "must be a whole number of hours from 1 to the time per decision, or null"
    time_of_day = spec.get("time_of_day")
    try:
        clock.parse_time_of_day(time_of_day)
    except ValueError:
        problems["time_of_day"] = "must be HH:MM (24-hour clock) or null"
    timezone = spec.get("timezone", "UTC")
    if not clock.is_time_zone(timezone):
        problems["timezone"] = "must be a time zone name like Europe/Berlin"
    weekend = spec.get("weekend_pause", False)
    if type(weekend) is not bool:
        problems["weekend_pause"] = "must be true or false"
    missed = spec.get("bot_after_missed", 2)
    if type(missed) is not int or not 0 <= missed <= 100:
        problems["bot_after_missed"] = "must be a number from 0 (never) to 100"
    stand_in = spec.get("stand_in")
    if stand_in is not None and stand_in not in STAND_INS:
        problems["stand_in"] = f"must be one of {', '.join(STAND_INS)}, or null"
    vacation = spec.get("vacation", True)
    if type(vacation) is not bool:
        problems["vacation"] = "must be true or false"
    if problems:
        raise InvalidInput("The clock is not valid: " + "; ".join(f"{k} {v}" for k, v in sorted(problems.items())),
                           code="invalid_clock", details={"field": "clock", "fields": problems})
    return hours, {"window_hours": window, "time_of_day": time_of_day or None, "timezone": timezone, "weekend_pause": weekend,
                   "bot_after_missed": missed, "stand_in": stand_in, "vacation": vacation}


def policy_for(session: Session, game: Game) -> ClockPolicy:
    """The game's clock policy.  Every command asks (its decisions' deadlines), so the
    policy of a plain clock row (:mod:`service.play.at_hand`'s, a named tuple, compared
    by value) is kept with the game's hours: the same row makes the same policy."""
    row = get_row(session, GameClock, game.id)
    if row is None:  # a game from before clock policies: the plain clock
        return ClockPolicy(hours=game.clock_hours)
    make = _policy_once if isinstance(row, tuple) else _policy
    return make(game.clock_hours, row)


def _policy(hours: int, row: GameClock) -> ClockPolicy:
    return ClockPolicy(hours=hours, time_of_day=row.time_of_day, timezone=row.timezone,
                       weekend_pause=row.weekend_pause, bot_after_missed=row.bot_after_missed, vacation=row.vacation,
                       window_hours=row.window_hours, stand_in=row.stand_in)


#: :func:`_policy` of plain clock rows (named tuples, compared by value), with the game's
#: hours: the same row makes the same policy.
_policy_once = functools.lru_cache(maxsize=1024)(_policy)


def deadline_of(policy: ClockPolicy, mode: str, opened: dt.datetime) -> dt.datetime:
    """The deadline under ``policy`` of a decision of ``mode`` opened at ``opened``."""
    return clock.deadline_after(policy.for_mode(mode), opened)


def is_paused(session: Session, game_id: str) -> bool:
    row = get_row(session, GameClock, game_id)
    return row is not None and row.paused_at is not None


# --------------------------------------------------------------------------- reminders armed on opening


def arm_reminder(row: OpenDecision, policy: ClockPolicy, preferred_hours: Optional[int], now: dt.datetime,
                 mode: Optional[str] = None) -> None:
    """Set when to remind the row's player of its deadline (or not at all); ``mode``: the
    mode whose clock the row runs on (:func:`service.plumbing.clock.clock_mode`), the row's
    own by default."""
    row.remind_at = reminder_at(policy, mode or row.mode, row.deadline_at, preferred_hours, now)


def reminder_at(policy: ClockPolicy, mode: str, deadline: Optional[dt.datetime], preferred_hours: Optional[int],
                now: dt.datetime) -> Optional[dt.datetime]:
    """When to remind a player of a decision of ``mode`` due at ``deadline``, or ``None``."""
    lead = clock.reminder_lead(policy.for_mode(mode), preferred_hours) if deadline is not None else None
    at = deadline - lead if lead is not None else None
    return at if at is not None and at > now else None
