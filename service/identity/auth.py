"""Identity: who is asking, and how they proved it.

A player is an email address.  Browsers sign in with a **magic link**: a signed,
expiring, single-use token mailed to the address.  Opening the link only shows a confirm
button (mail scanners prefetch links, so a GET must never sign anyone in); the POST
signs in.  API clients send a personal bearer token, stored only as its SHA-256 hash.

Browser sessions are Flask's signed cookie holding the user id and an absolute expiry
(``CAPUA_SESSION_DAYS``).  Every page form that changes something carries a per-session
CSRF token.  The REST API under ``/api/`` authenticates with bearer tokens; a mutating API
call that a browser authenticates with the session cookie instead must prove it comes
from Capua's own pages: the session's CSRF token in the ``X-CSRF-Token`` header, or a
same-origin request (``Sec-Fetch-Site: same-origin``, else an ``Origin`` of this site).
The cookie is ``SameSite=Lax`` on top of that.

Why not Flask-WTF's ``CSRFProtect``: it does the same check (a random token kept in the
session, compared in constant time with the form's), but Capua has no WTForms forms (its
forms are drawn from the games' JSON schemas), so it would bring WTForms for this one
check; its tokens expire after an hour by default, which refuses the form of a game
page left open for a day's turn; and its refusal is a 400 of its own, where Capua's is
the one error shape (403 ``csrf_failed``) on the page the player came from.  Switching
its expiry off and mapping its error would take as much code as the check below.

Service functions here take the caller's SQLAlchemy session and never commit; the views
below commit once, after the work of the request is done.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import logging
import re
import secrets
import time
from dataclasses import dataclass
from collections import OrderedDict
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    redirect,
    render_template,
    request,
    session as cookie,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface
from flask_babel import get_locale, gettext as _
from markupsafe import Markup
from itsdangerous import BadData, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import Select, bindparam, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.util import identity_key

from service.plumbing import idempotency, mail, requester, statements
from service.plumbing.config import Config
from service.plumbing.database import config as app_config, new_session, session as db_session
from service.plumbing.db import ApiToken, MailMessage, UsedLink, User, utcnow
from service.plumbing.rows import hold
from service.plumbing.errors import Forbidden, InvalidInput, NotFound, ServiceError, Unauthorized
from service.plumbing.http_errors import error_response
from service.words import i18n

log = logging.getLogger(__name__)

#: Prefix of every raw API token: makes leaked tokens easy to recognise (secret scanners).
TOKEN_PREFIX = "capua_"
#: Characters of the raw token kept in clear, so a user can tell their tokens apart.
TOKEN_SHOWN_CHARS = 12
#: Salt of the magic-link signature: a signature made for another purpose never verifies here.
MAGIC_LINK_SALT = "capua.magic-link.v1"
MAGIC_LINK_PURPOSE = "signin"
#: At most this many sign-in emails per address per window, so the form cannot mail-bomb anyone.
SIGNIN_MAILS_PER_WINDOW = 5
SIGNIN_MAIL_WINDOW = dt.timedelta(minutes=15)
#: ``last_used_at`` is written at most this often per token, so API reads stay read-only.
TOKEN_TOUCH_EVERY = dt.timedelta(minutes=1)
#: Requests under this prefix are the REST API: bearer-authenticated, no CSRF form token.
API_PREFIX = "/api/"
CSRF_FIELD = "csrf_token"
_UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

_LOCAL_PART = re.compile(r"^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_DOMAIN_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_RAW_TOKEN = re.compile(r"^capua_[A-Za-z0-9_-]{20,100}$")

bp = Blueprint("auth", __name__)


# --------------------------------------------------------------------------- users


def normalise_email(email: object) -> str:
    """``email`` lower-cased and stripped, or :class:`InvalidInput` saying what is wrong.

    The check is syntactic (one ``@``, a dot-atom local part, a dotted domain of valid
    labels): whether the mailbox exists is learnt only by mailing it.  Rejecting spaces,
    commas and angle brackets also keeps addresses safe to put in mail headers.
    """
    if not isinstance(email, str) or not email.strip():
        raise InvalidInput("Enter an email address.", code="invalid_email")
    value = email.strip().lower()
    if len(value) > 254 or value.count("@") != 1:
        raise InvalidInput(f"{email.strip()!r} is not an email address.", code="invalid_email")
    local, domain = value.split("@")
    labels = domain.split(".")
    if (
        not local
        or len(local) > 64
        or not _LOCAL_PART.match(local)
        or len(labels) < 2
        or not all(_DOMAIN_LABEL.match(label) for label in labels)
        or labels[-1].isdigit()
    ):
        raise InvalidInput(f"{email.strip()!r} is not an email address.", code="invalid_email")
    return value


def get_or_create_user(session: Session, email: str, *, language: Optional[str] = None) -> User:
    """The user with this address, created on first sight (a player *is* an address);
    a new one speaks ``language`` (one Capua speaks; else the default)."""
    address = normalise_email(email)
    user = session.scalar(select(User).where(User.email == address))
    if user is None:
        user = User(email=address)
        if language in i18n.LANGUAGES:
            user.language = language
        session.add(user)
        session.flush()
    return user


# --------------------------------------------------------------------------- API tokens


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def create_api_token(session: Session, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new personal token for ``user``: returns the row and the raw token.

    The raw token is returned exactly once; only its SHA-256 and a short prefix are
    stored, so a database leak does not leak usable tokens.
    """
    name = (name or "").strip()
    if len(name) > 80:
        raise InvalidInput("A token name has at most 80 characters.", code="invalid_token_name")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user_id=user.id, name=name, token_hash=_token_hash(raw), prefix=raw[:TOKEN_SHOWN_CHARS])
    session.add(token)
    session.flush()
    return token, raw


def list_api_tokens(session: Session, user: User) -> list[ApiToken]:
    """Every token of ``user``, revoked ones included, newest first."""
    return list(
        session.scalars(
            select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
        )
    )


def revoke_api_token(session: Session, user: User, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens; revoking twice keeps the first time.

    Another user's token is reported as not found, so ids reveal nothing.
    """
    token = session.get(ApiToken, token_id) if isinstance(token_id, int) else None
    if token is None or token.user_id != user.id:
        raise NotFound(f"You have no API token {token_id}.", code="token_not_found")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        session.flush()
    return token


@dataclass(frozen=True)
class Requester:
    """The user a request acts for, as a plain row: what a bearer token's lookup read.

    The command path needs only who is asking, so it works on this row; views that
    change the user or hand it to the ORM ask :func:`current_user` for the ``User``,
    built from this row without another statement."""

    id: int
    email: str
    display_name: str
    language: str
    timezone: str
    created_at: dt.datetime

    @classmethod
    def of(cls, user: User) -> "Requester":
        return cls(user.id, user.email, user.display_name, user.language, user.timezone, user.created_at)


_USER_COLUMNS = ("id", "email", "display_name", "language", "timezone", "created_at")


@functools.lru_cache(maxsize=1)
def _token_query() -> Select:
    """The statement of :func:`requester_for_token`, built once (the hash is bound): Core
    columns, so reading it builds no ORM object."""
    users, tokens = User.__table__, ApiToken.__table__
    return (select(*(users.c[name] for name in _USER_COLUMNS), tokens.c.id, tokens.c.last_used_at)
            .select_from(users.join(tokens, tokens.c.user_id == users.c.id))
            .where(tokens.c.token_hash == bindparam("token_hash"), tokens.c.revoked_at.is_(None)))


def requester_for_token(session: Session, raw: str,
                        touch: Optional[Callable[[int, dt.datetime], None]] = None, *,
                        remember: bool = False) -> Optional[Requester]:
    """The owner of a live raw token as a plain row, or ``None``; marks the token as used.

    One statement on the session's connection: the user joined with the unrevoked token
    of that hash, so a revoked token is refused by the very query that would find it.
    ``last_used_at`` is refreshed at most once a
    minute: enough to tell a user which tokens are alive without turning every API read
    into a write. ``touch(token_id, now)`` writes it when due (default: in ``session``,
    flushed).  ``remember``: the process keeps what it found (:data:`_SEEN`).
    """
    if not isinstance(raw, str) or not _RAW_TOKEN.match(raw):
        return None
    token_hash = _token_hash(raw)
    row = statements.run(session, _token_query(), {"token_hash": token_hash}).first()
    if row is None:
        if remember:
            _SEEN.pop(token_hash, None)
        return None
    return _live(session, row, touch, token_hash if remember else None)


def _live(session: Optional[Session], row: tuple, touch: Optional[Callable[[int, dt.datetime], None]],
          remembered: Optional[str] = None) -> Requester:
    """The requester of a token's row, its use marked when due; kept in :data:`_SEEN`
    under the token's hash ``remembered``, with when its use is due to be marked again."""
    *fields, token_id, last_used_at = row
    now = utcnow()
    if last_used_at is None or now - last_used_at >= TOKEN_TOUCH_EVERY:
        if touch is None:
            token = session.get(ApiToken, token_id)
            token.last_used_at = now
            session.flush()
        else:
            touch(token_id, now)
        last_used_at = now
    found = Requester(*fields)
    if remembered is not None:
        _remember(remembered, found, time.monotonic() + (last_used_at + TOKEN_TOUCH_EVERY - now).total_seconds())
    return found


def user_for_token(session: Session, raw: str,
                   touch: Optional[Callable[[int, dt.datetime], None]] = None) -> Optional[User]:
    """The owner of a live raw token, or ``None``, as :func:`requester_for_token` finds it,
    as the ORM's ``User``; what ``session`` holds unwritten is flushed first, as a query
    through the ORM would."""
    session.flush()
    requester = requester_for_token(session, raw, touch)
    return None if requester is None else as_user(session, requester)


def as_user(session: Session, requester: Requester) -> User:
    """``requester``'s ``User`` in ``session``: the one it holds already, else one made
    from the row (persistent and clean, so nothing is read or written for it)."""
    user = session.identity_map.get(identity_key(User, requester.id))
    if user is None:
        user = User(**{name: getattr(requester, name) for name in _USER_COLUMNS})
        make_transient_to_detached(user)
        session.add(user)
    return hold(session, user)


# --------------------------------------------------------------------------- magic links


def safe_next_url(next_url: object) -> Optional[str]:
    """``next_url`` if it is a path on this site, else ``None``.

    Only relative paths are accepted: an absolute URL, a protocol-relative ``//host``,
    a backslash (browsers read ``/\\host`` as ``//host``) or a control character could
    send a freshly signed-in user to another site (an open redirect).
    """
    if not isinstance(next_url, str) or not next_url or len(next_url) > 2000:
        return None
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in next_url) or "\\" in next_url:
        return None
    if not next_url.startswith("/") or next_url.startswith("//"):
        return None
    parts = urlsplit(next_url)
    if parts.scheme or parts.netloc:
        return None
    return next_url


def _serializer(config: Config) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(config.secret_key, salt=MAGIC_LINK_SALT)


def make_magic_link(config: Config, email: str, next_url: str = "/") -> str:
    """An absolute sign-in URL for ``email`` that lands on ``next_url`` once used.

    The token is signed with the secret key and carries the address, a random ``jti``
    (recorded in ``used_links`` when used, which makes the link single-use) and the
    relative ``next`` path; it expires after ``CAPUA_MAGIC_LINK_TTL_MINUTES``.
    """
    address = normalise_email(email)
    target = safe_next_url(next_url)
    if target is None:
        raise InvalidInput("The page to open after signing in must be a path on this site.", code="unsafe_next_url")
    token = _serializer(config).dumps({"e": address, "j": secrets.token_urlsafe(16), "n": target})
    return f"{config.base_url.rstrip('/')}/auth/magic/{token}"


def read_magic_token(config: Config, token: str) -> tuple[str, str, str, dt.datetime]:
    """Verify a magic-link token without using it: ``(email, next_url, jti, issued_at)``.

    Raises :class:`Forbidden` with code ``link_expired`` or ``link_invalid``.
    """
    try:
        payload, issued = _serializer(config).loads(
            token, max_age=config.magic_link_ttl_minutes * 60, return_timestamp=True
        )
    except SignatureExpired:
        raise Forbidden("This sign-in link has expired. Ask for a new one.", code="link_expired") from None
    except (BadData, TypeError, ValueError):
        raise Forbidden("This sign-in link is not valid. Ask for a new one.", code="link_invalid") from None
    if (
        not isinstance(payload, dict)
        or not isinstance(payload.get("e"), str)
        or not isinstance(payload.get("j"), str)
        or not 0 < len(payload["j"]) <= 64
    ):
        raise Forbidden("This sign-in link is not valid. Ask for a new one.", code="link_invalid")
    return payload["e"], safe_next_url(payload.get("n")) or "/", payload["j"], issued


def magic_link_used(session: Session, jti: str) -> bool:
    return session.get(UsedLink, jti) is not None


def send_magic_link(session: Session, config: Config, email: str, next_url: str = "/", *,
                    language: Optional[str] = None, chosen: bool = False) -> Optional[MailMessage]:
    """Queue a sign-in email for ``email`` (creating the user if new).

    ``language`` is the one the asker reads: the language switcher's choice (``chosen``),
    else the page's or the browser's.  A new address takes it as its setting; the mail
    is in the asker's chosen language, else in the address's own setting.

    The caller answers the same whether the address was known or not, so the form
    reveals nothing about who plays here.  Returns the queued message, or ``None`` when
    this address already got :data:`SIGNIN_MAILS_PER_WINDOW` sign-in emails recently
    (the request is then silently dropped, so the form cannot flood a mailbox).
    """
    user = get_or_create_user(session, email, language=language)
    lang = language if chosen and language in i18n.LANGUAGES else i18n.language_or_default(user.language)
    link = make_magic_link(config, user.email, next_url)
    recent = session.scalar(
        select(func.count(MailMessage.id)).where(
            MailMessage.to_address == user.email,
            MailMessage.kind == "signin",
            MailMessage.created_at >= utcnow() - SIGNIN_MAIL_WINDOW,
        )
    )
    if recent >= SIGNIN_MAILS_PER_WINDOW:
        log.info("sign-in mail to user %s throttled", user.id)
        return None
    subject, text, html = sign_in_mail(config, link, lang)
    return mail.queue_mail(session, to=user.email, subject=subject, text=text, html=html, kind="signin")


_SIGN_IN_SUBJECT = i18n.N_("Your Capua sign-in link")


def sign_in_mail(config: Config, link: str, language: str) -> tuple[str, str, str]:
    """The sign-in mail's subject, text and HTML bodies in ``language``."""
    env = i18n.mail_environment(language)
    context = {"link": link, "ttl_minutes": config.magic_link_ttl_minutes, "base_url": config.base_url,
               "lang": language}
    return (i18n.translator(language)(_SIGN_IN_SUBJECT), env.get_template("mail/signin.txt").render(**context),
            env.get_template("mail/signin.html").render(**context))


#: The cookie that keeps the language a visitor chose with the switcher
#: (:func:`service.web.site_pages.set_language`).
LANGUAGE_COOKIE = "capua_language"


def chosen_language() -> Optional[str]:
    """The language this visitor chose with the switcher, if any (its cookie)."""
    value = request.cookies.get(LANGUAGE_COOKIE)
    return value if value in i18n.LANGUAGES else None


def consume_magic_token(session: Session, config: Config, token: str) -> tuple[User, str]:
    """Use a magic-link token: returns ``(user, next_url)``; a token works once.

    Single use is enforced by inserting the link's ``jti`` into ``used_links``: the
    primary key refuses a second insert even when two requests race.  The row is
    flushed first thing; if the insert loses a race the caller's transaction is rolled
    back (it held nothing else) and :class:`Forbidden` ``link_used`` is raised.
    """
    email, next_url, jti, issued = read_magic_token(config, token)
    used = Forbidden("This sign-in link has already been used. Ask for a new one.", code="link_used")
    if magic_link_used(session, jti):
        raise used
    expires = issued + dt.timedelta(minutes=config.magic_link_ttl_minutes)
    session.add(UsedLink(jti=jti, purpose=MAGIC_LINK_PURPOSE, expires_at=expires))
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        raise used from None
    return get_or_create_user(session, email), next_url


# --------------------------------------------------------------------------- sessions


def login_user(user: User) -> None:
    """Start a browser session for ``user`` (a fresh cookie and CSRF token)."""
    days = app_config().session_days
    cookie.clear()
    cookie["uid"] = user.id
    cookie["exp"] = int(time.time()) + days * 86400
    cookie[CSRF_FIELD] = secrets.token_urlsafe(32)
    cookie.permanent = True
    g.capua_user = user
    g.capua_requester = Requester.of(user)


def logout_user() -> None:
    cookie.clear()
    g.capua_user = None
    g.capua_requester = None


#: What ``g`` answers for a requester this request has not looked up yet.
_UNKNOWN = object()


def current_requester() -> Optional[Requester]:
    """Who this request acts for, as a plain row, or ``None``; looked up once per request.

    An ``Authorization`` header decides alone: ``Bearer <token>`` of a live token is the
    token's owner, anything else (a malformed header, a revoked token) is nobody, and
    the cookie is not consulted.  Without the header, the session cookie decides.
    """
    held = g._get_current_object()  # (asked several times a request: one lookup of ``g`` each)
    found = held.get("capua_requester", _UNKNOWN)
    if found is not _UNKNOWN:
        return found
    header = request.headers.get("Authorization")
    if header is not None:
        found = _requester_from_bearer(header)
    else:
        user = _user_from_cookie()
        held.capua_user = user
        found = None if user is None else Requester.of(user)
    held.capua_requester = found
    return found


def current_user() -> Optional[User]:
    """The ``User`` of this request (:func:`current_requester`), or ``None``; a bearer
    token's user is made from the row its lookup read, without another statement."""
    if "capua_user" in g:
        return g.capua_user
    found = current_requester()
    if "capua_user" not in g:
        g.capua_user = None if found is None else as_user(db_session(), found)
    return g.capua_user


def require_requester() -> Requester:
    """Who this request acts for, as a plain row, or :class:`Unauthorized`."""
    found = current_requester()
    if found is None:
        raise Unauthorized("Sign in, or send an API token as 'Authorization: Bearer capua_...'.",
                           headers={"WWW-Authenticate": 'Bearer realm="capua"'})
    return found


def require_user() -> User:
    """The user of this request, or :class:`Unauthorized`."""
    require_requester()
    return current_user()


def _requester_from_bearer(header: str) -> Optional[Requester]:
    """The owner of the bearer token in ``header``, read in the request's session.

    The request's session belongs to the view (a GET view never commits), so the
    once-a-minute ``last_used_at`` is written in a short transaction of its own.
    """
    scheme, _, raw = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not _RAW_TOKEN.match(raw.strip()):
        return None
    session, token_hash = db_session(), _token_hash(raw.strip())
    seen = _SEEN.get(token_hash)
    req = request._get_current_object()
    if seen is not None and req.method not in _READING and req.path.startswith(API_PREFIX):
        found, touch_due = seen
        if touch_due > time.monotonic() and _checked_in_claim(req, token_hash):
            return found
        if statements.pipelined(session):
            # Checked again, with the request's first statement (no round trip of its own
            # on PostgreSQL): a revoked token stops the request there, or before its
            # COMMIT, or at the latest before its answer leaves (:func:`_token_checked`).
            check = statements.ahead(session, _token_query(), {"token_hash": token_hash},
                                     check=functools.partial(_still_live, token_hash))
            g.capua_token_check = _CheckedAhead(check, token_hash)
            return found
    return requester_for_token(session, raw.strip(), touch=_touch_aside, remember=True)


# A token this process found live, by its hash: a change the API is asked for with it
# (not a read: a revoked token reads as nobody, and a read view may answer without any
# statement) reads the token's row again, unrevoked, in the idempotency key's claim (a
# command: :func:`_checked_in_claim`), else in the same round trip as the request's first
# statement on PostgreSQL, rather than in a statement of its own before everything else.
# The request goes on as the token's owner meanwhile; what the row says is judged before
# anything the request wrote commits and before its answer leaves, so a revoked token is
# refused on the very next request as ever (401), and changes nothing.  Each is kept with
# the ``time.monotonic()`` at which its ``last_used_at`` is due to be written again: from
# then on the token is read by a statement of its own once more (the claim cannot return
# the token's row), which writes it.
_SEEN: "OrderedDict[str, tuple[Requester, float]]" = OrderedDict()
_MOST_SEEN = 1024
_READING = frozenset({"GET", "HEAD", "OPTIONS"})


def _remember(token_hash: str, found: Requester, touch_due: float) -> Requester:
    _SEEN[token_hash] = (found, touch_due)
    if len(_SEEN) > _MOST_SEEN:
        try:
            _SEEN.popitem(last=False)
        except KeyError:  # (another thread emptied it meanwhile)
            pass
    return found


def _checked_in_claim(req: Any, token_hash: str) -> bool:
    """Leave the token's check to the request ``req``'s idempotency claim, if it makes one
    first thing (an ``Idempotency-Key`` to a view that claims it): True if so."""
    if idempotency.HEADER not in req.headers:
        return False
    if not idempotency.claims_key(current_app.view_functions.get(req.endpoint)):
        return False
    check = _CheckedInClaim(token_hash)
    g.capua_token_check = check
    requester.check_in_claim(check)
    return True


def _refused() -> Unauthorized:
    return Unauthorized("This API token is no longer valid.", headers={"WWW-Authenticate": 'Bearer realm="capua"'})


def _still_live(token_hash: str, rows: Any) -> None:
    """The token's row read again: :class:`Unauthorized` if it is revoked (or gone)."""
    row = rows.first()
    if row is None:
        _SEEN.pop(token_hash, None)
        raise _refused()
    _live(None, row, _touch_aside, token_hash)


def _read_aside(token_hash: str) -> None:
    """The token's row read in a transaction of its own (:func:`_still_live`)."""
    with new_session() as side:
        _still_live(token_hash, statements.run(side, _token_query(), {"token_hash": token_hash}))


class _CheckedAhead:
    """A token's row sent :func:`~service.plumbing.statements.ahead` of the request's
    first statement, judged by :func:`_still_live` when it comes back."""

    __slots__ = ("pending", "token_hash")

    def __init__(self, pending: statements.Pending, token_hash: str) -> None:
        self.pending, self.token_hash = pending, token_hash

    def settle_late(self) -> None:
        if self.pending.rows() is None:  # rolled back before it was sent
            _read_aside(self.token_hash)


class _CheckedInClaim:
    """A token checked by the idempotency claim (:class:`requester.TokenCheck`)."""

    __slots__ = ("token_hash", "settled")

    def __init__(self, token_hash: str) -> None:
        self.token_hash, self.settled = token_hash, False

    def live(self) -> None:
        self.settled = True

    def settle(self, session: Session) -> None:
        """The claim inserted nothing: the key is held, or the token revoked
        (:class:`Unauthorized`); read in ``session``, in a statement of its own."""
        row = statements.run(session, _token_query(), {"token_hash": self.token_hash}).first()
        self.settled = True
        if row is None:
            _SEEN.pop(self.token_hash, None)
            raise _refused()

    def settle_late(self) -> None:
        if not self.settled:  # (the request never sent its claim: refused before it)
            self.settled = True
            _read_aside(self.token_hash)


def _token_checked(response: Response) -> Response:
    """The answer of a request whose token was checked with its statements leaves only
    once the check said the token is live (a request that sent no statement, or rolled
    back before the check went, reads the row now)."""
    check = g.pop("capua_token_check", None)
    if check is None:
        return response
    try:
        check.settle_late()
    except Unauthorized as err:
        return error_response(err)
    return response


def _touch_aside(token_id: int, now: dt.datetime) -> None:
    """Record a token's use in a transaction of its own; a failure only loses the mark."""
    try:
        with new_session() as side:
            side.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))
            side.commit()
    except OperationalError:
        log.warning("recording an API token's use failed", exc_info=True)


def _user_from_cookie() -> Optional[User]:
    uid, expires = cookie.get("uid"), cookie.get("exp")
    if not isinstance(uid, int) or not isinstance(expires, int) or expires < time.time():
        return None
    return db_session().get(User, uid)


# --------------------------------------------------------------------------- CSRF


def csrf_token() -> str:
    """This session's CSRF token, created on first use (forms put it in a hidden field)."""
    token = cookie.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        cookie[CSRF_FIELD] = token
    return token


def csrf_input() -> Markup:
    """The hidden form field carrying this session's CSRF token."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(CSRF_FIELD, csrf_token())


def csrf_exempt(view):
    """Mark a page view whose POST is authenticated by a signed token in its URL, not by
    the session cookie, so the CSRF form token does not apply (the one-click
    unsubscribe POST of mail clients, RFC 8058, carries neither cookie nor form)."""
    view.capua_csrf_exempt = True
    return view


def _check_csrf() -> None:
    """Refuse a page form POST whose hidden token does not match the session's, and a
    cookie-authenticated API call that does not come from this site (:func:`_check_api_csrf`)."""
    if request.method not in _UNSAFE_METHODS:
        return
    if request.path.startswith(API_PREFIX):
        _check_api_csrf()
        return
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if getattr(view, "capua_csrf_exempt", False):
        return
    expected = cookie.get(CSRF_FIELD)
    sent = request.form.get(CSRF_FIELD, "")
    if not isinstance(expected, str) or not hmac.compare_digest(expected.encode(), sent.encode()):
        raise Forbidden("This form has expired or did not come from Capua. Reload the page and try again.",
                        code="csrf_failed")


#: Header a page's script sends the session's CSRF token in, for a cookie-authenticated API call.
CSRF_HEADER = "X-CSRF-Token"


def _check_api_csrf() -> None:
    """A mutating API call authenticated by the session cookie needs the CSRF header or a
    same-origin request.  With an ``Authorization`` header the cookie is not consulted
    (:func:`current_user`), and without a signed-in cookie there is nobody to act for."""
    if "Authorization" in request.headers or not isinstance(cookie.get("uid"), int):
        return
    expected, sent = cookie.get(CSRF_FIELD), request.headers.get(CSRF_HEADER, "")
    if isinstance(expected, str) and sent and hmac.compare_digest(expected.encode(), sent.encode()):
        return
    if _same_origin():
        return
    raise Forbidden("A signed-in browser may change things over the API only from Capua's own pages "
                    f"(send the {CSRF_HEADER} header), or use an API token.", code="csrf_failed")


def _same_origin() -> bool:
    """True when the browser says the request comes from this site."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site == "same-origin"
    origin = request.headers.get("Origin")
    if not origin:
        return False
    ours = {_origin_of(app_config().base_url), f"{request.scheme}://{request.host}".lower()}
    return origin.strip().lower() in ours


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


# --------------------------------------------------------------------------- pages


@bp.get("/signin")
def signin_form():
    return render_template("auth/signin.html", next_url=safe_next_url(request.args.get("next")) or "/",
                           email="", error=None)


@bp.post("/signin")
def signin_submit():
    email = request.form.get("email", "")
    next_url = safe_next_url(request.form.get("next")) or "/"
    s = db_session()
    chosen = chosen_language()
    try:
        send_magic_link(s, app_config(), email, next_url, language=chosen or page_language(), chosen=bool(chosen))
    except InvalidInput:
        error = _("%(email)s is not an email address.", email=email.strip()[:254]) if email.strip() \
            else _("Enter an email address.")
        return render_template("auth/signin.html", next_url=next_url, email=email, error=error), 422
    s.commit()
    mail.notify_mail_committed(current_app, mail.take_queued(s))
    cookie["signin_email"] = normalise_email(email)
    return redirect(url_for("auth.signin_sent"), code=303)


@bp.get("/signin/sent")
def signin_sent():
    return render_template("auth/signin_sent.html", email=cookie.get("signin_email", ""))


@bp.get("/auth/magic/<token>")
def magic_confirm(token: str):
    """Show what the link would do; never sign in here (scanners prefetch links)."""
    try:
        email, _next, jti, _issued = read_magic_token(app_config(), token)
    except Forbidden as err:
        return _link_refused(err)
    if magic_link_used(db_session(), jti):
        me = current_user()
        if me is not None and me.email == email:
            # the link did its work: its owner, signed in, just goes where it leads
            return redirect(safe_next_url(_next) or "/", code=303)
        return _link_refused(Forbidden("This sign-in link has already been used. Ask for a new one.",
                                       code="link_used"), next_url=safe_next_url(_next) or "/")
    return render_template("auth/magic_confirm.html", email=email, token=token)


@bp.post("/auth/magic/<token>")
def magic_signin(token: str):
    s = db_session()
    try:
        user, next_url = consume_magic_token(s, app_config(), token)
    except Forbidden as err:
        return _link_refused(err)
    chosen = chosen_language()
    if chosen is not None and user.language != chosen:
        user.language = chosen  # the switcher's choice made before signing in holds after it
    s.commit()
    login_user(user)
    return redirect(next_url, code=303)


def page_language() -> str:
    """The language this page is drawn in (Flask-Babel's choice for the visitor)."""
    return i18n.language_or_default(str(get_locale() or i18n.DEFAULT_LANGUAGE))


@bp.post("/signout")
def signout():
    logout_user()
    return redirect("/", code=303)


def _link_refused(err: ServiceError, next_url: str = "/"):
    """The refusal of a link; a visitor who is signed in anyway is told so and led on,
    not asked for a new link they do not need."""
    return render_template("auth/link_refused.html", message=err.message, code=err.code, next_url=next_url,
                           signed_in=current_user()), err.status


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, but a request that carries no session cookie (every
    API call with a bearer token) gets its empty session without the signer being built
    (a serializer and its key derivation, on every request), nor the cookies parsed when
    there is no ``Cookie`` header at all; it is built to read a cookie or to write one,
    as before."""

    def open_session(self, app: Flask, request):  # type: ignore[override]
        if app.secret_key and ("HTTP_COOKIE" not in request.environ
                               or not request.cookies.get(self.get_cookie_name(app))):
            return self.session_class()
        return super().open_session(app, request)


def init_app(app: Flask) -> None:
    """Sessions, CSRF checks and the sign-in pages for ``app``."""
    config: Config = app.extensions["capua.config"]
    app.session_interface = CookieSessions()
    app.permanent_session_lifetime = dt.timedelta(days=config.session_days)
    app.before_request(_check_csrf)
    app.jinja_env.globals.update(csrf_input=csrf_input, current_user=current_user)
    requester.register(app, current_requester)
    app.after_request(_token_checked)
    app.register_blueprint(bp)
