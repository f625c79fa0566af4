"""Schemathesis against the OpenAPI document: every operation with valid and invalid input,
and stateful sequences along the links schemathesis infers from the document (the id a
created resource answers with, fed to the operations that take it), on PostgreSQL.

The run is schemathesis's own engine (the phases its command line runs: examples, coverage,
fuzzing, stateful), in-process against the Flask app over WSGI, signed in with an API token,
with a fixed seed and deterministic generation, so every run generates the same input (the
ids the server makes, and so the stateful paths, vary a little).  It fails on any failed
check: a 5xx, an answer that does not match the document (status, body schema, content
type, headers), invalid input that is accepted, valid input that is refused other than as
"not found", a rule violation, a stale version or a seat the game does not have; and on
any error of the run itself.  Counting the requests that reached the app
proves the run was not empty, and that the run's token was never refused.

It runs only on PostgreSQL (``CAPUA_TEST_DATABASES`` with ``postgresql``, as ``.ci/run``
sets it): that is where column widths and text rules are strictest.  The figures of a
measured run are in ``bench/RESULTS.md`` ("Fuzzing").
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from schemathesis import GenerationMode
from schemathesis.engine import events, from_schema
from schemathesis.hooks import GLOBAL_HOOK_DISPATCHER

from service.identity import auth
from service.play import absence
from service.plumbing import database

#: Requests the run must send at least (the issue's bar for the CI fuzz run).
MIN_REQUESTS = 3_000
SEED = 20261126
#: Answers a request that fits the document may get: the document cannot know which ids
#: exist, which commands the rules allow now, or which version the game is at.
VALID_INPUT_STATUSES = ["2xx", "304", "401", "403", "404", "409", "412"]
#: 422 codes that judge a value by the game it names or the rest of the body (its type's seat
#: counts, the seats of the game addressed, which seats are bots, which presets its type
#: has): like an id that does not exist, no document can know them.
GAME_DEPENDENT_REFUSALS = {"invalid_seat", "invalid_seats", "invalid_recipients", "invalid_bot_level",
                           "invalid_preset"}


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    """The shared settings, with a rate limit the run never reaches."""
    return {**config_overrides, "rate_limit": "1000000 per minute"}


@dataclass
class CountingApp:
    """WSGI middleware that counts what reached the app, per status."""

    app: Any
    #: the run's own ``Authorization`` header
    authorization: str
    statuses: Counter = field(default_factory=Counter)
    #: 401 answers to requests that carried the run's own token
    refused_own_token: int = 0

    def __call__(self, environ: dict, start_response: Any) -> Any:
        def counting_start_response(status: str, headers: list, exc_info: Any = None) -> Any:
            code = int(status.split(" ", 1)[0])
            self.statuses[code] += 1
            if code == 401 and environ.get("HTTP_AUTHORIZATION") == self.authorization:
                self.refused_own_token += 1
            return start_response(status, headers, exc_info)

        return self.app(environ, counting_start_response)


def _fuzz_config(token: str) -> Any:
    return schemathesis.Config.from_dict({
        "seed": SEED,
        "workers": 1,
        "cache": {"enabled": False},  # no replay of an earlier run's requests, no files left behind
        "headers": {"Authorization": f"Bearer {token}"},
        "generation": {"mode": "all", "max-examples": 8, "deterministic": True, "database": "none",
                       "no-shrink": True,
                       # the API refuses NUL in any text (400/422 invalid_text, as its description says);
                       # tests/api/test_fuzz.py sends NULs everywhere
                       "allow-x00": False},
        # generated input only: values taken from earlier answers were put into request bodies
        # as whole unknown fields (an error answer's "error"), which no client would send
        "phases": {"stateful": {"max-steps": 30, "generation": {"max-examples": 25}},
                   **{phase: {"extra-data-sources": {"responses": False}}
                      for phase in ("examples", "coverage", "fuzzing")}},
        "checks": {
            "positive_data_acceptance": {"enabled": True, "expected-statuses": VALID_INPUT_STATUSES},
            # schemathesis 4.32 sends this check's unauthenticated probe through its WSGI
            # transport with an argument werkzeug does not take; tests/api covers 401s
            "ignored_auth": {"enabled": False},
        },
        # a game's own notification settings are set by PATCH whether or not they were set
        # before (DELETE returns the game to the account's settings): no resource to outlive
        "operations": [{"include-path": "/api/v1/me/notifications/games/{game_id}",
                        "checks": {"use_after_free": {"enabled": False}}}],
    })


@pytest.fixture
def before_each_call() -> Any:
    """Functions ``(case)`` run on every case just before it is sent (schemathesis's
    ``before_call`` hook, which exists only globally: registered for the test, removed after)."""
    functions: list = []

    def before_call(context: Any, case: Any, kwargs: dict) -> None:
        for function in functions:
            function(case)

    schemathesis.hook(before_call)
    yield functions
    GLOBAL_HOOK_DISPATCHER.unregister(before_call)


def _header_patterns(document: dict) -> dict[str, str]:
    """Header name -> its documented pattern (the same for every operation that reads it)."""
    return {parameter["name"]: parameter["schema"]["pattern"]
            for item in document["paths"].values() for operation in item.values() if isinstance(operation, dict)
            for parameter in operation.get("parameters", [])
            if parameter.get("in") == "header" and "pattern" in parameter.get("schema", {})}


def _plausible_valid_case(header_patterns: dict[str, str]) -> Any:
    """What a valid request must hold beyond what a JSON schema can say, put into the valid
    (positive) cases; invalid cases are sent as generated.  The document states each rule
    in words.

    * A client sends a new ``Idempotency-Key`` per intended change; generated keys repeat
      (``"0"``), and the server rightly refuses a key reused for another request.
    * Rules that compare two fields, or a field with today or with what is stored
      (:data:`SHAPERS`).
    * A header whose generated value does not fit its pattern is left out: schemathesis 4.32's
      coverage phase sends some (``If-Match: 0``) as valid.
    """
    numbers = itertools.count(1)

    def shape(case: Any) -> None:
        if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
            return
        for name, pattern in header_patterns.items():
            if case.headers and name in case.headers and not re.search(pattern, str(case.headers[name])):
                del case.headers[name]
        if case.headers and "Idempotency-Key" in case.headers:
            case.headers["Idempotency-Key"] = f"fuzz-{next(numbers)}"
        shaper = SHAPERS.get(case.operation.label)
        if shaper is not None and isinstance(case.body, dict):
            shaper(case.body)
        if case.headers and "If-Match" in case.headers and isinstance(case.body, dict):
            case.body.pop("expected_version", None)  # one of the two, or they must agree

    return shape


def _vacation_from_today(body: dict) -> None:
    """A vacation ends today or later, not before it starts, and lasts at most a year: keep
    the generated length within the limit and start it tomorrow or later."""
    try:
        start, end = dt.date.fromisoformat(body["starts_on"]), dt.date.fromisoformat(body["ends_on"])
    except (KeyError, TypeError, ValueError):
        return
    days = abs((end - start).days) % absence.MAX_VACATION_DAYS
    tomorrow = dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=1)  # today or later in every zone
    start = max(start, tomorrow)
    body["starts_on"], body["ends_on"] = start.isoformat(), (start + dt.timedelta(days=days)).isoformat()


def _quiet_hours_paired(body: dict) -> None:
    """Quiet hours are two different hours or none (the stored one counts for a missing one)."""
    if "quiet_start" in body or "quiet_end" in body:
        start, end = body.get("quiet_start"), body.get("quiet_end")
        if start is None or end is None or start == end:
            body["quiet_start"] = body["quiet_end"] = None


def _consistent_new_game(body: dict) -> None:
    """Options belong to the game type (its ``options_schema``); ``clock.hours`` equals
    ``clock_hours`` when both are given, and ``clock.window_hours`` is at most it; the keys
    of ``bot_levels`` are seat numbers."""
    body["options"] = {}
    clock = body.get("clock")
    if isinstance(clock, dict):
        if body.get("clock_hours") is not None:
            clock["hours"] = body["clock_hours"]
        hours = clock.get("hours", body.get("clock_hours") or 24)
        if isinstance(clock.get("window_hours"), int) and clock["window_hours"] > hours:
            clock["window_hours"] = hours
    if isinstance(body.get("bot_levels"), dict):
        # seat numbers, as the document's propertyNames say (the coverage phase ignores them)
        body["bot_levels"] = {k: v for k, v in body["bot_levels"].items() if re.fullmatch(r"[0-9]{1,2}", str(k))}


def _game_or_type(body: dict) -> None:
    """A standing order for one game takes the game's type; ``game_type`` is for all games."""
    if body.get("game_id") is not None:
        body["game_type"] = None


SHAPERS = {
    "POST /api/v1/standing-orders": _game_or_type,
    "POST /api/v1/me/vacation/periods": _vacation_from_today,
    "PATCH /api/v1/me/notifications": _quiet_hours_paired,
    "POST /api/v1/games": _consistent_new_game,
}


def _keep_own_token(token_id: int) -> Any:
    """The run's own token is never revoked, or every later request would be a 401: a
    DELETE aimed at it is aimed at an id that does not exist (a 404) instead."""

    def spare(case: Any) -> None:
        if case.operation.label == "DELETE /api/v1/tokens/{token_id}" \
                and str(case.path_parameters.get("token_id")) == str(token_id):
            case.path_parameters["token_id"] = token_id + 1_000_000

    return spare


def _game_dependent_refusal(recorder: Any, case_id: str, check: Any) -> bool:
    if check.name != "positive_data_acceptance":
        return False
    response = recorder.find_response(case_id=case_id)
    try:
        code = json.loads(response.content)["error"]["code"]
    except (AttributeError, TypeError, ValueError, KeyError):
        return False
    return response.status_code == 422 and code in GAME_DEPENDENT_REFUSALS


def _describe(recorder: Any, case_id: str, check: Any) -> str:
    case = recorder.cases[case_id].value
    response = recorder.find_response(case_id=case_id)
    answer = f"{response.status_code} {response.content[:300]!r}" if response is not None else "no response"
    headers = {k: v for k, v in (case.headers or {}).items() if k != "Authorization"}
    return (f"{check.name} on {case.method} {case.formatted_path} query={case.query} headers={headers!r:.200} "
            f"body={case.body!r:.300}: "
            f"{answer}\n{str(check.failure_info.failure)[:500] if check.failure_info else ''}")


def test_openapi_fuzz(app, database_url, before_each_call):
    if not database_url.startswith("postgresql"):
        pytest.skip("the fuzz run is made against PostgreSQL (CAPUA_TEST_DATABASES=...,postgresql)")
    with database.sessions(app)() as s:
        user = auth.get_or_create_user(s, "fuzz@example.org")
        token, raw = auth.create_api_token(s, user, "fuzz")
        s.commit()
        token_id = token.id
    counting = CountingApp(app.wsgi_app, authorization=f"Bearer {raw}")
    app.wsgi_app = counting
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=_fuzz_config(raw))
    before_each_call.extend([_plausible_valid_case(_header_patterns(schema.raw_schema)), _keep_own_token(token_id)])

    failures: list[str] = []
    errors: list[str] = []
    stop_reason = None
    started = time.monotonic()
    operations: set[str] = set()
    transitions = 0
    phases: dict[str, str] = {}
    phase_start = (0, 0.0)
    for event in from_schema(schema).execute():
        if isinstance(event, events.PhaseStarted):
            phase_start = (sum(counting.statuses.values()), event.timestamp)
            if isinstance(event.payload, events.StatefulPhasePayload):
                transitions = event.payload.transitions_selected
        elif isinstance(event, events.PhaseFinished) and event.status.name != "SKIP":
            sent = sum(counting.statuses.values()) - phase_start[0]
            phases[event.phase.name.value] = f"{sent} in {event.timestamp - phase_start[1]:.0f} s"
        if isinstance(event, events.ScenarioFinished):
            operations.add(event.recorder.label)
            for case_id, checks in event.recorder.checks.items():
                failures.extend(_describe(event.recorder, case_id, check) for check in checks
                                if check.status.name == "FAILURE"
                                and not _game_dependent_refusal(event.recorder, case_id, check))
        elif isinstance(event, (events.NonFatalError, events.FatalError)):
            errors.append(repr(getattr(event, "value", None) or getattr(event, "exception", None)))
        elif isinstance(event, events.EngineFinished):
            stop_reason = event.stop_reason
    elapsed = time.monotonic() - started
    requests = sum(counting.statuses.values())
    server_errors = sum(n for status, n in counting.statuses.items() if status >= 500)
    stateful = "Stateful tests" in operations
    operations.discard("Stateful tests")
    print(f"fuzz: {requests} requests, {len(operations)} operations, stateful suite run: {stateful} "
          f"({transitions} links), "
          f"{elapsed:.0f} s, {server_errors} 5xx, statuses {dict(sorted(counting.statuses.items()))}, "
          f"per phase {phases}")

    assert not errors, "\n".join(errors[:20])
    assert stop_reason is not None and stop_reason.value == "completed", stop_reason
    assert server_errors == 0, dict(counting.statuses)
    assert not failures, f"{len(failures)} failed checks:\n" + "\n\n".join(dict.fromkeys(failures))
    assert requests >= MIN_REQUESTS, requests
    assert counting.refused_own_token == 0, "the run's token stopped working: the run was refused with 401"
    documented = sum(1 for item in schema.raw_schema["paths"].values() for method in item
                     if method in {"get", "put", "post", "patch", "delete"})
    assert len(operations) == documented, sorted(operations)
    assert stateful and transitions > 0, "the stateful phase did not run"
