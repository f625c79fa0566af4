"""A player's settings for mail: how and when news and decisions reach them, their
quiet hours, digest hour and reminder lead, globally and per game.

The settings belong to the player, so they live with the players: the game clock reads
the reminder lead (:mod:`service.play.deadlines`), notification mail reads the rest
(:mod:`service.notify`), the pages and the API change them.  Language and time zone
come from the user row itself.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from service.plumbing import clock
from service.plumbing.db import GameNotificationPreference, NotificationPreference, Seat, User, utcnow
from service.plumbing.errors import InvalidInput, NotFound
from service.plumbing.rows import get_row, get_rows
from service.words import i18n

DELIVERY_MODES = ("immediate", "digest", "off")


@dataclass(frozen=True)
class Preferences:
    """A player's settings for one game: the global ones with the game's overrides."""

    act_delivery: str = "immediate"
    info_delivery: str = "digest"
    digest_hour: int = 8
    quiet_start: Optional[int] = None
    quiet_end: Optional[int] = None
    reminder_lead_hours: Optional[int] = None
    email_enabled: bool = True
    language: str = i18n.DEFAULT_LANGUAGE
    timezone: str = "UTC"

    def delivery(self, urgent: bool) -> str:
        if not self.email_enabled:
            return "off"
        return self.act_delivery if urgent else self.info_delivery

    def to_json(self) -> dict:
        return {
            "act_delivery": self.act_delivery, "info_delivery": self.info_delivery,
            "digest_hour": self.digest_hour, "quiet_start": self.quiet_start, "quiet_end": self.quiet_end,
            "reminder_lead_hours": self.reminder_lead_hours, "email_enabled": self.email_enabled,
            "language": self.language, "timezone": self.timezone,
        }


def _merge(user: User, row: Optional[NotificationPreference],
           game_row: Optional[GameNotificationPreference]) -> Preferences:
    """The user's settings: the defaults, their global row over them, the game's
    overrides over that.  Every command asks for its players' settings, so what a
    merge of plain rows (:mod:`service.play.at_hand`'s, named tuples, compared by value)
    made is kept: the same rows make the same settings, without checking the time
    zone and building the frozen dataclass again (the ORM's objects are merged anew)."""
    plain = (row is None or isinstance(row, tuple)) and (game_row is None or isinstance(game_row, tuple))
    merge = _merged_once if plain else _merged
    return merge(user.language, user.timezone, row, game_row)


def _merged(language: Optional[str], timezone: Optional[str], row: Optional[NotificationPreference],
            game_row: Optional[GameNotificationPreference]) -> Preferences:
    """:func:`_merge`'s settings, built."""
    given: dict[str, Any] = {
        "language": i18n.language_or_default(language),
        "timezone": timezone if clock.is_time_zone(timezone) else "UTC",
    }
    if row is not None:
        given.update(act_delivery=row.act_delivery, info_delivery=row.info_delivery,
                     digest_hour=row.digest_hour, quiet_start=row.quiet_start, quiet_end=row.quiet_end,
                     reminder_lead_hours=row.reminder_lead_hours, email_enabled=row.email_enabled)
    if game_row is not None:
        if game_row.act_delivery:
            given["act_delivery"] = game_row.act_delivery
        if game_row.info_delivery:
            given["info_delivery"] = game_row.info_delivery
        if game_row.reminder_lead_hours is not None:
            given["reminder_lead_hours"] = game_row.reminder_lead_hours
    return Preferences(**given)


#: :func:`_merged` of plain rows (named tuples, compared by value): the same rows make
#: the same settings.
_merged_once = functools.lru_cache(maxsize=1024)(_merged)


def preferences(session: Session, user: User, game_id: Optional[str] = None) -> Preferences:
    """``user``'s settings, for ``game_id`` when given (its overrides applied)."""
    row = get_row(session, NotificationPreference, user.id)
    game_row = get_row(session, GameNotificationPreference, (user.id, game_id)) if game_id else None
    return _merge(user, row, game_row)


def preferences_for(session: Session, users: Sequence[User], game_id: Optional[str]) -> dict[int, Preferences]:
    """Settings of several players at once (at most two queries, none for rows this
    transaction has read already), for the fan-out."""
    ids = [u.id for u in users]
    if not ids:
        return {}
    rows = get_rows(session, NotificationPreference, ids)
    game_rows = {}
    if game_id:
        game_rows = {user_id: row for (user_id, _game), row
                     in get_rows(session, GameNotificationPreference, [(i, game_id) for i in ids]).items()}
    return {u.id: _merge(u, rows.get(u.id), game_rows.get(u.id)) for u in users}


#: Field -> (checker, message) of the global settings a player may change.
def _check_delivery(value: Any) -> bool:
    return value in DELIVERY_MODES


def _check_hour(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 23


def _check_lead(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value <= 24 * 7)


_GLOBAL_FIELDS = {
    "act_delivery": (_check_delivery, "must be one of immediate, digest, off"),
    "info_delivery": (_check_delivery, "must be one of immediate, digest, off"),
    "digest_hour": (_check_hour, "must be an hour from 0 to 23"),
    "quiet_start": (lambda v: v is None or _check_hour(v), "must be an hour from 0 to 23, or null"),
    "quiet_end": (lambda v: v is None or _check_hour(v), "must be an hour from 0 to 23, or null"),
    "reminder_lead_hours": (_check_lead, "must be hours from 0 (no reminders) to 168, or null (scaled to the clock)"),
    "email_enabled": (lambda v: type(v) is bool, "must be true or false"),
    "language": (lambda v: v in i18n.LANGUAGES, f"must be one of {', '.join(i18n.LANGUAGES)}"),
    "timezone": (clock.is_time_zone, "must be a time zone name like Europe/Berlin"),
}
_GAME_FIELDS = {
    "act_delivery": (lambda v: v is None or _check_delivery(v), "must be immediate, digest, off or null (inherit)"),
    "info_delivery": (lambda v: v is None or _check_delivery(v), "must be immediate, digest, off or null (inherit)"),
    "reminder_lead_hours": (_check_lead, "must be hours from 0 to 168, or null (inherit)"),
}


def _validated(changes: Any, allowed: Mapping[str, tuple]) -> dict:
    """``changes`` checked field by field; every problem is reported at once (422)."""
    if not isinstance(changes, Mapping):
        raise InvalidInput("Send the settings as a JSON object.", code="invalid_preferences")
    problems = {}
    for name, value in changes.items():
        if name not in allowed:
            problems[str(name)[:64]] = "is not a setting"
            continue
        check, message = allowed[name]
        if not check(value):
            problems[name] = message
    if problems:
        raise InvalidInput("Some settings are not valid: " + "; ".join(f"{k} {v}" for k, v in problems.items()),
                           code="invalid_preferences", details={"fields": problems})
    return dict(changes)


def update_preferences(session: Session, user: User, changes: Any) -> Preferences:
    """Change ``user``'s global settings; a refused change changes nothing."""
    changes = _validated(changes, _GLOBAL_FIELDS)
    quiet = {k: changes.get(k, None) for k in ("quiet_start", "quiet_end") if k in changes}
    row = session.get(NotificationPreference, user.id)
    if row is None:
        row = NotificationPreference(user_id=user.id, act_delivery="immediate", info_delivery="digest",
                                     digest_hour=8, email_enabled=True)
        session.add(row)
    merged_quiet = (quiet.get("quiet_start", row.quiet_start), quiet.get("quiet_end", row.quiet_end))
    if (merged_quiet[0] is None) != (merged_quiet[1] is None) or (None not in merged_quiet
                                                                  and merged_quiet[0] == merged_quiet[1]):
        raise InvalidInput("Quiet hours need a start and a different end hour (or neither).",
                           code="invalid_preferences",
                           details={"fields": {"quiet_start": "needs quiet_end"}, "problem": "quiet_hours"})
    for name, value in changes.items():
        if name == "language":
            user.language = value
        elif name == "timezone":
            user.timezone = value
        else:
            setattr(row, name, value)
    row.updated_at = utcnow()
    session.flush()
    return preferences(session, user)


def update_game_preferences(session: Session, user: User, game_id: str, changes: Any) -> Preferences:
    """Change ``user``'s settings for one game they sit in or are invited to."""
    changes = _validated(changes, _GAME_FIELDS)
    _require_player(session, user, game_id)
    row = session.get(GameNotificationPreference, (user.id, game_id))
    if row is None:
        row = GameNotificationPreference(user_id=user.id, game_id=game_id)
        session.add(row)
    for name, value in changes.items():
        setattr(row, name, value)
    row.updated_at = utcnow()
    session.flush()
    return preferences(session, user, game_id)


def reset_game_preferences(session: Session, user: User, game_id: str) -> Preferences:
    _require_player(session, user, game_id)
    row = session.get(GameNotificationPreference, (user.id, game_id))
    if row is not None:
        session.delete(row)
        session.flush()
    return preferences(session, user, game_id)


def game_overrides(session: Session, user: User) -> list[GameNotificationPreference]:
    return list(session.scalars(select(GameNotificationPreference)
                                .where(GameNotificationPreference.user_id == user.id)
                                .order_by(GameNotificationPreference.game_id)))


def _require_player(session: Session, user: User, game_id: str) -> None:
    email = (user.email or "").lower()
    seat = session.scalar(select(Seat.id).where(
        Seat.game_id == game_id, or_(Seat.user_id == user.id, and_(Seat.user_id.is_(None),
                                                                     Seat.invited_email == email))))
    if seat is None:
        raise NotFound("You play no game with that id.", code="not_found", details={"game_id": str(game_id)[:64]})


def unsubscribe(session: Session, user: User, game_id: Optional[str]) -> None:
    """Stop mail: for one game (both kinds off), or every notification mail."""
    if game_id:
        row = session.get(GameNotificationPreference, (user.id, game_id))
        if row is None:
            row = GameNotificationPreference(user_id=user.id, game_id=game_id)
            session.add(row)
        row.act_delivery = row.info_delivery = "off"
        row.updated_at = utcnow()
    else:
        update_preferences(session, user, {"email_enabled": False})
    session.flush()
