"""The game endpoints: create, list, read (ETag), join, decisions, commands, events, states."""

from __future__ import annotations

import threading
import time

import pytest

from service.play import store
from tests.api.players import blocking, create_game
from tests.api.support import assert_error


@pytest.fixture
def duel(ann):
    """A running 2-seat PAX game: Ann at seat 0 against a bot; Ann owes her start card."""
    return create_game(ann, game_type="pax", seats=2, bot_seats=[1])


def _my_decision(client, game_id):
    body = client.get(f"games/{game_id}/decisions").get_json()
    return body["version"], blocking(body["decisions"])[0]


def _answer(decision):
    option = decision["options"][0]
    return {"type": option["type"], "args": option["args"]}


def test_game_types_are_public(anonymous):
    response = anonymous.get("games/types")
    assert response.status_code == 200
    (pax,) = [t for t in response.get_json()["game_types"] if t["name"] == "pax"]
    assert pax["seat_counts"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert pax["options_schema"]["type"] == "object"


def test_create_game_answers_the_game_with_location_and_etag(ann, duel):
    assert duel["status"] == "running" and duel["my_seat"] == 0
    assert duel["board"]["me"]["seat"] == 0
    response = ann.get(f"games/{duel['id']}")
    assert response.headers["ETag"] == f'"{duel["version"]}"'
    assert response.get_json()["id"] == duel["id"]


def test_create_answers_location(ann):
    response = ann.post("games", json={"game_type": "pax", "seats": 2, "invites": ["bob@example.org"]})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"].endswith(f"/api/v1/games/{body['id']}")
    assert body["status"] == "open"
    assert body["seats"][1]["invited"] is True and body["seats"][1]["invited_email"] == "bob@example.org"


@pytest.mark.parametrize("body", [
    {"game_type": "chess", "seats": 2},
    {"game_type": "pax", "seats": 0},
    {"game_type": "pax", "seats": 9},
    {"game_type": "pax", "seats": 10**30},
    {"game_type": "pax", "seats": -2},
    {"game_type": "pax", "seats": "2"},
    {"game_type": "pax", "seats": 2.0},
    {"game_type": "pax", "seats": True},
    {"game_type": "pax", "seats": None},
    {"game_type": "pax"},
    {"seats": 2},
    {"game_type": "pax", "seats": 2, "bot_seats": [1, 1]},
    {"game_type": "pax", "seats": 2, "bot_seats": [-1]},
    {"game_type": "pax", "seats": 2, "bot_seats": [0]},
    {"game_type": "pax", "seats": 2, "bot_seats": "1"},
    {"game_type": "pax", "seats": 2, "my_seat": 5},
    {"game_type": "pax", "seats": 2, "invites": ["not-an-address"]},
    {"game_type": "pax", "seats": 2, "invites": ["ann@example.org"]},
    {"game_type": "pax", "seats": 2, "invites": ["a@example.org", "b@example.org"]},
    {"game_type": "pax", "seats": 2, "options": {"solo_level": 9}},
    {"game_type": "pax", "seats": 2, "options": {"card_set": "../../../../etc/passwd"}},
    {"game_type": "pax", "seats": 2, "options": {"card_set": "/etc/passwd"}},
    {"game_type": "pax", "seats": 2, "options": {"card_set": "nope\u0000"}},
    {"game_type": "pax", "seats": 2, "options": {"colour": "purple"}},
    {"game_type": "pax", "seats": 2, "options": []},
    {"game_type": "pax", "seats": 2, "clock_hours": 0},
    {"game_type": "pax", "seats": 2, "clock_hours": 10**6},
    {"game_type": "pax", "seats": 2, "title": "x" * 500},
    {"game_type": "pax", "seats": 2, "owner": "me"},
])
def test_create_game_refusals_change_nothing(ann, body, count_rows):
    from service.plumbing.db import Game

    before = count_rows(Game)
    response = ann.post("games", json=body, idempotent=True)
    assert_error(response, 422)
    assert count_rows(Game) == before


def test_my_games_list_games_awaiting_me_first(ann, duel):
    waiting = create_game(ann, game_type="pax", seats=2, invites=["bob@example.org"])
    games = ann.get("games").get_json()["games"]
    assert [g["id"] for g in games] == [duel["id"], waiting["id"]]
    assert games[0]["my_open_decisions"] >= 1 and games[1]["my_open_decisions"] == 0


def test_if_none_match_gives_304_until_the_game_moves(ann, duel):
    url = f"games/{duel['id']}"
    etag = ann.get(url).headers["ETag"]
    not_modified = ann.get(url, headers={"If-None-Match": etag})
    assert not_modified.status_code == 304 and not_modified.get_data() == b""
    assert not_modified.headers["ETag"] == etag
    assert ann.get(url, headers={"If-None-Match": f"W/{etag}"}).status_code == 304
    assert ann.get(url, headers={"If-None-Match": '"0", ' + etag}).status_code == 304
    assert ann.get(url, headers={"If-None-Match": "*"}).status_code == 304
    assert ann.get(url, headers={"If-None-Match": "garbage"}).status_code == 200

    version, decision = _my_decision(ann, duel["id"])
    assert ann.post(f"{url}/commands", json={**_answer(decision), "expected_version": version}).status_code == 200
    moved = ann.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_spectators_see_the_public_view_and_cannot_play(ann, bob, duel):
    view = bob.get(f"games/{duel['id']}")
    assert view.status_code == 200
    body = view.get_json()
    assert body["my_seat"] is None and body["board"]["me"] is None
    assert bob.get(f"games/{duel['id']}/decisions").get_json()["decisions"] == []
    assert bob.get(f"games/{duel['id']}/events").status_code == 200
    version, decision = _my_decision(ann, duel["id"])
    assert_error(bob.post(f"games/{duel['id']}/commands", json={**_answer(decision), "expected_version": version}),
                 403, "not_seated")


@pytest.mark.parametrize("game_id", ["doesnotexist", "a" * 32, "a" * 33, "..%2F..%2Fetc%2Fpasswd", "..", "%00",
                                     "%C3%A9t%C3%A9", "1%20OR%201%3D1", "%2e%2e", "games", "%F0%9F%8E%B2"])
def test_unknown_and_odd_game_ids_are_404(ann, game_id):
    for method, suffix in [("GET", ""), ("GET", "/decisions"), ("GET", "/events"), ("GET", "/states/0"),
                           ("POST", "/join"), ("POST", "/commands")]:
        response = ann.request(method, f"games/{game_id}{suffix}",
                               json={"type": "x", "args": {}} if suffix == "/commands" else None)
        assert response.status_code in (404, 405), (method, suffix, response.status_code)
        assert_error(response, response.status_code)


def test_join_fills_the_last_seat_and_starts_the_game(ann, bob, make_client):
    game = create_game(ann, game_type="pax", seats=2)
    assert game["status"] == "open" and game["seats"][1]["open"] is True
    joined = bob.post(f"games/{game['id']}/join", idempotent=True)
    assert joined.status_code == 200
    body = joined.get_json()
    assert body["my_seat"] == 1 and body["status"] == "running"
    assert joined.headers["ETag"] == f'"{body["version"]}"'
    assert_error(bob.post(f"games/{game['id']}/join"), 409)
    assert_error(make_client("cat").post(f"games/{game['id']}/join"), 409, "game_started")


def test_joining_twice_is_409(ann, bob):
    game = create_game(ann, game_type="pax", seats=3)
    assert bob.post(f"games/{game['id']}/join").status_code == 200
    assert_error(bob.post(f"games/{game['id']}/join"), 409, "already_seated")


def test_join_takes_a_named_seat_or_refuses_it(ann, bob):
    game = create_game(ann, game_type="pax", seats=3, bot_seats=[2])
    assert_error(bob.post(f"games/{game['id']}/join", json={"seat": 0}), 409, "seat_taken")
    assert_error(bob.post(f"games/{game['id']}/join", json={"seat": "1"}), 422, "invalid_input")
    assert_error(bob.post(f"games/{game['id']}/join", json={"seat": 7}), 422)
    assert bob.post(f"games/{game['id']}/join", json={"seat": 1}).get_json()["my_seat"] == 1


def test_decisions_list_options_default_deadline_and_version(ann, duel):
    body = ann.get(f"games/{duel['id']}/decisions").get_json()
    assert body["version"] == duel["version"]
    (decision,) = body["decisions"]
    assert decision["seat"] == 0 and decision["mode"] in {"turn", "simultaneous", "interrupt"}
    assert decision["options"] and decision["default"] in decision["options"]
    assert decision["deadline_at"] and decision["version"] == duel["version"]


def test_command_answers_version_events_and_next_decisions(ann, duel, event_count):
    version, decision = _my_decision(ann, duel["id"])
    before = event_count()
    response = ann.post(f"games/{duel['id']}/commands", json={**_answer(decision), "expected_version": version},
                        idempotent=True)
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] == version + (event_count() - before)
    assert response.headers["ETag"] == f'"{body["version"]}"'
    assert body["events"] and all(version < e["seq"] <= body["version"] for e in body["events"])
    assert body["decisions"] == ann.get(f"games/{duel['id']}/decisions").get_json()["decisions"]


def test_if_match_works_like_expected_version(ann, duel):
    version, decision = _my_decision(ann, duel["id"])
    response = ann.post(f"games/{duel['id']}/commands", json=_answer(decision), headers={"If-Match": f'"{version}"'})
    assert response.status_code == 200


def test_stale_versions_are_412_and_change_nothing(ann, duel, event_count):
    version, decision = _my_decision(ann, duel["id"])
    url = f"games/{duel['id']}/commands"
    before = event_count()
    error = assert_error(ann.post(url, json={**_answer(decision), "expected_version": version - 1}), 412,
                         "stale_version")
    assert error["details"]["current_version"] == version
    assert_error(ann.post(url, json=_answer(decision), headers={"If-Match": f'"{version + 5}"'}), 412)
    assert event_count() == before


@pytest.mark.parametrize("if_match,body_version,code", [
    ("garbage", None, "invalid_if_match"),
    ('"1", "2"', None, "invalid_if_match"),
    ('"-3"', None, "invalid_if_match"),
    ('"' + "9" * 40 + '"', None, "invalid_if_match"),
    ('"4"', 5, "conflicting_versions"),
])
def test_malformed_if_match_is_422(ann, duel, if_match, body_version, code, event_count):
    _version, decision = _my_decision(ann, duel["id"])
    before = event_count()
    response = ann.post(f"games/{duel['id']}/commands", json={**_answer(decision), "expected_version": body_version},
                        headers={"If-Match": if_match})
    assert_error(response, 422, code)
    assert event_count() == before


@pytest.mark.parametrize("command", [
    {"type": "no_such_command", "args": {}},
    {"type": "keep_card", "args": {"card": "NOPE"}},
    {"type": "keep_card", "args": {"card": 12}},
    {"type": "keep_card", "args": {"card": "S01", "extra": True}},
    {"type": "keep_card", "args": "S01"},
    {"type": "keep_card", "args": None},
    {"type": "keep_card", "args": {}, "expected_version": -1},
    {"type": "keep_card", "args": {}, "expected_version": 2**70},
    {"type": "keep_card", "args": {}, "expected_version": 1.0},
    {"type": "keep_card", "args": {}, "expected_version": "1"},
    {"type": "keep_card", "args": {}, "seat": -1},
    {"type": "keep_card", "args": {}, "seat": 1},
    {"type": "", "args": {}},
    {"type": "x" * 1000, "args": {}},
    {"type": ["keep_card"], "args": {}},
    {"args": {}},
    {"type": "keep_card", "args": {}, "unknown": 1},
    {"type": "keep_card", "args": {"\ud800": 1}},
])
def test_refused_commands_are_4xx_and_change_nothing(ann, duel, command, event_count):
    before = event_count()
    response = ann.post(f"games/{duel['id']}/commands", json=command, idempotent=True)
    assert 400 <= response.status_code < 500, response.get_json()
    assert_error(response, response.status_code)
    assert event_count() == before


def test_retried_command_replays_and_changes_nothing_once(ann, duel, event_count):
    version, decision = _my_decision(ann, duel["id"])
    request = {**_answer(decision), "expected_version": version}
    key = {"Idempotency-Key": "keep-start-card"}
    first = ann.post(f"games/{duel['id']}/commands", json=request, headers=key)
    after_first = event_count()
    again = ann.post(f"games/{duel['id']}/commands", json=request, headers=key)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]
    assert event_count() == after_first
    other = {**request, "expected_version": version + 1}
    assert_error(ann.post(f"games/{duel['id']}/commands", json=other, headers=key), 422, "idempotency_key_reused")
    assert event_count() == after_first


def _racing_reads(monkeypatch, parties: int):
    """Hold every racing request after it has read the game, until all have: so each
    decides against the same version and only the append can tell them apart."""
    barrier = threading.Barrier(parties, timeout=10)
    local = threading.local()
    real_load_state = store.load_state

    def load_state(*args, **kwargs):
        state = real_load_state(*args, **kwargs)
        if not getattr(local, "waited", False):
            local.waited = True
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass
        return state

    monkeypatch.setattr(store, "load_state", load_state)


def _race(app, token, url, bodies_and_headers):
    answers = [None] * len(bodies_and_headers)

    def send(i, body, headers):
        answers[i] = app.test_client().post(url, json=body, headers={"Authorization": f"Bearer {token}", **headers})

    threads = [threading.Thread(target=send, args=(i, b, h)) for i, (b, h) in enumerate(bodies_and_headers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


def test_concurrent_duplicate_commands_make_one_change(app, ann, duel, event_count, monkeypatch):
    """The duplicate arrives while the first is still inside its transaction: it waits
    for the first's commit on the claimed key, then replays the first's answer."""
    version, decision = _my_decision(ann, duel["id"])
    before = event_count()
    request = {**_answer(decision), "expected_version": version}
    headers = {"Authorization": f"Bearer {ann.token}", "Idempotency-Key": "double-click"}
    url = f"/api/v1/games/{duel['id']}/commands"
    inside = threading.Event()
    real_load_state = store.load_state

    def slow_load_state(*args, **kwargs):
        if not inside.is_set():
            inside.set()
            time.sleep(0.5)
        return real_load_state(*args, **kwargs)

    monkeypatch.setattr(store, "load_state", slow_load_state)
    answers = {}

    def send(label):
        answers[label] = app.test_client().post(url, json=request, headers=headers)

    first = threading.Thread(target=send, args=("first",))
    first.start()
    assert inside.wait(10)
    second = threading.Thread(target=send, args=("second",))
    second.start()
    first.join(30)
    second.join(30)
    a, b = answers["first"], answers["second"]
    assert a.status_code == b.status_code == 200, (a.get_json(), b.get_json())
    assert a.get_json() == b.get_json()
    assert b.headers.get("Idempotent-Replayed") == "true"
    assert event_count() - before == a.get_json()["version"] - version


def test_concurrent_commands_without_keys_one_wins_one_loses_the_race(app, ann, duel, event_count, monkeypatch):
    version, decision = _my_decision(ann, duel["id"])
    request = {**_answer(decision), "expected_version": version}
    _racing_reads(monkeypatch, 2)
    a, b = _race(app, ann.token, f"/api/v1/games/{duel['id']}/commands", [(request, {}), (request, {})])
    monkeypatch.undo()
    statuses = sorted([a.status_code, b.status_code])
    assert statuses == [200, 409], (a.get_json(), b.get_json())
    loser = a if a.status_code == 409 else b
    assert_error(loser, 409, "lost_race")
    winner = a if a.status_code == 200 else b
    assert ann.get(f"games/{duel['id']}").get_json()["version"] == winner.get_json()["version"]


@pytest.mark.parametrize("query", ["after=-1", "limit=0", "limit=100000", "limit=abc", "after=1.5",
                                   "after=99999999999999999999999999", "after="])
def test_bad_event_queries_are_422(ann, duel, query):
    assert_error(ann.get(f"games/{duel['id']}/events?{query}"), 422)


def test_events_page_by_seq(ann, duel):
    everything = ann.get(f"games/{duel['id']}/events?limit=1000").get_json()
    assert everything["version"] == duel["version"]
    first = ann.get(f"games/{duel['id']}/events?limit=2").get_json()["events"]
    rest = ann.get(f"games/{duel['id']}/events?after={first[-1]['seq']}&limit=1000").get_json()["events"]
    assert first + rest == everything["events"]


@pytest.mark.parametrize("seq", ["-1", "99999999999999999999999", "1.5", "abc"])
def test_odd_states_are_404(ann, duel, seq):
    assert_error(ann.get(f"games/{duel['id']}/states/{seq}"), 404)


def test_state_beyond_the_version_is_404(ann, duel):
    assert_error(ann.get(f"games/{duel['id']}/states/{duel['version'] + 1}"), 404, "no_such_version")
    assert ann.get(f"games/{duel['id']}/states/{duel['version']}").get_json()["board"] == duel["board"]
