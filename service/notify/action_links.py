"""One-click links in notification mail: answer a decision, accept or decline an
invitation, give a standing-order preset (:mod:`service.play.presets`), take a seat back
from the bot, unsubscribe.

A link carries a token signed with the secret key (its own salt, so no other signature
verifies here) naming exactly what it may do: one seat, one decision and, for a button,
one command.  It is refused when tampered with (``link_invalid``), past its expiry
(``link_expired``), already used (``link_used``: the link's ``jti`` goes into
``used_links`` on use, and all buttons of one decision in one mail share a ``jti``, so
answering with one burns the others) or when its decision is no longer open
(``decision_closed``: a decision's links expire with it).  Opening a link only shows a
confirm page: mail scanners fetch links on their own, so a GET never acts; the POST does,
through :func:`service.play.games.submit_command`, exactly like the API.  A refused POST
changes nothing, and its ``jti`` is not spent.

Only decisions with few answers get a button per answer (:data:`MAX_BUTTONS`): an
enumerated list, a small integer range (a bid from 0 to N), an enum or a yes/no.
Others get one link to a page listing every legal answer for that decision alone.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from itsdangerous import BadData, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine.core import schema as schema_mod
from engine.core.errors import RuleViolation
from service.plumbing.config import Config
from service.plumbing.db import Game, Seat, UsedLink, User, utcnow
from service.plumbing.errors import Conflict, Forbidden, InvalidInput, NotFound

SALT = "capua.action-link.v1"
MAX_BUTTONS = 8
KINDS = ("act", "choose", "invite", "order", "return", "unsubscribe")
#: A decision's link stays signed-valid this long past the deadline it was mailed with
#: (deadlines move: vacations, extensions); whether the decision is still open decides.
DECISION_GRACE = dt.timedelta(days=14)
INVITATION_TTL = dt.timedelta(days=30)
RETURN_TTL = dt.timedelta(days=30)


@dataclass(frozen=True)
class ActionLink:
    kind: str
    game_id: Optional[str] = None
    seat: Optional[int] = None
    user_id: Optional[int] = None
    decision_id: Optional[str] = None
    command: Optional[Mapping[str, Any]] = None
    email: Optional[str] = None
    answer: Optional[str] = None
    jti: Optional[str] = None
    expires_at: Optional[dt.datetime] = None

    @property
    def single_use(self) -> bool:
        return self.kind != "unsubscribe"


def new_jti() -> str:
    return secrets.token_urlsafe(16)


def _serializer(config: Config) -> URLSafeSerializer:
    return URLSafeSerializer(config.secret_key, salt=SALT)


def token_for(config: Config, link: ActionLink) -> str:
    payload: dict[str, Any] = {"k": link.kind}
    for key, value in (("g", link.game_id), ("s", link.seat), ("u", link.user_id), ("d", link.decision_id),
                       ("c", dict(link.command) if link.command is not None else None), ("e", link.email),
                       ("a", link.answer), ("j", link.jti)):
        if value is not None:
            payload[key] = value
    if link.expires_at is not None:
        payload["x"] = int(link.expires_at.timestamp())
    return _serializer(config).dumps(payload)


def url_for_link(config: Config, link: ActionLink) -> str:
    prefix = "unsubscribe" if link.kind == "unsubscribe" else "act"
    return f"{config.base_url.rstrip('/')}/{prefix}/{token_for(config, link)}"


def read(config: Config, token: str, now: Optional[dt.datetime] = None) -> ActionLink:
    """Verify a token: its signature, shape and expiry (``Forbidden`` otherwise)."""
    invalid = Forbidden("This link is not valid: it may have been cut short or changed.", code="link_invalid")
    if not isinstance(token, str) or len(token) > 4000:
        raise invalid
    try:
        payload = _serializer(config).loads(token)
    except (BadData, TypeError, ValueError):
        raise invalid from None
    if not isinstance(payload, dict) or payload.get("k") not in KINDS:
        raise invalid
    expires = payload.get("x")
    if expires is not None and not isinstance(expires, int):
        raise invalid
    link = ActionLink(
        kind=payload["k"], game_id=payload.get("g"), seat=payload.get("s"), user_id=payload.get("u"),
        decision_id=payload.get("d"), command=payload.get("c"), email=payload.get("e"), answer=payload.get("a"),
        jti=payload.get("j"),
        expires_at=dt.datetime.fromtimestamp(expires, dt.timezone.utc) if expires is not None else None,
    )
    if link.single_use and not (isinstance(link.jti, str) and 0 < len(link.jti) <= 64):
        raise invalid
    if link.expires_at is not None and link.expires_at < (now or utcnow()):
        raise Forbidden("This link has expired.", code="link_expired")
    return link


# --------------------------------------------------------------------------- which answers get buttons


def button_commands(decision: Mapping[str, Any]) -> Optional[list[dict]]:
    """The decision's answers as ``{"type", "args"}`` when there are at most
    :data:`MAX_BUTTONS` of them, else ``None`` (the mail links to a page instead)."""
    options = decision.get("options")
    named = [a["command"] for a in decision.get("answers") or () if isinstance(a.get("command"), Mapping)]
    if options is None and named:
        # A big form (a fight plan) with a few named answers: those are the buttons.
        return [{"type": c["type"], "args": dict(c.get("args") or {})} for c in named][:MAX_BUTTONS]
    if options is not None:
        return [{"type": o["type"], "args": dict(o.get("args") or {})} for o in options] \
            if 0 < len(options) <= MAX_BUTTONS else None
    schema = decision.get("schema") or {}
    command_type = decision.get("command_type")
    props = schema.get("properties") if schema.get("type") == "object" else None
    if not command_type or not isinstance(props, Mapping) or len(props) != 1:
        return None
    (name, sub), = props.items()
    values: Optional[list] = None
    if "enum" in sub and len(sub["enum"]) <= MAX_BUTTONS:
        values = list(sub["enum"])
    elif sub.get("type") == "integer" and isinstance(sub.get("minimum"), int) and isinstance(sub.get("maximum"), int):
        if 0 <= sub["maximum"] - sub["minimum"] < MAX_BUTTONS:
            values = list(range(sub["minimum"], sub["maximum"] + 1))
    elif sub.get("type") == "boolean":
        values = [True, False]
    if values is None:
        return None
    out = []
    for value in values:
        args = {name: value}
        try:
            schema_mod.validate(schema, args)
        except RuleViolation:
            continue
        out.append({"type": command_type, "args": args})
    return out or None


def decision_links(config: Config, *, game_id: str, seat: int, user_id: int, decision: Mapping[str, Any],
                   deadline: Optional[dt.datetime], now: dt.datetime) -> dict:
    """``{"buttons": [(command, url)...], "choose_url": url}`` for one decision in one mail."""
    jti = new_jti()
    expires = max(deadline or now, now) + DECISION_GRACE
    common = dict(game_id=game_id, seat=seat, user_id=user_id, decision_id=decision["id"], jti=jti,
                  expires_at=expires)
    buttons = [(command, url_for_link(config, ActionLink(kind="act", command=command, **common)))
               for command in button_commands(decision) or ()]
    return {"buttons": buttons, "choose_url": url_for_link(config, ActionLink(kind="choose", **common))}


def order_links(config: Config, *, game_id: str, seat: int, user_id: int, decision: Mapping[str, Any],
                deadline: Optional[dt.datetime], now: dt.datetime) -> list[tuple[str, str]]:
    """``[(preset, url)...]``: the standing-order presets offered under one decision of a
    mail (its payload's ``presets``, with what the decision was: ``like`` and ``phase``).
    Each link has its own ``jti``: giving an order does not burn the answer buttons."""
    offered = decision.get("presets") or {}
    expires = max(deadline or now, now) + DECISION_GRACE
    out = []
    for key in offered.get("keys") or ():
        spec = {"like": offered.get("like"), "phase": offered.get("phase")}
        if offered.get("lot_types"):
            spec["lot_types"] = list(offered["lot_types"])
        out.append((key, url_for_link(config, ActionLink(
            kind="order", game_id=game_id, seat=seat, user_id=user_id, decision_id=decision["id"], answer=key,
            command=spec, jti=new_jti(), expires_at=expires))))
    return out


def invitation_links(config: Config, *, game_id: str, seat: int, email: str, now: dt.datetime) -> dict:
    jti = new_jti()
    common = dict(game_id=game_id, seat=seat, email=email, jti=jti, expires_at=now + INVITATION_TTL)
    return {answer: url_for_link(config, ActionLink(kind="invite", answer=answer, **common))
            for answer in ("accept", "decline")}


def return_link(config: Config, *, game_id: str, seat: int, user_id: int, now: dt.datetime) -> str:
    return url_for_link(config, ActionLink(kind="return", game_id=game_id, seat=seat, user_id=user_id,
                                           jti=new_jti(), expires_at=now + RETURN_TTL))


def unsubscribe_link(config: Config, *, user_id: int, game_id: Optional[str]) -> str:
    return url_for_link(config, ActionLink(kind="unsubscribe", user_id=user_id, game_id=game_id))


# --------------------------------------------------------------------------- opening and using a link


@dataclass(frozen=True)
class Prepared:
    """What a link would do, checked against the game as it is now (for the confirm page)."""

    link: ActionLink
    user: User
    game: Optional[Game]
    decision: Optional[dict] = None
    command: Optional[dict] = None


def used(session: Session, link: ActionLink) -> bool:
    return link.single_use and session.get(UsedLink, link.jti) is not None


def prepare(session: Session, config: Config, link: ActionLink) -> Prepared:
    """Check that ``link`` can still act, without acting (``Forbidden``/``Conflict`` otherwise)."""
    from service.play import games

    if used(session, link):
        raise Forbidden("This link has already been used.", code="link_used")
    game = session.get(Game, link.game_id) if isinstance(link.game_id, str) else None
    if link.kind == "unsubscribe":
        user = session.get(User, link.user_id) if type(link.user_id) is int else None
        if user is None:
            raise Forbidden("This link is not valid.", code="link_invalid")
        return Prepared(link=link, user=user, game=game)
    if game is None:
        raise NotFound("That game no longer exists.", code="not_found")
    if link.kind == "invite":
        seat = _seat(session, game, link.seat)
        if link.answer not in ("accept", "decline") or not isinstance(link.email, str):
            raise Forbidden("This link is not valid.", code="link_invalid")
        if seat is None or seat.user_id is not None or seat.invited_email != link.email or game.status != "open":
            raise Conflict("This invitation is no longer open.", code="invitation_closed")
        from service.identity import auth

        return Prepared(link=link, user=auth.get_or_create_user(session, link.email), game=game)
    user = session.get(User, link.user_id) if type(link.user_id) is int else None
    seat = _seat(session, game, link.seat)
    if user is None or seat is None or seat.user_id != user.id:
        raise Forbidden("This link belongs to a seat you no longer hold.", code="link_invalid")
    if link.kind == "order":
        from service.play import presets

        if link.answer not in presets.KEYS or not isinstance(link.command, Mapping):
            raise Forbidden("This link is not valid.", code="link_invalid")
        if game.status != "running":
            raise Conflict("The game is over." if game.status == "finished" else "The game has not started.",
                           code="decision_closed")
        return Prepared(link=link, user=user, game=game)
    if link.kind == "return":
        if seat.bot_since is None:
            raise Conflict("The bot does not play your seat; nothing to take back.", code="not_taken_over")
        return Prepared(link=link, user=user, game=game)
    if game.status != "running":
        raise Conflict("The game is over." if game.status == "finished" else "The game has not started.",
                       code="decision_closed")
    decision = next((d for d in games.decisions_for(session, game.id, user) if d["id"] == link.decision_id), None)
    if decision is None:
        raise Conflict("This decision is no longer open: it was answered, or its deadline passed.",
                       code="decision_closed", details={"decision_id": link.decision_id})
    command = None
    if link.kind == "act":
        command = _answering(decision, link.command)
        if command is None:
            raise Conflict("That answer is no longer possible; choose again.", code="option_gone",
                           details={"decision_id": link.decision_id})
    return Prepared(link=link, user=user, game=game, decision=decision, command=command)


def _seat(session: Session, game: Game, seat: Any) -> Optional[Seat]:
    if type(seat) is not int:
        return None
    return session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).first()


def _answering(decision: Mapping[str, Any], command: Any) -> Optional[dict]:
    """``command`` if it answers ``decision`` (one of its options, or its type and schema)."""
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str) \
            or not isinstance(command.get("args", {}), Mapping):
        return None
    wanted = {"type": command["type"], "args": dict(command.get("args") or {})}
    if decision.get("options") is not None:
        return wanted if any(o["type"] == wanted["type"] and dict(o.get("args") or {}) == wanted["args"]
                             for o in decision["options"]) else None
    if wanted["type"] != decision.get("command_type"):
        return None
    try:
        schema_mod.validate(decision.get("schema") or {}, wanted["args"])
    except RuleViolation:
        return None
    return wanted


def perform(session: Session, config: Config, link: ActionLink,
            chosen: Optional[Mapping[str, Any]] = None) -> Prepared:
    """Use ``link`` (the confirm page's POST); ``chosen`` is the answer picked on a
    ``choose`` page.  Never commits; a refusal raises and the caller rolls back, which
    also un-spends the link."""
    from service.play import absence, games
    from service.identity import settings

    prepared = prepare(session, config, link)
    if link.single_use:
        session.add(UsedLink(jti=link.jti, purpose=f"action-{link.kind}"[:32],
                             expires_at=link.expires_at or utcnow() + INVITATION_TTL))
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            raise Forbidden("This link has already been used.", code="link_used") from None
    game, user = prepared.game, prepared.user
    if link.kind == "unsubscribe":
        settings.unsubscribe(session, user, link.game_id)
        return prepared
    if link.kind == "invite":
        if link.answer == "accept":
            games.join_game(session, config, game.id, user, seat=link.seat)
        else:
            _decline(session, config, game, link.seat, user)
        return prepared
    if link.kind == "return":
        absence.take_back_seat(session, config, game.id, user)
        return prepared
    if link.kind == "order":
        from service.play import presets
        from service.words import i18n

        like, phase = link.command.get("like"), link.command.get("phase")
        lot_types = link.command.get("lot_types")
        presets.give(session, config, user, game.id, link.answer, decision_id=link.decision_id,
                     like=like if isinstance(like, Mapping) else None,
                     phase=phase if isinstance(phase, Mapping) else None,
                     lot_types=lot_types if isinstance(lot_types, list) else (),
                     language=i18n.language_or_default(user.language))
        return prepared
    command = prepared.command if link.kind == "act" else _answering(prepared.decision, chosen)
    if command is None:
        raise InvalidInput("Choose one of the answers offered.", code="bad_form")
    games.submit_command(session, config, game.id, user, command_type=command["type"], args=command["args"],
                         expected_version=None, seat=link.seat)
    return Prepared(link=link, user=user, game=game, decision=prepared.decision, command=command)


def _decline(session: Session, config: Config, game: Game, seat_no: int, user: User) -> None:
    """Give the invitation up: the seat is open to anyone with the game's id, and the
    game's creator hears of it at once."""
    from service.notify import notifications

    seat = _seat(session, game, seat_no)
    seat.invited_email = None
    session.flush()
    creator = session.get(User, game.created_by) if game.created_by else None
    if creator is not None:
        notifications.notify(session, config, creator, kind="invitation_declined", game=game, seat=None,
                             payload={"declined_by": user.email, "declined_seat": seat_no})
