"""Idempotent mutating requests: a retried request gets the first answer, and changes nothing.

Every mutating view is wrapped by :func:`idempotent`, which is also where that view's one
commit happens.  Without an ``Idempotency-Key`` header it runs the view and commits
when the answer is a success.  With a key (at most 255 printable ASCII characters), per
principal (the signed-in user, else the client address):

1. an unexpired stored answer for the key is replayed (``Idempotent-Replayed: true``),
   or refused with 422 ``idempotency_key_reused`` if it answered a different request
   (method, path, query, ``If-Match`` and the body's JSON meaning are fingerprinted);
2. otherwise the key is *claimed* by inserting its row before the view's first
   statement, in one statement (``INSERT ... ON CONFLICT DO NOTHING RETURNING id``)
   sent ahead of it (:func:`~service.plumbing.statements.ahead`: on PostgreSQL in the
   same round trip; a key found held stops the view at that statement, before anything
   else is sent): a new key costs that statement and the answer's ``UPDATE``, nothing
   else.  When identity leaves the bearer token's check to the claim
   (:func:`~service.plumbing.requester.check_in_claim`: a token this process has seen
   live), the claim inserts its row only while the token is unrevoked, so the token
   costs no statement of its own; no row back then means the key is held or the token
   revoked, told apart only then, in a statement of its own (401 if revoked, before
   anything is answered or committed).  A concurrent duplicate's
   insert waits on the unique ``(principal, key)`` index (PostgreSQL) or on the write
   lock (SQLite) until the first transaction ends; if the first committed, the
   duplicate inserts nothing, reads the stored answer and replays it; so it never runs
   the change a second time and never answers 500;
3. the view runs in the same transaction; a success answer (status, body and the
   headers in :data:`REPLAYED_HEADERS`) is written into the claimed row and committed
   together with the change.  A refusal (4xx) changed nothing and is not stored: the
   claim is rolled back with everything else, so a retry is evaluated afresh, which
   cannot apply anything twice.

Keys older than ``config.idempotency_ttl_hours`` are ignored, purged by the workers'
sweep (:func:`purge_expired`, never on the request path), and an expired row still
holding a key that is used again is replaced by the new claim.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from flask import Response, current_app, g, request
from sqlalchemy import bindparam, delete, exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.plumbing import requester
from service.plumbing.config import Config
from service.plumbing.database import commit, config as current_config, session as current_session
from service.plumbing.db import ApiToken, IdempotencyKey, utcnow
from service.plumbing.errors import Conflict, InvalidInput, LostRace, ServiceError
from service.plumbing.json_input import read_request_json
from service.plumbing.statements import ahead, connection_of, defer, dialect_insert, run

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
#: Headers of the first answer that a replay repeats (the body says the rest).
REPLAYED_HEADERS = ("Content-Type", "Location", "ETag")

_KEY_PATTERN = re.compile(r"[\x20-\x7e]{1,255}")
#: How often a claim is retried when the first holder of the key rolled back meanwhile.
_CLAIM_ATTEMPTS = 3


class IdempotencyKeyReused(InvalidInput):
    code = "idempotency_key_reused"


class IdempotencyKeyInUse(Conflict):
    code = "idempotency_key_in_use"


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a mutating view: one commit, and idempotent under ``Idempotency-Key``."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        raw_key = request.headers.get(HEADER)
        if raw_key is None:
            return _run_and_commit(view, args, kwargs)
        return _run_idempotent(validate_key(raw_key), view, args, kwargs)

    wrapper.capua_claims_key = True
    return wrapper


def claims_key(view: Optional[Callable[..., Any]]) -> bool:
    """``view`` is wrapped by :func:`idempotent`: under an ``Idempotency-Key`` its first
    statement is the key's claim, and it commits nothing before the claim's answer."""
    return getattr(view, "capua_claims_key", False)


def after_commit(callback: Callable[[], Any]) -> None:
    """Run ``callback`` once this request's transaction has committed (wake a mail worker...).

    Never run for a refused request or a replay: nothing new was committed then.  A
    failing callback is logged; the change it follows is committed and stands.
    """
    g.setdefault("capua_after_commit", []).append(callback)


def _committed() -> None:
    for callback in g.pop("capua_after_commit", []):
        try:
            callback()
        except Exception:
            current_app.logger.exception("after-commit callback failed")


def _discard_callbacks() -> None:
    g.pop("capua_after_commit", None)


def validate_key(raw: str) -> str:
    if not _KEY_PATTERN.fullmatch(raw):
        raise InvalidInput(
            f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters.",
            code="invalid_idempotency_key",
        )
    return raw


def purge_expired(session: Session, config: Config, now: Optional[dt.datetime] = None,
                  principal: Optional[str] = None) -> int:
    """Delete stored answers older than the TTL (of one ``principal`` if given); return how many.

    Flushes but does not commit: the caller's transaction decides.
    """
    cutoff = _cutoff(config, now)
    stmt = delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff)
    if principal is not None:
        stmt = stmt.where(IdempotencyKey.principal == principal)
    result = session.execute(stmt)
    return int(result.rowcount or 0)


def purge_expired_keys(sessions: Any, config: Config) -> int:
    """The workers' sweep: delete every expired stored answer in a transaction of its own."""
    with sessions() as session:
        purged = purge_expired(session, config)
        session.commit()
    return purged


#: The body's canonical JSON (keys sorted, no spaces, ASCII): one encoder, made once.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def request_fingerprint() -> str:
    """A hash of what makes two requests "the same request" for a key: the method, path,
    query and ``If-Match``, and the body's JSON meaning (its canonical text), else its
    bytes."""
    req = request._get_current_object()
    try:
        canonical = _CANONICAL.encode(read_request_json(req)).encode("ascii")
    except ServiceError:
        canonical = req.get_data(cache=True)
    head = "\x00".join((req.method, req.path, req.query_string.decode("latin-1"), req.headers.get("If-Match", "")))
    digest = hashlib.sha256(head.encode("utf-8", "surrogatepass"))
    digest.update(b"\x00")
    digest.update(canonical)
    return digest.hexdigest()


def principal_of_request() -> str:
    """``user:<id>`` for a signed-in user, else ``anon:<address>`` (the magic-link form)."""
    user_id = requester.current_user_id()
    if user_id is not None:
        return f"user:{user_id}"
    return f"anon:{request.remote_addr or 'unknown'}"[:64]


def _cutoff(config: Config, now: Optional[dt.datetime]) -> dt.datetime:
    return (now or utcnow()) - dt.timedelta(hours=config.idempotency_ttl_hours)


def _run_and_commit(view: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    session = current_session()
    try:
        response = current_app.make_response(view(*args, **kwargs))
    except BaseException:
        _rollback(session)
        raise
    if not _is_success(response):
        _rollback(session)
        return response
    try:
        commit(session)
    except IntegrityError:
        _rollback(session)
        raise LostRace("Another request changed the same thing first; reload and retry.") from None
    except LostRace:  # (refused by the server with the COMMIT: a game's events, on PostgreSQL)
        _rollback(session)
        raise
    _committed()
    return response


def _run_idempotent(key: str, view: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    session = current_session()
    config = current_config()
    principal = principal_of_request()
    fingerprint = request_fingerprint()
    # The claim travels with the view's first statement (one round trip on PostgreSQL, where
    # a command's is its game's read); a key held already stops the view there (SQLite:
    # the claim runs at once).  With the bearer token's check in it, no row back may also
    # mean the token was revoked: told apart once the claim is rolled back.
    token = requester.token_check()
    values = _claim_values(principal, key, fingerprint)
    if token is None:
        statement, judge = _statements(session).claim, _refuse_held
    else:
        statement, judge = _statements(session).claim_if_live, functools.partial(_refuse_held_or_revoked, token)
        values["token_hash"] = token.token_hash
    try:
        claim = ahead(session, statement, values, check=judge)
        return _run_claimed(session, config, principal, key, fingerprint, claim.rows, view, args, kwargs,
                            pending=claim)
    except _KeyHeld:
        _rollback(session)
    if token is not None:
        try:
            token.settle(session)  # (Unauthorized if the token was revoked)
        except BaseException:
            _rollback(session)
            raise
    claim_id: Optional[int] = None
    for _attempt in range(_CLAIM_ATTEMPTS):
        claim_id = _claim(session, principal, key, fingerprint)
        if claim_id is not None:
            break
        stored = _lookup(session, config, principal, key)
        if stored is not None:
            session.rollback()
            return _replay(stored, fingerprint)
        # The row holding the key has expired (or its holder rolled back meanwhile): free it.
        session.execute(delete(IdempotencyKey).where(
            IdempotencyKey.principal == principal, IdempotencyKey.key == key,
            IdempotencyKey.created_at < _cutoff(config, None)))
    if claim_id is None:
        raise IdempotencyKeyInUse(f"Another request with this {HEADER} is still running; retry shortly.")
    claimed = functools.partial(_Claimed, claim_id)
    return _run_claimed(session, config, principal, key, fingerprint, claimed, view, args, kwargs)


def _run_claimed(session: Session, config: Config, principal: str, key: str, fingerprint: str,
                 claim: Callable[[], Any], view: Callable[..., Any], args: tuple, kwargs: dict, *,
                 pending: Any = None) -> Any:
    """Run the view under the claim whose answer ``claim()`` gives, and commit its success
    with its answer; :class:`_KeyHeld` if the claim found the key held."""
    try:
        response = current_app.make_response(view(*args, **kwargs))
    except _KeyHeld:
        raise
    except BaseException as error:
        if pending is not None and not pending.sent and isinstance(error, Exception):
            _rollback_unless_held(session, claim)
        _rollback(session)
        raise
    if not _is_success(response):
        if pending is not None and not pending.sent:
            _rollback_unless_held(session, claim)  # a refusal before any statement: the key decides first
        _rollback(session)
        return response
    claim_id = claim().scalar()
    defer(session, _statements(session).answer, {
        "claim_id": claim_id, "status_code": response.status_code, "response_body": response.get_data(as_text=True),
        "response_headers": _replayed_headers(response)})
    try:
        commit(session)
    except IntegrityError:
        _rollback(session)
        stored = _lookup(session, config, principal, key)
        if stored is not None:
            return _replay(stored, fingerprint)
        raise LostRace("Another request changed the same thing first; reload and retry.") from None
    except LostRace:  # (refused by the server with the COMMIT: a game's events, on PostgreSQL)
        _rollback(session)
        raise
    _committed()
    return response


_REPLAYED_BY_NAME = {name.lower(): name for name in REPLAYED_HEADERS}


def _replayed_headers(response: Response) -> dict[str, str]:
    """The headers of ``response`` that a replay repeats, in :data:`REPLAYED_HEADERS`'
    order, each the first of its name: read in one pass over the headers, where asking
    the headers for each name scans them every time."""
    found: dict[str, str] = {}
    for name, value in response.headers.items():
        wanted = _REPLAYED_BY_NAME.get(name.lower())
        if wanted is not None and wanted not in found:
            found[wanted] = value
    return {name: found[name] for name in REPLAYED_HEADERS if name in found}


def _rollback_unless_held(session: Session, claim: Callable[[], Any]) -> None:
    """Send the claim the view never took along; :class:`_KeyHeld` (rolled back) if held."""
    try:
        claim()
    except _KeyHeld:
        _rollback(session)
        raise


class _KeyHeld(Exception):
    """The claim found the key held: the request is answered by the stored answer (or
    claimed again once an expired row is freed), not by the view."""


def _refuse_held(rows: Any) -> None:
    if rows.scalar() is None:
        raise _KeyHeld()


def _refuse_held_or_revoked(token: requester.TokenCheck, rows: Any) -> None:
    """The claim that checked the token: a row back proves the token live; none is a
    held key or a revoked token, told apart by :func:`_run_idempotent`."""
    if rows.scalar() is None:
        raise _KeyHeld()
    token.live()


@dataclass(frozen=True)
class _Claimed:
    """A claim made at once, in the shape of a sent claim's rows."""

    claim_id: int

    def scalar(self) -> int:
        return self.claim_id


#: The columns a claim writes (every one but the id).
_CLAIMED = ("principal", "key", "request_hash", "status_code", "response_body", "response_headers", "created_at")


def _claim_values(principal: str, key: str, fingerprint: str) -> dict[str, Any]:
    return {"principal": principal, "key": key, "request_hash": fingerprint, "status_code": 0, "response_body": "",
            "response_headers": {}, "created_at": utcnow()}


def _claim(session: Session, principal: str, key: str, fingerprint: str) -> Optional[int]:
    """Insert the key's row unless one holds it already: its id, or ``None``. One statement."""
    return run(session, _statements(session).claim, _claim_values(principal, key, fingerprint)).scalar()


@dataclass(frozen=True)
class _Statements:
    claim: Any          # INSERT the key's row unless held; RETURNING its id
    claim_if_live: Any  # the same, only while the token of ``token_hash`` is unrevoked
    answer: Any         # UPDATE the claimed row (``claim_id``) with the answer


def _statements(session: Session) -> _Statements:
    """The statements of the dialect of the connection they run on (the one this module
    sends them on: asking it is a lookup, where the ORM's ``get_bind`` resolves the
    mapper's bind every time)."""
    return _statements_for(connection_of(session).dialect.name)


@functools.lru_cache(maxsize=None)
def _statements_for(dialect: str) -> _Statements:
    """The claim and the answer, built once per dialect (the values are bound).

    The claim that checks a token is ``INSERT ... SELECT <the values> WHERE EXISTS (<the
    live token>) ON CONFLICT DO NOTHING``: its ``WHERE`` also keeps SQLite from reading
    the ``ON CONFLICT`` as a join's ``ON`` (its documented parsing ambiguity of an upsert
    after a ``SELECT``)."""
    table, tokens = IdempotencyKey.__table__, ApiToken.__table__
    insert = dialect_insert(dialect)
    live = exists().where(tokens.c.token_hash == bindparam("token_hash"), tokens.c.revoked_at.is_(None))
    claimed = select(*(bindparam(name, type_=table.c[name].type) for name in _CLAIMED)).where(live)
    return _Statements(
        claim=insert(table).on_conflict_do_nothing(index_elements=["principal", "key"]).returning(table.c.id),
        claim_if_live=insert(table).from_select(_CLAIMED, claimed).on_conflict_do_nothing(
            index_elements=["principal", "key"]).returning(table.c.id),
        answer=table.update().where(table.c.id == bindparam("claim_id")).values(
            status_code=bindparam("status_code"), response_body=bindparam("response_body"),
            response_headers=bindparam("response_headers")),
    )


def _lookup(session: Session, config: Config, principal: str, key: str) -> Optional[IdempotencyKey]:
    return session.scalars(
        select(IdempotencyKey).where(
            IdempotencyKey.principal == principal,
            IdempotencyKey.key == key,
            IdempotencyKey.created_at >= _cutoff(config, None),
        )
    ).first()


def _replay(stored: IdempotencyKey, fingerprint: str) -> Response:
    if stored.request_hash != fingerprint:
        raise IdempotencyKeyReused(
            f"This {HEADER} was already used for a different request; use a new key for a new request."
        )
    if stored.status_code == 0:
        raise IdempotencyKeyInUse(f"Another request with this {HEADER} is still running; retry shortly.")
    response = current_app.response_class(stored.response_body, status=stored.status_code)
    for name, value in (stored.response_headers or {}).items():
        response.headers[name] = value
    response.headers[REPLAYED] = "true"
    return response


def _rollback(session: Session) -> None:
    session.rollback()
    _discard_callbacks()


def _is_success(response: Response) -> bool:
    return 200 <= response.status_code < 300

