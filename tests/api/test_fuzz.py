"""No input, however malformed, produces a 500 or changes anything.

Every operation of the OpenAPI document (and a few methods it does not have) is sent
junk: bodies of every JSON type, broken JSON, wrong content types, every field of the
operation's valid request replaced in turn by values of the wrong type, out-of-range
numbers and unstorable text, junk query values, path ids and headers, plus a batch of
random JSON from a seeded generator.  Every answer must be below 500, and every refusal
(4xx) must leave the database exactly as it was.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator, Optional

import pytest
from sqlalchemy import func, select

from service.plumbing.db import ApiToken, Base, Game
from service.plumbing import database
from tests.api.players import create_game

JUNK_VALUES: list[Any] = [
    None, 0, -1, 2**31, -(2**63), 2**64, 10**400, 1.5, -0.0, 1e308, True, False, "", " ", "x" * 5000,
    "0", "-1", "null", "\u202e\u0301🎲", "<script>alert(1)</script>", "'; DROP TABLE games; --",
    "../../etc/passwd", [], [None], [1, "a", {}], {}, {"$ref": "#"}, {"a": {"b": {"c": [1]}}},
]
#: JSON texts that json.dumps cannot produce from Python values.
RAW_JUNK_BODIES = [
    b"", b"null", b"[]", b"{}", b'"text"', b"123", b"true", b"{", b"}", b"[1,", b'{"a":}', b"\x00", b"\xff\xfe",
    b'{"a": NaN}', b'{"a": -Infinity}', b'{"a": 1e999}', b"[" * 2000 + b"]" * 2000, b'{"\\ud800": 1}',
    b'{"type": "\\u0000"}', b'{"email": "\\udfff@x.org"}', b'{"a": 1, "a": 2}', b"\xef\xbb\xbf{}",
    json.dumps({"k" * 64: "v" * 100_000}).encode(),
]
CONTENT_TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 "application/json; charset=latin-1", "application/xml", ""]
JUNK_IDS = ["0", "-1", "%00", "..", "..%2F..", "%2e%2e%2f", "a" * 40, "%F0%9F%8E%B2", "%FF", "null",
            "99999999999999999999999999", "1e3", "%20", "%0d%0aX-Injected:%201"]
JUNK_HEADERS = [
    {"If-Match": "junk"}, {"If-Match": '"-1"'}, {"If-Match": '"' + "9" * 30 + '"'}, {"If-Match": "*"},
    {"If-None-Match": "\u00ff\u00fe"}, {"Idempotency-Key": "k" * 300}, {"Idempotency-Key": ""},
    {"Authorization": "Bearer " + "A" * 10_000}, {"Authorization": "Bearer capua_forged_token_value_xxxxxx"},
    {"Accept": "text/html"}, {"Content-Length": "5"},
]


def _valid_bodies(game_id: str) -> dict[tuple[str, str], dict]:
    """A valid body per operation with one: each field is then replaced by junk in turn."""
    return {
        ("post", "/api/v1/games"): {"game_type": "pax", "seats": 2, "bot_seats": [1], "invites": [],
                                    "my_seat": 0, "clock_hours": 24, "title": "t", "options": {}},
        ("post", "/api/v1/games/{game_id}/join"): {"seat": 1},
        ("post", "/api/v1/games/{game_id}/commands"): {"type": "keep_card", "args": {"card": "X"},
                                                       "expected_version": 1, "seat": 0},
        ("post", "/api/v1/auth/magic-link"): {"email": "fuzz@example.org", "next": "/"},
        ("post", "/api/v1/tokens"): {"name": "fuzz"},
    }


def _state_fingerprint(app) -> tuple:
    """Row counts of every table, plus the game versions and revocations: any change shows."""
    parts = [select(func.count()).select_from(t).scalar_subquery() for t in Base.metadata.sorted_tables]
    parts.append(select(func.coalesce(func.sum(Game.version), 0)).scalar_subquery())
    parts.append(select(func.count()).select_from(ApiToken).where(ApiToken.revoked_at.is_not(None)).scalar_subquery())
    with database.sessions(app)() as s:
        return tuple(s.execute(select(*parts)).one())


class Fuzzer:
    def __init__(self, app, client, *, game_id: str, spare_token_id: int, spec: dict) -> None:
        self.app = app
        self.client = client
        self.game_id = game_id
        self.spare_token_id = spare_token_id
        self.spec = spec
        self.sent = 0
        self.before = _state_fingerprint(app)

    def send(self, method: str, url: str, *, data: Optional[bytes] = None, content_type: Optional[str] = None,
             headers: Optional[dict] = None) -> None:
        all_headers = {"Authorization": f"Bearer {self.client.token}"}
        all_headers.update(headers or {})
        if content_type is not None:
            all_headers["Content-Type"] = content_type
        try:
            response = self.client.flask_client.open(url, method=method, data=data, headers=all_headers)
        except ValueError:
            return  # the test client refuses to even build this request (e.g. a newline in a header)
        self.sent += 1
        where = f"{method} {url} {headers or ''} {content_type!r} {(data or b'')[:120]!r}"
        assert response.status_code < 500, f"{response.status_code} for {where}: {response.get_data()[:300]!r}"
        after = _state_fingerprint(self.app)
        if response.status_code >= 400:
            assert after == self.before, f"a refused request changed the database: {where}"
            if response.mimetype == "application/json" and method != "HEAD" and url.startswith("/api/"):
                assert set(response.get_json()) == {"error"}, where
        self.before = after


def _urls(spec: dict, game_id: str, spare_token_id: int) -> Iterator[tuple[str, str, str]]:
    """``(method, template, url)`` for every documented operation, with real ids."""
    for template, item in spec["paths"].items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item:
                url = (template.replace("{game_id}", game_id).replace("{token_id}", str(spare_token_id))
                       .replace("{seq}", "1"))
                yield method, template, url


def _replace_ids(template: str, junk: str) -> str:
    return template.replace("{game_id}", junk).replace("{token_id}", junk).replace("{seq}", junk)


@pytest.fixture
def fuzzer(app, ann):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1])
    spare = ann.post("tokens", json={"name": "spare"}).get_json()["id"]
    return Fuzzer(app, ann, game_id=game["id"], spare_token_id=spare,
                  spec=ann.get("/api/v1/openapi.json").get_json())


def test_junk_bodies_and_content_types(fuzzer):
    for method, _template, url in _urls(fuzzer.spec, fuzzer.game_id, fuzzer.spare_token_id):
        for body in RAW_JUNK_BODIES:
            fuzzer.send(method.upper(), url, data=body, content_type="application/json")
        for content_type in CONTENT_TYPES:
            fuzzer.send(method.upper(), url, data=b'{"name": "x", "type": "x"}', content_type=content_type)
        for other in ("PUT", "PATCH", "OPTIONS", "HEAD", "TRACE"):
            fuzzer.send(other, url, data=b"{}", content_type="application/json")
    assert fuzzer.sent > 300


def test_every_field_replaced_by_junk(fuzzer):
    for (method, template), valid in _valid_bodies(fuzzer.game_id).items():
        url = template.replace("{game_id}", fuzzer.game_id)
        for field in valid:
            for junk in JUNK_VALUES:
                body = {**valid, field: junk}
                fuzzer.send(method.upper(), url, data=json.dumps(body).encode(), content_type="application/json")
            fuzzer.send(method.upper(), url, data=json.dumps({k: v for k, v in valid.items() if k != field}).encode(),
                        content_type="application/json")
        fuzzer.send(method.upper(), url, data=json.dumps({**valid, "unexpected": 1}).encode(),
                    content_type="application/json")
    assert fuzzer.sent > 200


def test_junk_ids_queries_and_headers(fuzzer):
    for method, template, url in _urls(fuzzer.spec, fuzzer.game_id, fuzzer.spare_token_id):
        if "{" in template:
            for junk in JUNK_IDS:
                fuzzer.send(method.upper(), _replace_ids(template, junk), data=b"{}", content_type="application/json")
        for headers in JUNK_HEADERS:
            fuzzer.send(method.upper(), url, data=b'{"type": "x"}', content_type="application/json", headers=headers)
    events = f"/api/v1/games/{fuzzer.game_id}/events"
    for query in ["after=-5", "after=abc", "after=1e9", "limit=-1", "limit=99999999999999999999", "after=%00",
                  "after=1&after=2", "limit=", "after=" + "9" * 500]:
        fuzzer.send("GET", f"{events}?{query}")
    assert fuzzer.sent > 150


def test_random_json(fuzzer):
    rng = random.Random(20240601)

    def value(depth: int = 0) -> Any:
        kind = rng.randrange(9 if depth < 4 else 6)
        if kind == 0:
            return None
        if kind == 1:
            return rng.choice([True, False])
        if kind == 2:
            return rng.randint(-(2**70), 2**70)
        if kind == 3:
            return rng.uniform(-1e6, 1e6)
        if kind in (4, 5):
            return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(160, 0x2FFF)]))
                           for _ in range(rng.randrange(12)))
        if kind in (6, 7):
            keys = ["type", "args", "seats", "game_type", "name", "email", "seat", "expected_version", "x"]
            return {rng.choice(keys): value(depth + 1) for _ in range(rng.randrange(5))}
        return [value(depth + 1) for _ in range(rng.randrange(4))]

    operations = [(m, u) for m, _t, u in _urls(fuzzer.spec, fuzzer.game_id, fuzzer.spare_token_id) if m != "get"]
    for _ in range(250):
        method, url = rng.choice(operations)
        fuzzer.send(method.upper(), url, data=json.dumps(value()).encode(), content_type="application/json")
    assert fuzzer.sent == 250
