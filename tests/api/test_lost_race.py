"""Two commands decided against the same version: one wins, the other loses its race and
leaves nothing behind.

On PostgreSQL a command's writes all travel with its COMMIT, nothing of them answered
before it: the loser's version ``UPDATE`` moves no row (it waited for the winner's
commit), and its events' INSERT breaks the unique ``(game_id, seq)``, so the server
never runs its COMMIT (:func:`service.play.store.append`).  These tests hold that to
what the API answers and what the database keeps, and check what that refusal rests on:
a game's version is always the seq of its last event.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from service.play import meta_events, store
from service.plumbing import database
from service.plumbing.db import Game, IdempotencyKey, OpenDecision, StoredEvent
from service.plumbing.errors import LostRace
from tests.api.players import blocking, create_game, take_turn
from tests.api.support import assert_error
from tests.api.test_command_deadlines import handed, opened_at  # noqa: F401 (handed: a fixture)
from tests.api.test_games import _race, _racing_reads


@pytest.fixture
def duel(ann):
    """A running 2-seat PAX game: Ann at seat 0 against a bot; Ann owes her start card."""
    return create_game(ann, game_type="pax", seats=2, bot_seats=[1])


@pytest.fixture
def racing(app) -> None:
    """PostgreSQL only: on SQLite the first request's idempotency claim takes the database's
    write lock, so the second reads the game only once the first has committed, and is
    refused as stale (412) before it could race (without keys:
    ``tests/api/test_games.py``)."""
    if database.engine(app).dialect.name != "postgresql":
        pytest.skip("commands with keys do not race on SQLite: the first claim's write lock orders them")


def _refusals_by_the_events(monkeypatch) -> list:
    """The games whose events' INSERT refused a lost race (:func:`service.play.store.append`)."""
    refused: list = []
    real = store._events_lost

    def events_lost(game_id, expected_version, error):
        made = real(game_id, expected_version, error)
        if isinstance(made, LostRace):
            refused.append(game_id)
        return made

    monkeypatch.setattr(store, "_events_lost", events_lost)
    return refused


def _rows(app, model, game_id: str, *columns) -> list[tuple]:
    with database.sessions(app)() as s:
        return [tuple(row) for row in s.execute(select(*columns).where(model.game_id == game_id))]


def test_of_two_commands_on_one_version_the_loser_leaves_nothing(app, racing, ann, duel, count_rows, handed,
                                                                  monkeypatch):
    listing = ann.get(f"games/{duel['id']}/decisions").get_json()
    version, decision = listing["version"], blocking(listing["decisions"])[0]
    options = decision["options"][:2]
    assert len(options) == 2, "two different answers tell the winner's events from the loser's"
    bodies = [{"type": o["type"], "args": o["args"], "expected_version": version} for o in options]
    keys_before = count_rows(IdempotencyKey)
    handed.deadlines.clear()
    refused = _refusals_by_the_events(monkeypatch)
    _racing_reads(monkeypatch, 2)
    answers = _race(app, ann.token, f"/api/v1/games/{duel['id']}/commands",
                             [(body, {"Idempotency-Key": f"racer-{i}"}) for i, body in enumerate(bodies)])
    monkeypatch.undo()
    assert refused == [duel["id"]], "the server refused the loser's events, with its COMMIT"

    assert sorted(a.status_code for a in answers) == [200, 409], [a.get_json() for a in answers]
    won = next(i for i, a in enumerate(answers) if a.status_code == 200)
    winner, loser = answers[won], answers[1 - won]
    error = assert_error(loser, 409, "lost_race")
    assert error["message"] == "someone else changed this game first; reload it and try again"
    assert error["details"] == {"game_id": duel["id"], "expected_version": version}

    # The game holds exactly the winner's change: its events, its open decisions.
    answer = winner.get_json()
    events = ann.get(f"games/{duel['id']}/events?after={version}&limit=1000").get_json()
    assert events["version"] == answer["version"]
    assert events["events"] == answer["events"]
    first = answer["events"][0]["data"]  # (the player's own move, as they see it)
    assert {name: first.get(name) for name in bodies[won]["args"]} == bodies[won]["args"] != bodies[1 - won]["args"]
    assert ann.get(f"games/{duel['id']}/decisions").get_json() == {
        "version": answer["version"], "decisions": answer["decisions"]}
    seqs = [seq for (seq,) in _rows(app, StoredEvent, duel["id"], StoredEvent.seq)]
    assert sorted(seqs) == list(range(1, answer["version"] + 1))
    stored = _rows(app, OpenDecision, duel["id"], OpenDecision.decision_id, OpenDecision.seat, OpenDecision.version,
                   OpenDecision.deadline_at)
    assert {(d, s, v) for d, s, v, _at in stored} == {(d["id"], 0, answer["version"]) for d in answer["decisions"]}
    deadlines = {d["id"]: d["deadline_at"] for d in answer["decisions"]}
    assert {d: at is not None for d, _s, _v, at in stored} == {d: at is not None for d, at in deadlines.items()}
    assert sorted(handed.deadlines) == sorted(opened_at(app, duel["id"], answer["version"])), \
        "the worker hears of the winner's deadlines only"

    # Only the winner's key was kept: the loser's, sent again, runs again (and is now stale).
    assert count_rows(IdempotencyKey) == keys_before + 1
    again = ann.post(f"games/{duel['id']}/commands", json=bodies[1 - won],
                     headers={"Idempotency-Key": f"racer-{1 - won}"})
    assert_error(again, 412, "stale_version")
    replay = ann.post(f"games/{duel['id']}/commands", json=bodies[won], headers={"Idempotency-Key": f"racer-{won}"})
    assert replay.status_code == 200 and replay.get_json() == answer

    # The connections that carried the lost race serve the next commands as ever.
    rng = random.Random(3)
    for _turn in range(4):
        if not take_turn(ann, duel["id"], rng):
            break


def test_a_lost_race_on_a_command_that_ends_the_game_leaves_nothing(app, racing, ann, monkeypatch):
    """The arena duel's one command ends the game: no decision is left open, so no upsert
    follows the events, and the race is still told apart by them."""
    arena = create_game(ann, game_type="spartacus_arena", seats=2, bot_seats=[1])
    listing = ann.get(f"games/{arena['id']}/decisions").get_json()
    decision = blocking(listing["decisions"])[0]
    body = {**(decision["default"] if "options" not in decision else
               {"type": decision["options"][0]["type"], "args": decision["options"][0]["args"]}),
            "expected_version": listing["version"]}
    refused = _refusals_by_the_events(monkeypatch)
    _racing_reads(monkeypatch, 2)
    answers = _race(app, ann.token, f"/api/v1/games/{arena['id']}/commands",
                             [(body, {"Idempotency-Key": "arena-a"}), (body, {"Idempotency-Key": "arena-b"})])
    monkeypatch.undo()
    assert refused == [arena["id"]]
    assert sorted(a.status_code for a in answers) == [200, 409], [a.get_json() for a in answers]
    winner = next(a for a in answers if a.status_code == 200).get_json()
    assert_error(next(a for a in answers if a.status_code == 409), 409, "lost_race")
    seqs = [seq for (seq,) in _rows(app, StoredEvent, arena["id"], StoredEvent.seq)]
    assert sorted(seqs) == list(range(1, winner["version"] + 1))
    assert ann.get(f"games/{arena['id']}").get_json()["version"] == winner["version"]


def test_a_games_version_is_the_seq_of_its_last_event(app, ann, bob):
    """What the refusal of a lost race rests on: the version moves only with events, the
    first of them at the old version plus one: for games created with events (the bots'
    opening moves), commands, and the service's own events (a pause, a resume, an
    extension of the deadlines)."""
    games = [create_game(ann, game_type=game_type, seats=seats, bot_seats=list(range(1, seats)))
             for game_type, seats in (("pax", 2), ("rom", 2), ("spartacus_arena", 2))]
    waiting = create_game(ann, game_type="pax", seats=2, invites=["bob@example.org"])
    assert bob.post(f"games/{waiting['id']}/join", json={}, idempotent=True).status_code == 200
    games.append(waiting)
    rng = random.Random(11)
    for game in games[:2]:
        take_turn(ann, game["id"], rng)
    assert ann.post(f"games/{games[0]['id']}/pause", json={"reason": "tea"}, idempotent=True).status_code == 200
    assert ann.post(f"games/{games[0]['id']}/resume", idempotent=True).status_code == 200
    assert ann.post(f"games/{games[0]['id']}/deadlines/extend", json={"hours": 2},
                    idempotent=True).status_code == 200
    take_turn(ann, games[0]["id"], rng)
    with database.sessions(app)() as s:
        # (seqs are unique per game: as many as the last one means 1, 2, ... without a gap)
        last = {game_id: (count, highest) for game_id, count, highest in s.execute(
            select(StoredEvent.game_id, func.count(), func.max(StoredEvent.seq)).group_by(StoredEvent.game_id))}
        versions = dict(s.execute(select(Game.id, Game.version)).all())
        kinds = set(s.scalars(select(StoredEvent.type).where(StoredEvent.game_id == games[0]["id"])))
    assert {meta_events.GAME_PAUSED, meta_events.GAME_RESUMED, meta_events.DEADLINE_EXTENDED} <= kinds, kinds
    assert versions and all(version > 0 for version in versions.values()), versions
    assert {game_id: (version, version) for game_id, version in versions.items()} == \
        {game_id: last.get(game_id, (0, 0)) for game_id in versions}
