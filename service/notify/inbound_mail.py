"""Replies by email: a reply to a table-talk mail is posted as a message of that game.

Every table-talk mail carries a ``Reply-To`` address made by
:func:`service.notify.talk.reply_address`; its local part holds the recipient's user id, the
message answered and a MAC over both, so the address proves who it was sent to and
what it answers, and cannot be forged or altered.  A reply is posted only when

* the recipient address is one of those and verifies;
* the sender (envelope ``MAIL FROM`` when given, and the ``From`` header) is that
  user's address: a forwarded mail answered by a stranger is refused;
* the mail is not an automatic answer (``Auto-Submitted``, ``Precedence: bulk``...);
* the user still plays the game and may read the message answered;
* something is left once the quoted text and signature are stripped.

Anything else is refused with a :class:`~service.plumbing.errors.ServiceError` naming why, and
nothing is posted.  A mail delivered twice (same ``Message-ID``) posts once.

Two ways in share :func:`receive`: ``capua mail receive`` (an SMTP or LMTP server,
:func:`serve`, for the MTA to hand replies to) and ``POST /api/v1/inbound/mail`` for a
mail provider's inbound webhook.
"""

from __future__ import annotations

import asyncio
import email.policy
import email.utils
import html as html_lib
import logging
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from html.parser import HTMLParser
from typing import Any, Optional, Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from service.notify import talk
from service.plumbing import mail
from service.plumbing.config import Config
from service.plumbing.db import Seat, TableMessage, User
from service.plumbing.errors import Forbidden, InvalidInput, ServiceError

log = logging.getLogger(__name__)

MAX_MAIL_BYTES = 1024 * 1024
_AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
#: Lines that start the quoted original in common mail programs (several languages).
_QUOTE_HEADERS = [re.compile(p, re.IGNORECASE) for p in (
    r"^on\b.{0,300}\bwrote:\s*$",
    r"^am\b.{0,300}\bschrieb\b.{0,300}:\s*$",
    r"^le\b.{0,300}\ba écrit\s*:\s*$",
    r"^el\b.{0,300}\bescribió:\s*$",
    r"^il giorno\b.{0,300}\bha scritto:\s*$",
    r"^.{0,300}\bнаписал(а)?:\s*$",
    r"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}\s*$",
    r"^_{20,}\s*$",
)]
#: A forwarded-header block (Outlook): ``From:`` followed closely by ``Sent:``/``Date:``...
_HEADER_BLOCK_START = re.compile(r"^\*?(from|von|de|от)\s*:\*?\s.+$", re.IGNORECASE)
_HEADER_BLOCK_NEXT = re.compile(r"^\*?(sent|date|to|subject|gesendet|an|betreff|envoyé|à|objet|отправлено|кому|тема)"
                                r"\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class Received:
    """What became of an accepted reply: the message, and whether it was already posted."""

    message: TableMessage
    duplicate: bool


def receive(session: Session, config: Config, *, raw: bytes, recipient: Optional[str] = None,
            sender: Optional[str] = None) -> Received:
    """Post the reply in ``raw`` (an RFC 5322 message) to the game it answers.

    ``recipient`` and ``sender`` are the SMTP envelope's ``RCPT TO`` / ``MAIL FROM`` (or
    what a provider's webhook reports); without ``recipient`` the message's own
    ``Delivered-To``/``To``/``Cc`` headers are searched for a reply address.  Never
    commits; refuses with :class:`~service.plumbing.errors.ServiceError` (nothing written).
    """
    if not config.inbound_mail_domain:
        raise Forbidden("Replies by mail are turned off here (CAPUA_INBOUND_MAIL_DOMAIN).", code="inbound_mail_off")
    if not isinstance(raw, (bytes, bytearray)) or not raw.strip():
        raise InvalidInput("The mail is empty.", code="invalid_mail")
    if len(raw) > MAX_MAIL_BYTES:
        raise InvalidInput(f"A reply has at most {MAX_MAIL_BYTES} bytes.", code="mail_too_large")
    message = BytesParser(policy=email.policy.default).parsebytes(bytes(raw))
    if is_automatic(message):
        raise Forbidden("Automatic answers (out of office, bounces) are not posted.", code="automatic_mail")
    if recipient:
        recipient = email.utils.parseaddr(recipient)[1] or recipient
    user_id, message_id = talk.read_reply_address(config, recipient or _reply_address_in(config, message))
    user = session.get(User, user_id)
    if user is None:
        raise Forbidden("This is not a reply address of Capua.", code="bad_reply_address")
    from_header = _address(str(message.get("From", "")))
    senders = {a for a in (_address(sender or ""), from_header) if a}
    if not from_header or any(a != user.email.lower() for a in senders):
        raise Forbidden("Only the player this mail was sent to can reply to it.", code="sender_mismatch")
    original = session.get(TableMessage, message_id)
    if original is None:
        raise Forbidden("The message this mail answers no longer exists.", code="bad_reply_address")
    inbound_id = _message_id(message)
    if inbound_id is not None:
        posted = session.scalar(select(TableMessage).where(TableMessage.inbound_message_id == inbound_id))
        if posted is not None:
            return Received(message=posted, duplicate=True)
    seat = session.scalar(select(Seat.seat).where(Seat.game_id == original.game_id, Seat.user_id == user.id))
    if seat is None or not talk.can_read(session, original, seat):
        raise Forbidden("You no longer play the game this mail is about.", code="not_seated")
    body = strip_quoted(body_text(message))
    if not body:
        raise InvalidInput("The reply is empty once the quoted mail is taken away.", code="empty_reply")
    if len(body) > talk.MAX_BODY:
        body = body[:talk.MAX_BODY - 1].rstrip() + "…"
    posted = talk.post_message(session, config, original.game_id, user, body=body, reply_to=original.id,
                               via="email", inbound_message_id=inbound_id)
    return Received(message=posted, duplicate=False)


def is_automatic(message: EmailMessage) -> bool:
    """Auto-replies and bounces (RFC 3834 ``Auto-Submitted`` and the usual markers)."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return True
    if str(message.get("Precedence", "")).strip().lower() in _AUTO_PRECEDENCE:
        return True
    if message.get("X-Autoreply") or message.get("X-Autorespond") or message.get("X-Auto-Response-Suppress"):
        return True
    return str(message.get("Content-Type", "")).lower().startswith("multipart/report")


def body_text(message: EmailMessage) -> str:
    """The text a person wrote: the plain part, else the HTML part turned into text."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, UnicodeError):
        content = part.get_payload(decode=True).decode("utf-8", "replace") if part.get_payload(decode=True) else ""
    if part.get_content_type() == "text/html":
        return html_to_text(content)
    return content


def strip_quoted(text: str) -> str:
    """The new text of a reply: the quoted original (``>`` lines, and everything from an
    "On ... wrote:" line or a forwarded-header block down) and the signature
    (``-- ``) are dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if line == "-- " or line == "--":
            break
        joined = f"{stripped} {lines[i + 1].strip()}" if i + 1 < len(lines) else stripped
        if any(p.match(stripped) for p in _QUOTE_HEADERS) or \
                (stripped.lower().startswith("on ") and any(p.match(joined) for p in _QUOTE_HEADERS[:1])):
            break
        if _HEADER_BLOCK_START.match(stripped) and any(_HEADER_BLOCK_NEXT.match(n.strip()) for n in lines[i + 1:i + 4]):
            break
        if stripped.startswith(">"):
            continue
        kept.append(line.rstrip())
    out = "\n".join(kept).strip()
    return re.sub(r"\n{3,}", "\n\n", out)


class _TextOfHtml(HTMLParser):
    """Text of an HTML mail without its quoted parts (``blockquote``, Gmail's quote div)."""

    _SKIPPED = {"blockquote", "style", "script", "head", "title"}
    _BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: Sequence[tuple[str, Optional[str]]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag in self._SKIPPED or (tag == "div" and "gmail_quote" in classes):
            self.skipping += 1
        elif tag in self._BREAKS and not self.skipping:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    parser = _TextOfHtml()
    parser.feed(markup)
    parser.close()
    return html_lib.unescape("".join(parser.parts))


def _address(value: str) -> str:
    return email.utils.parseaddr(value)[1].strip().lower()


def _message_id(message: EmailMessage) -> Optional[str]:
    value = str(message.get("Message-ID", "")).strip()
    return value[:255] or None


def _reply_address_in(config: Config, message: EmailMessage) -> str:
    """The first reply address of ours among the message's recipients."""
    for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
        for _name, address in email.utils.getaddresses([str(v) for v in message.get_all(header, [])]):
            if address.lower().endswith("@" + config.inbound_mail_domain) and \
                    address.lower().startswith(talk.REPLY_LOCAL_PREFIX):
                return address
    raise Forbidden("The mail is not addressed to a reply address of Capua.", code="bad_reply_address")


def is_reply_recipient(config: Config, address: str) -> bool:
    """Whether ``address`` verifies as a reply address (an SMTP server refuses the rest at RCPT)."""
    try:
        talk.read_reply_address(config, address)
    except Forbidden:
        return False
    return True


# --------------------------------------------------------------------------- the SMTP/LMTP receiver


def receive_and_commit(sessions: sessionmaker, config: Config, *, raw: bytes, recipient: Optional[str],
                       sender: Optional[str]) -> Received:
    """:func:`receive` in a transaction of its own, committed, its mail handed to the worker."""
    with sessions() as session:
        try:
            result = receive(session, config, raw=raw, recipient=recipient, sender=sender)
            session.commit()
        except IntegrityError:
            # The same Message-ID committed concurrently: the other delivery posted it.
            session.rollback()
            result = receive(session, config, raw=raw, recipient=recipient, sender=sender)
        except BaseException:
            session.rollback()
            raise
        mail.notify_mail_committed(config, mail.take_queued(session))
        return result


class InboundHandler:
    """aiosmtpd handler: refuses unknown recipients at ``RCPT``, posts each reply at ``DATA``.

    SMTP answers once for the whole mail (any refusal refuses it); LMTP answers per
    recipient, as that protocol wants.
    """

    def __init__(self, sessions: sessionmaker, config: Config, *, lmtp: bool = False) -> None:
        self.sessions = sessions
        self.config = config
        self.lmtp = lmtp

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list) -> str:
        if not is_reply_recipient(self.config, address):
            return "550 5.1.1 No such mailbox: replies go to the talk+ address of a Capua mail"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or b""
        statuses = []
        for recipient in envelope.rcpt_tos:
            statuses.append(await asyncio.to_thread(self._one, raw, recipient, envelope.mail_from))
        if self.lmtp:
            return "\r\n".join(statuses)
        refused = [s for s in statuses if not s.startswith("250")]
        return refused[0] if refused else "250 OK: posted"

    def _one(self, raw: bytes, recipient: str, sender: Optional[str]) -> str:
        try:
            receive_and_commit(self.sessions, self.config, raw=raw, recipient=recipient, sender=sender)
        except ServiceError as err:
            log.info("inbound mail to %s refused: %s", recipient, err.code)
            return f"550 5.7.1 {err.message}"
        except Exception:
            log.exception("inbound mail to %s failed", recipient)
            return "451 4.3.0 Temporary failure; try again later"
        return "250 OK: posted"


def make_controller(sessions: sessionmaker, config: Config, *, host: str, port: int, lmtp: bool = False):
    """An aiosmtpd controller (its own thread) serving :class:`InboundHandler`."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.lmtp import LMTP
    from aiosmtpd.smtp import SMTP

    handler = InboundHandler(sessions, config, lmtp=lmtp)

    class _Controller(Controller):
        def factory(self):
            cls = LMTP if lmtp else SMTP
            return cls(self.handler, data_size_limit=MAX_MAIL_BYTES, enable_SMTPUTF8=True,
                       hostname=config.inbound_mail_domain or None)

    return _Controller(handler, hostname=host, port=port)
