"""Table talk: public and private messages among the players of a game.

A message is **public** (every seated player reads it) or **private** to a set of two
or more seats, the sender's included.  Only the players it is addressed to ever see it:
the API and pages list a player's messages through :func:`messages_for`, emails go to
its recipients only, and webhooks only to its recipients' endpoints.  Spectators read
no table talk.

A bot reads only what is addressed to it privately, and answers each such message at
once, privately to its sender, with one polite line in the sender's language
(:data:`BOT_REPLY`): bots negotiate nothing, make no deals and give no gifts.

Messages live in their own table, not in the game's event stream, so talking never
moves a game's version and never makes anyone's ``expected_version`` stale.  Posting a
message writes the message, its recipients' notification rows and its webhooks in one
transaction (the caller commits); the notification composer mails it as each
recipient's preferences say.  Every message in a mail has its own reply address
``talk+<user>-<message>-<mac>@CAPUA_INBOUND_MAIL_DOMAIN`` (:func:`reply_address`): the
address itself proves which player it was sent to and what it answers (see
:mod:`service.notify.inbound_mail`), and a reply is posted to the same audience as the
message it answers.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any, Iterable, Optional, Sequence

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session

from service.notify import webhooks
from service.words.seat_marks import seat_letter, unnamed_player
from service.plumbing.config import Config
from service.plumbing.db import Game, Seat, TableMessage, TableMessageRecipient, User, WebhookEndpoint, utcnow
from service.plumbing.errors import Forbidden, InvalidInput, NotFound
from service.words import i18n
from service.words.i18n import N_

MAX_BODY = 4000
MAX_PAGE = 200
#: What a bot answers every message addressed to it (it sends no other).
BOT_REPLY = N_("Thank you for your message. I am a bot: I make no deals and negotiate nothing, "
               "I just play my own game. Good luck at the table!")
#: Salt of the reply-address MAC: a MAC made for another purpose never verifies here.
REPLY_SALT = b"capua.talk-reply.v1"
REPLY_LOCAL_PREFIX = "talk+"
_REPLY_LOCAL = re.compile(r"^talk\+(\d{1,12})-(\d{1,18})-([a-z2-7]{26})$")
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


# --------------------------------------------------------------------------- posting


def post_message(session: Session, config: Config, game_id: str, user: User, *, body: Any,
                 to: Optional[Sequence[int]] = None, reply_to: Optional[int] = None, via: str = "web",
                 inbound_message_id: Optional[str] = None) -> TableMessage:
    """Post ``body`` from the user's seat: public when ``to`` is ``None``, else private
    to the seats ``to`` and the sender's.  A reply (``reply_to``) without ``to`` goes to
    the audience of the message it answers.  Everything is checked before anything is
    written; refusals are :class:`InvalidInput` (422), :class:`Forbidden` (403, not a
    player) and :class:`NotFound` (404)."""
    game = _game(session, game_id)
    seats = _seats(session, game.id)
    mine = next((s for s in seats if user.id is not None and s.user_id == user.id), None)
    if mine is None:
        raise Forbidden("only the players of a game talk at its table", code="not_seated",
                        details={"game_id": game.id})
    text = _checked_body(body)
    replied: Optional[TableMessage] = None
    if reply_to is not None:
        replied = _visible_message(session, game.id, mine.seat, reply_to)
        if to is None and not replied.public:
            to = [s for s in recipients_of(session, replied) if s != mine.seat]
    audience = _checked_audience(to, mine.seat, seats) if to is not None else None
    message = TableMessage(game_id=game.id, sender_user_id=user.id, sender_seat=mine.seat, public=audience is None,
                           body=text, reply_to_id=replied.id if replied is not None else None, via=via,
                           inbound_message_id=inbound_message_id, created_at=utcnow())
    session.add(message)
    session.flush()
    if audience is not None:
        session.add_all(TableMessageRecipient(message_id=message.id, seat=s) for s in audience)
        session.flush()
    readers = [s for s in seats if s.user_id is not None and (audience is None or s.seat in audience)]
    names = seat_names(session, seats)
    view = message_view(message, audience, names)
    _notify_recipients(session, config, game, message, view, readers, user)
    _queue_webhooks(session, config, game, view, readers)
    for bot in (s for s in seats if s.is_bot and audience is not None and s.seat in audience):
        _bot_reply(session, config, game, seats, names, message, bot, user)
    return message


def _bot_reply(session: Session, config: Config, game: Game, seats: Sequence[Seat], names: dict[int, str],
               message: TableMessage, bot: Seat, sender: User) -> None:
    """The bot's answer to ``message``: :data:`BOT_REPLY`, privately to its sender."""
    audience = sorted({bot.seat, message.sender_seat})
    reply = TableMessage(game_id=game.id, sender_user_id=None, sender_seat=bot.seat, public=False,
                         body=i18n.gettext(sender.language, BOT_REPLY), reply_to_id=message.id, via="bot",
                         created_at=utcnow())
    session.add(reply)
    session.flush()
    session.add_all(TableMessageRecipient(message_id=reply.id, seat=s) for s in audience)
    session.flush()
    readers = [s for s in seats if s.user_id is not None and s.seat in audience]
    view = message_view(reply, audience, names)
    _notify_recipients(session, config, game, reply, view, readers, None)
    _queue_webhooks(session, config, game, view, readers)


def messages_for(session: Session, game_id: str, user: Optional[User], *, after: int = 0,
                 limit: int = 100) -> list[dict]:
    """The messages ``user`` may read in a game, oldest first, after message id ``after``.

    Players read the public messages and the private ones addressed to their seat;
    anyone else is refused (:class:`Forbidden`), so there is nothing to guess from.
    """
    if type(after) is not int or after < 0:
        raise InvalidInput("after must be a non-negative integer", details={"field": "after"})
    if type(limit) is not int or not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", details={"field": "limit"})
    game = _game(session, game_id)
    seats = _seats(session, game.id)
    mine = next((s for s in seats if user is not None and s.user_id == user.id), None)
    if mine is None:
        raise Forbidden("only the players of a game read its table talk", code="not_seated",
                        details={"game_id": game.id})
    rows = list(session.scalars(
        select(TableMessage)
        .where(TableMessage.game_id == game.id, TableMessage.id > after, _readable_by(mine.seat))
        .order_by(TableMessage.id).limit(limit)
    ))
    audiences = _audiences(session, [r.id for r in rows if not r.public])
    names = seat_names(session, seats)
    return [message_view(r, audiences.get(r.id), names) for r in rows]


def latest_for(session: Session, game_id: str, user: Optional[User], count: int = 50) -> Optional[dict]:
    """The table-talk panel of a game page: the last ``count`` messages the user may
    read (oldest first) and the seats they may write to; ``None`` for a non-player."""
    game = _game(session, game_id)
    seats = _seats(session, game.id)
    mine = next((s for s in seats if user is not None and s.user_id == user.id), None)
    if mine is None:
        return None
    rows = list(session.scalars(
        select(TableMessage).where(TableMessage.game_id == game.id, _readable_by(mine.seat))
        .order_by(TableMessage.id.desc()).limit(count)
    ))[::-1]
    audiences = _audiences(session, [r.id for r in rows if not r.public])
    names = seat_names(session, seats)
    others = [{"seat": s.seat, "name": names[s.seat]} for s in seats
              if s.user_id is not None and not s.is_bot and s.seat != mine.seat]
    return {"messages": [message_view(r, audiences.get(r.id), names) for r in rows], "my_seat": mine.seat,
            "others": others}


def message_view(message: TableMessage, audience: Optional[Iterable[int]], names: dict[int, str]) -> dict:
    """A message as its readers see it: who wrote it, to whom, what."""
    to = sorted(audience) if audience is not None else None
    return {
        "id": message.id,
        "game_id": message.game_id,
        "sender_seat": message.sender_seat,
        "sender_name": names.get(message.sender_seat, unnamed_player(message.sender_seat)),
        "public": message.public,
        "to": to,
        "to_names": [names.get(s, unnamed_player(s)) for s in to] if to is not None else None,
        "body": message.body,
        "reply_to_id": message.reply_to_id,
        "via": message.via,
        "created_at": message.created_at,
    }


def describe(session: Session, message: TableMessage) -> dict:
    """:func:`message_view` of one message, looking up its audience and names."""
    audience = None if message.public else recipients_of(session, message)
    return message_view(message, audience, seat_names(session, _seats(session, message.game_id)))


def recipients_of(session: Session, message: TableMessage) -> list[int]:
    """The seats of a private message (all seats of the game for a public one)."""
    if message.public:
        return [s.seat for s in _seats(session, message.game_id)]
    return sorted(session.scalars(select(TableMessageRecipient.seat)
                                  .where(TableMessageRecipient.message_id == message.id)))


def can_read(session: Session, message: TableMessage, seat: int) -> bool:
    return message.public or seat in recipients_of(session, message)


def seat_names(session: Session, seats: Sequence[Seat]) -> dict[int, str]:
    """What players are called at the table: their display name, else ``Player N``."""
    ids = {s.user_id for s in seats if s.user_id is not None}
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
    out = {}
    for s in seats:
        holder = users.get(s.user_id)
        out[s.seat] = (f"{holder.display_name} ({seat_letter(s.seat)})" if holder is not None and holder.display_name
                       else f"Bot {seat_letter(s.seat)}" if s.is_bot else unnamed_player(s.seat))
    return out


# --------------------------------------------------------------------------- reply addresses


def _reply_mac(config: Config, user_id: int, message_id: int) -> str:
    digest = hmac.new(config.secret_key.encode("utf-8"), REPLY_SALT + f":{user_id}:{message_id}".encode("ascii"),
                      hashlib.sha256).digest()[:16]
    return base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def reply_address(config: Config, user_id: int, message_id: int) -> Optional[str]:
    """``talk+<user>-<message>-<mac>@<domain>``, or ``None`` when replies by mail are off.

    The MAC (128 bits of HMAC-SHA256 with the secret key) binds the user and the message;
    the local part stays under 64 characters and lower-case, as mail systems want.
    """
    if not config.inbound_mail_domain:
        return None
    return f"{REPLY_LOCAL_PREFIX}{user_id}-{message_id}-{_reply_mac(config, user_id, message_id)}" \
           f"@{config.inbound_mail_domain}"


def read_reply_address(config: Config, address: str) -> tuple[int, int]:
    """``(user_id, message_id)`` of a reply address made by :func:`reply_address`;
    :class:`Forbidden` ``bad_reply_address`` for anything else, tampered or not ours."""
    refused = Forbidden("This is not a reply address of Capua.", code="bad_reply_address")
    if not config.inbound_mail_domain or not isinstance(address, str):
        raise refused
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    match = _REPLY_LOCAL.match(local)
    if match is None or domain != config.inbound_mail_domain:
        raise refused
    user_id, message_id, mac = int(match.group(1)), int(match.group(2)), match.group(3)
    if not hmac.compare_digest(mac, _reply_mac(config, user_id, message_id)):
        raise refused
    return user_id, message_id


# --------------------------------------------------------------------------- helpers


def _notify_recipients(session: Session, config: Config, game: Game, message: TableMessage, view: dict,
                       readers: Sequence[Seat], sender: Optional[User]) -> None:
    """A notification row for each human reader but the sender (see
    :func:`service.notify.notifications.notify_talk`): the message is mailed as the reader's
    notification preferences say, coalesced with their other notifications or in their
    digest, each message with its own reply address (:mod:`service.notify.compose`)."""
    from service.notify import notifications

    others = {s.user_id: s.seat for s in readers
              if s.user_id is not None and not s.is_bot and (sender is None or s.user_id != sender.id)}
    if not others:
        return
    users = list(session.scalars(select(User).where(User.id.in_(sorted(others))).order_by(User.id)))
    notifications.notify_talk(session, config, game, [(u, others[u.id]) for u in users], mail_payload(view),
                              private=not message.public)


def mail_payload(view: dict) -> dict:
    """What a mail needs of a message (JSON for the notification row): who wrote it, to
    whom, what and when; nothing about other messages."""
    return {"id": view["id"], "sender_seat": view["sender_seat"], "sender_name": view["sender_name"],
            "public": view["public"], "to_names": view["to_names"], "body": view["body"],
            "created_at": view["created_at"].isoformat()}


def _queue_webhooks(session: Session, config: Config, game: Game, view: dict, readers: Sequence[Seat]) -> None:
    """A ``talk.message`` to each endpoint of a reader that covers this game."""
    reader_ids = {s.user_id: s.seat for s in readers if s.user_id is not None}
    if not reader_ids:
        return
    endpoints = session.scalars(
        select(WebhookEndpoint).where(
            WebhookEndpoint.status == "enabled",
            WebhookEndpoint.user_id.in_(sorted(reader_ids)),
            or_(WebhookEndpoint.game_id == game.id, WebhookEndpoint.game_id.is_(None)),
        ).order_by(WebhookEndpoint.id)
    )
    for endpoint in endpoints:
        if "talk.message" not in (endpoint.event_types or ()):
            continue
        data = {"game_id": game.id, "game_type": game.game_type, "title": game.title,
                "seat": reader_ids[endpoint.user_id], "url": webhooks.game_url(config, game.id), "message": view}
        webhooks.enqueue(session, config, endpoint, "talk.message", data, game_id=game.id, at=view["created_at"])


def _readable_by(seat: int):
    return or_(
        TableMessage.public.is_(True),
        exists().where(TableMessageRecipient.message_id == TableMessage.id, TableMessageRecipient.seat == seat),
    )


def _audiences(session: Session, ids: Sequence[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    if ids:
        for message_id, seat in session.execute(
            select(TableMessageRecipient.message_id, TableMessageRecipient.seat)
            .where(TableMessageRecipient.message_id.in_(ids)).order_by(TableMessageRecipient.seat)
        ):
            out.setdefault(message_id, []).append(seat)
    return out


def _visible_message(session: Session, game_id: str, seat: int, message_id: Any) -> TableMessage:
    message = session.get(TableMessage, message_id) if type(message_id) is int else None
    if message is None or message.game_id != game_id or not can_read(session, message, seat):
        raise NotFound(f"there is no message {message_id} for you in this game", code="message_not_found",
                       details={"field": "reply_to"})
    return message


def _checked_body(body: Any) -> str:
    if not isinstance(body, str) or not body.strip():
        raise InvalidInput("Write something: a message cannot be empty.", code="invalid_message",
                           details={"field": "body", "problem": "empty"})
    text = body.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) > MAX_BODY:
        raise InvalidInput(f"A message has at most {MAX_BODY} characters.", code="invalid_message",
                           details={"field": "body", "problem": "too_long", "max_length": MAX_BODY})
    if "\x00" in text:
        raise InvalidInput("A message must not contain NUL characters.", code="invalid_message",
                           details={"field": "body", "problem": "nul"})
    return text


def _checked_audience(to: Any, my_seat: int, seats: Sequence[Seat]) -> list[int]:
    if isinstance(to, (str, bytes, dict)) or not isinstance(to, Iterable):
        raise InvalidInput("to must be a list of seats", code="invalid_recipients", details={"field": "to"})
    wanted = list(to)
    by_seat = {s.seat: s for s in seats}
    for seat in wanted:
        if type(seat) is not int or seat not in by_seat:
            raise InvalidInput(f"{seat!r} is not a seat of this game", code="invalid_recipients",
                               details={"field": "to"})
        holder = by_seat[seat]
        if not holder.is_bot and holder.user_id is None:
            raise InvalidInput(f"seat {seat} has no player to read it", code="invalid_recipients",
                               details={"field": "to", "seat": seat})
    audience = sorted(set(wanted) | {my_seat})
    if len(audience) < 2:
        raise InvalidInput("a private message goes to at least one other player", code="invalid_recipients",
                           details={"field": "to"})
    return audience


def _game(session: Session, game_id: Any) -> Game:
    game = session.get(Game, game_id) if isinstance(game_id, str) and _GAME_ID.match(game_id) else None
    if game is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64]})
    return game


def _seats(session: Session, game_id: str) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)))
