"""Absent players: vacation days, declared vacations, and the bot that stands in.

**Vacation allowance.**  Each player may spend ``CAPUA_VACATION_DAYS_PER_YEAR`` days per
calendar year, and spends them only when a deadline of theirs would otherwise pass (in
a game whose clock allows vacation).  A day is a calendar day in the player's time
zone and covers every game: the first deadline that would pass on a day charges it and
moves on by 24 hours; other deadlines passing that same day move on free.  A player who
declared a vacation covering today gets every deadline moved to a full clock period
after the vacation ends, and pays for each day of it not yet charged; when the
allowance runs out before the vacation does, the deadline moves as far as it reaches.

**Missed deadlines.**  When no vacation saves a deadline, the decision's default is
played and the seat's ``missed_deadlines`` counts up; after ``bot_after_missed`` in a
row (the game's clock option, default 2; 0 never) the bot plays the seat until the
player acts again (:func:`player_acted`, or :func:`take_back_seat` from a page, the API
or a mail).  Every such change is a service event in the game's log.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Optional

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from service.play import meta_events
from service.plumbing import clock
from service.plumbing.clock import ClockPolicy
from service.plumbing.config import Config
from service.plumbing.db import Game, Seat, User, Vacation, VacationDay, utcnow
from service.plumbing.errors import Conflict, Forbidden, InvalidInput, NotFound
from service.plumbing.rows import settle_loaded
from service.plumbing.statements import run

#: A declared vacation is at most a year long, and a player keeps at most this many.
MAX_VACATION_DAYS = 366
MAX_VACATIONS = 20
#: A vacation's note is at most this many characters.
MAX_NOTE = 200


@dataclass(frozen=True)
class Allowance:
    year: int
    days_per_year: int
    spent: int

    @property
    def remaining(self) -> int:
        return max(0, self.days_per_year - self.spent)


def allowance(session: Session, config: Config, user: User, year: int) -> Allowance:
    spent = session.scalar(select(func.count()).select_from(VacationDay).where(
        VacationDay.user_id == user.id, VacationDay.day >= dt.date(year, 1, 1), VacationDay.day <= dt.date(year, 12, 31)))
    return Allowance(year=year, days_per_year=config.vacation_days_per_year, spent=int(spent or 0))


def declared_on(session: Session, user: User, day: dt.date) -> Optional[Vacation]:
    """The declared vacation covering ``day``, the one ending last if several do."""
    return session.scalars(select(Vacation).where(Vacation.user_id == user.id, Vacation.starts_on <= day,
                                                  Vacation.ends_on >= day)
                           .order_by(Vacation.ends_on.desc())).first()


def on_vacation(session: Session, user: User, now: dt.datetime) -> bool:
    return declared_on(session, user, clock.local_date(now, user.timezone)) is not None


def spend_vacation(session: Session, config: Config, user: User, policy: ClockPolicy, game: Game,
                   deadline: dt.datetime, now: dt.datetime) -> Optional[tuple[dt.datetime, int]]:
    """Save a deadline that is passing with vacation days: ``(new deadline, days charged)``,
    or ``None`` when the allowance cannot cover today (the deadline then passes)."""
    if not policy.vacation:
        return None
    today = clock.local_date(now, user.timezone)
    declared = declared_on(session, user, today)
    last_day = declared.ends_on if declared is not None else today
    charged = set(session.scalars(select(VacationDay.day).where(
        VacationDay.user_id == user.id, VacationDay.day >= today, VacationDay.day <= last_day)))
    left: dict[int, int] = {}
    covered: Optional[dt.date] = None
    new_days = []
    day = today
    while day <= last_day:
        if day not in charged:
            if day.year not in left:
                left[day.year] = allowance(session, config, user, day.year).remaining
            if left[day.year] <= 0:
                break
            left[day.year] -= 1
            new_days.append(day)
        covered = day
        day += dt.timedelta(days=1)
    if covered is None:
        return None
    for spent in new_days:
        session.add(VacationDay(user_id=user.id, day=spent, game_id=game.id, created_at=now))
    if declared is not None:
        until = clock.deadline_after(policy, clock.end_of_local_day(covered, user.timezone))
    else:
        until = max(deadline, now) + dt.timedelta(hours=24)
    session.flush()
    return until, len(new_days)


def record_miss(seat: Seat, policy: ClockPolicy, now: dt.datetime) -> bool:
    """Count a missed deadline; ``True`` when the bot takes the seat over now."""
    seat.missed_deadlines = (seat.missed_deadlines or 0) + 1
    if seat.bot_since is None and policy.bot_after_missed > 0 and seat.missed_deadlines >= policy.bot_after_missed:
        seat.bot_since = now
        return True
    return False


def player_acted(session: Session, config: Config, game: Game, seat: Seat) -> None:
    """The seat's player answered something: the count of missed deadlines starts again,
    and the bot gives the seat back (an event in the log says so)."""
    returned = seat.bot_since is not None
    if seat.missed_deadlines:
        seat.missed_deadlines = 0
    if returned:
        seat.bot_since = None
    if not isinstance(seat, Seat):
        # A command's plain seat (service.play.at_hand): written here, as a flush would.
        changes = seat.changes()
        if changes:
            run(session, _SEAT_BACK, {"seat_id": seat.id})
            seat.settled()
            settle_loaded(session, Seat, seat.id, changes)
    if returned:
        session.flush()
        meta_events.record(session, config, game, [meta_events.make(meta_events.PLAYER_RETURNED, seat=seat.seat)],
                           seat.user_id)


_SEATS = Seat.__table__
#: A player is back: no missed deadline counts, the bot has the seat no more.
_SEAT_BACK = (_SEATS.update().where(_SEATS.c.id == bindparam("seat_id"))
              .values(missed_deadlines=0, bot_since=None))


def take_back_seat(session: Session, config: Config, game_id: str, user: User) -> Seat:
    """The player takes their seat back from the bot (409 ``not_taken_over`` if it never had it)."""
    game = session.get(Game, game_id)
    seat = session.scalars(select(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id)).first() \
        if game is not None else None
    if seat is None:
        raise NotFound("You hold no seat in that game.", code="not_seated", details={"game_id": str(game_id)[:64]})
    if game.status != "running":
        raise Conflict("The game is not running.", code="game_over" if game.status == "finished" else "game_not_started")
    if seat.bot_since is None:
        raise Conflict("The bot does not play your seat; nothing to take back.", code="not_taken_over")
    player_acted(session, config, game, seat)
    return seat


# --------------------------------------------------------------------------- declared vacations


def _date(value: Any, field: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise InvalidInput(f"{field} must be a date like 2026-12-24.", code="invalid_vacation",
                       details={"fields": {field: "is not a date"}, "problems": {field: "not_a_date"}})


def declare_vacation(session: Session, user: User, starts_on: Any, ends_on: Any, note: str = "",
                     today: Optional[dt.date] = None) -> Vacation:
    """Add a vacation (dates inclusive, the player's time zone); refused input changes nothing."""
    start, end = _date(starts_on, "starts_on"), _date(ends_on, "ends_on")
    today = today or clock.local_date(utcnow(), user.timezone)
    problems, kinds = {}, {}  # (the problem in words, and as a key a page translates)
    if end < start:
        problems["ends_on"], kinds["ends_on"] = "is before starts_on", "before_start"
    elif end < today:
        problems["ends_on"], kinds["ends_on"] = "is in the past", "past"
    elif (end - start).days + 1 > MAX_VACATION_DAYS:
        problems["ends_on"], kinds["ends_on"] = f"makes the vacation longer than {MAX_VACATION_DAYS} days", "too_long"
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        problems["note"], kinds["note"] = f"must be text of at most {MAX_NOTE} characters", "too_long"
    if problems:
        raise InvalidInput("This vacation cannot be declared: " + "; ".join(f"{k} {v}" for k, v in problems.items()),
                           code="invalid_vacation",
                           details={"fields": problems, "problems": kinds, "max_days": MAX_VACATION_DAYS,
                                    "max_length": MAX_NOTE})
    count = session.scalar(select(func.count()).select_from(Vacation).where(Vacation.user_id == user.id))
    if count >= MAX_VACATIONS:
        raise Conflict(f"You already have {MAX_VACATIONS} vacations; delete one first.", code="too_many_vacations",
                       details={"max": MAX_VACATIONS})
    vacation = Vacation(user_id=user.id, starts_on=start, ends_on=end, note=note.strip(), created_at=utcnow())
    session.add(vacation)
    session.flush()
    return vacation


def delete_vacation(session: Session, user: User, vacation_id: int) -> None:
    vacation = session.get(Vacation, vacation_id) if type(vacation_id) is int else None
    if vacation is None or vacation.user_id != user.id:
        raise NotFound(f"You have no vacation {vacation_id}.", code="vacation_not_found")
    session.delete(vacation)
    session.flush()


def vacations(session: Session, user: User) -> list[Vacation]:
    return list(session.scalars(select(Vacation).where(Vacation.user_id == user.id)
                                .order_by(Vacation.starts_on, Vacation.id)))


def vacation_summary(session: Session, config: Config, user: User, now: Optional[dt.datetime] = None) -> dict:
    """Allowance, days spent this year and the declared vacations, for the API and page."""
    now = now or utcnow()
    today = clock.local_date(now, user.timezone)
    left = allowance(session, config, user, today.year)
    spent = list(session.scalars(select(VacationDay.day).where(
        VacationDay.user_id == user.id, VacationDay.day >= dt.date(today.year, 1, 1),
        VacationDay.day <= dt.date(today.year, 12, 31)).order_by(VacationDay.day)))
    return {
        "year": today.year,
        "days_per_year": left.days_per_year,
        "spent": left.spent,
        "remaining": left.remaining,
        "spent_days": spent,
        "on_vacation": declared_on(session, user, today) is not None,
        "vacations": [{"id": v.id, "starts_on": v.starts_on, "ends_on": v.ends_on, "note": v.note}
                      for v in vacations(session, user)],
    }


def require_creator(game: Game, user: User) -> None:
    if game.created_by != user.id:
        raise Forbidden("Only the game's creator may do this.", code="not_creator", details={"game_id": game.id})
