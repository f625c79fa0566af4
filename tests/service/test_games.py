"""The game service: creating, joining, playing, deadlines and what each viewer may read."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import threading
import time

import pytest
from sqlalchemy import func, select

from engine.core.game import replay
from service.play import bots, games, store
from service.plumbing.db import Game, OpenDecision, Seat, Snapshot, StoredEvent, utcnow
from service.plumbing.errors import Conflict, Forbidden, InvalidInput, LostRace, NotFound, StaleVersion
from tests.service.fake_game import CountState, RULES


def count(session, model) -> int:
    return session.scalar(select(func.count()).select_from(model))


def new_game(session, config, creator, **kw) -> Game:
    kw.setdefault("game_type", "count")
    kw.setdefault("options", {"target": 1_000})
    kw.setdefault("seats", 2)
    return games.create_game(session, config, creator=creator, **kw)


def open_rows(session, game) -> dict[tuple[str, int], OpenDecision]:
    """The game's ``open_decisions`` rows as stored (a command writes them with one upsert,
    past the session's unit of work, so rows read before are read again)."""
    rows = session.scalars(select(OpenDecision).where(OpenDecision.game_id == game.id)
                           .execution_options(populate_existing=True)).all()
    return {(r.decision_id, r.seat): r for r in rows}


def state_of(session, game) -> CountState:
    return store.load_state(session, game)


def two_humans(session, config, make_user, **kw):
    ann, bob = make_user("ann"), make_user("bob")
    game = new_game(session, config, ann, invites=["bob@example.org"], **kw)
    games.join_game(session, config, game.id, bob)
    return game, ann, bob


# ---------------------------------------------------------------- creating


def test_a_game_with_every_seat_filled_starts_and_autoplays_chance_and_bots(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1], clock_hours=5)
    session.commit()

    assert game.status == "running"
    types = [r.event.type for r in store.load_events(session, game.id)]
    assert types == ["SecretsDealt", "DieRolled", "AmountChosen"]  # deal, roll, the bot's secret choice
    assert game.version == 3
    assert {r.actor_user_id for r in store.load_events(session, game.id)} == {None}
    state = state_of(session, game)
    assert state.choices[1] in (1, 2)  # never 3 in round one: refused, replaced by the default

    rows = open_rows(session, game)
    assert set(rows) == {("add:1:0", 0), ("wave:0", 0)}  # nothing for the bot seat
    add, wave = rows["add:1:0", 0], rows["wave:0", 0]
    assert (add.mode, add.user_id, add.version) == ("simultaneous", ann.id, 3)
    assert add.deadline_at - add.opened_at == dt.timedelta(hours=5)
    assert wave.mode == "free" and wave.deadline_at is None


def test_a_game_of_bots_only_plays_to_its_end_at_creation(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, creator_seat=None, bot_seats=[0, 1, 2], seats=3, options={"target": 40})
    session.commit()
    assert game.status == "finished"
    assert game.outcome["winners"] and len(game.outcome["ranking"]) == 3
    assert open_rows(session, game) == {}
    events = [r.event for r in store.load_events(session, game.id)]
    assert events[-1].type == "GameEnded"
    replayed = replay(RULES, RULES.initial_state(3, {"target": 40}), events)
    assert RULES.outcome(replayed).to_json() == game.outcome


def test_options_are_completed_with_the_schema_defaults_and_the_title_with_the_game_name(session, config, make_user):
    game = new_game(session, config, make_user("ann"), options={}, bot_seats=[1])
    assert game.options == {"target": 10}
    assert game.title == RULES.title
    assert len(game.id) >= 12 and game.rules_version == RULES.rules_version


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"game_type": "chess"}, "unknown_game_type", "game_type"),
        ({"options": ["target", 3]}, "invalid_options", "options"),
        ({"options": {"target": 0}}, "invalid_options", "options"),
        ({"options": {"target": "ten"}}, "invalid_options", "options"),
        ({"options": {"colour": "red"}}, "invalid_options", "options"),
        ({"seats": 5}, "invalid_seats", "seats"),
        ({"seats": "2"}, "invalid_seats", "seats"),
        ({"seats": True}, "invalid_seats", "seats"),
        ({"creator_seat": 2}, "invalid_seat", "creator_seat"),
        ({"bot_seats": [2]}, "invalid_seat", "bot_seats"),
        ({"bot_seats": [1, 1]}, "invalid_seat", "bot_seats"),
        ({"bot_seats": [0]}, "invalid_seat", "bot_seats"),
        ({"bot_seats": "1"}, "invalid_seat", "bot_seats"),
        ({"invites": ["not-an-address"]}, "invalid_invites", "invites"),
        ({"invites": ["bob@localhost"]}, "invalid_invites", "invites"),
        ({"invites": [42]}, "invalid_invites", "invites"),
        ({"invites": "bob@example.org"}, "invalid_invites", "invites"),
        ({"invites": ["ANN@example.org"]}, "invalid_invites", "invites"),
        ({"seats": 3, "invites": ["bob@example.org", " Bob@Example.org"]}, "invalid_invites", "invites"),
        ({"invites": ["bob@example.org", "carl@example.org"]}, "too_many_invites", "invites"),
        ({"bot_seats": [1], "invites": ["bob@example.org"]}, "too_many_invites", "invites"),
        ({"clock_hours": 0}, "invalid_clock", "clock_hours"),
        ({"clock_hours": 2.5}, "invalid_clock", "clock_hours"),
        ({"title": "x" * 121}, "invalid_title", "title"),
    ],
)
def test_invalid_requests_to_create_a_game_are_refused_and_change_nothing(session, config, make_user, change, code,
                                                                         field):
    ann = make_user("ann")
    with pytest.raises(InvalidInput) as err:
        new_game(session, config, ann, **change)
    assert (err.value.status, err.value.code, err.value.details["field"]) == (422, code, field)
    assert err.value.message
    assert (count(session, Game), count(session, Seat), count(session, StoredEvent)) == (0, 0, 0)


# ---------------------------------------------------------------- joining


def test_invited_and_open_seats_wait_and_the_last_join_starts_the_game(session, config, make_user):
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    game = new_game(session, config, ann, seats=3, invites=[" Bob@Example.ORG "])
    seats = session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat)).all()
    assert [(s.user_id, s.invited_email) for s in seats] == [(ann.id, None), (None, "bob@example.org"), (None, None)]
    assert (game.status, game.version, count(session, StoredEvent)) == ("open", 0, 0)

    carl_seat = games.join_game(session, config, game.id, carl)
    assert carl_seat.seat == 2  # the open seat, not the one reserved for bob
    assert game.status == "open"
    with pytest.raises(Conflict) as err:
        games.join_game(session, config, game.id, carl)
    assert err.value.code == "already_seated"

    bob_seat = games.join_game(session, config, game.id, bob)
    assert (bob_seat.seat, bob_seat.user_id) == (1, bob.id) and bob_seat.joined_at is not None
    session.commit()
    assert game.status == "running" and game.version == 2  # dealt and rolled
    assert {s for _, s in open_rows(session, game)} == {0, 1, 2}

    with pytest.raises(Conflict) as err:
        games.join_game(session, config, game.id, make_user("dora"))
    assert err.value.code == "game_started"


def test_join_refusals(session, config, make_user):
    ann, carl = make_user("ann"), make_user("carl")
    reserved = new_game(session, config, ann, invites=["bob@example.org"])
    with pytest.raises(Conflict) as err:
        games.join_game(session, config, reserved.id, carl)
    assert err.value.code == "game_full"
    with pytest.raises(Conflict) as err:
        games.join_game(session, config, reserved.id, carl, seat=1)
    assert err.value.code == "seat_reserved"
    with pytest.raises(Conflict) as err:
        games.join_game(session, config, reserved.id, carl, seat=0)
    assert err.value.code == "seat_taken"
    with pytest.raises(InvalidInput):
        games.join_game(session, config, reserved.id, carl, seat=7)
    with pytest.raises(NotFound):
        games.join_game(session, config, "no-such-game", carl)
    with pytest.raises(NotFound):
        games.join_game(session, config, "../../etc/passwd", carl)
    assert reserved.status == "open"


def test_an_invited_player_taking_another_seat_gives_the_invitation_up(session, config, make_user):
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    game = new_game(session, config, ann, seats=3, invites=["bob@example.org"])
    games.join_game(session, config, game.id, bob, seat=2)
    assert game.status == "open"
    assert games.join_game(session, config, game.id, carl).seat == 1
    assert game.status == "running"


def test_two_players_taking_the_last_two_seats_at_once_start_the_game_once(session_factory, session, config,
                                                                         make_user):
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    game_id = new_game(session, config, ann, seats=3).id
    session.commit()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def join(user_id: int) -> None:
        s = session_factory()
        try:
            user = s.get(type(ann), user_id)
            barrier.wait(timeout=10)
            games.join_game(s, config, game_id, user)
            time.sleep(0.2)  # hold the transaction open so the other join overlaps it
            s.commit()
        except BaseException as err:  # reported by the assertion below
            s.rollback()
            errors.append(err)
        finally:
            s.close()

    threads = [threading.Thread(target=join, args=(u.id,)) for u in (bob, carl)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    session.expire_all()
    game = session.get(Game, game_id)
    assert game.status == "running" and game.version == 2
    assert [r.event.type for r in store.load_events(session, game_id)] == ["SecretsDealt", "DieRolled"]


# ---------------------------------------------------------------- playing


def test_a_command_appends_its_events_and_the_autoplay_after_it(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1])
    before = open_rows(session, game)
    wave_opened = before["wave:0", 0].opened_at

    result = games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 2},
                                  expected_version=3)
    session.commit()
    assert result.version == game.version == 3 + len(result.events)
    assert [seq for seq, _ in result.events] == list(range(4, result.version + 1))
    assert [e.type for _, e in result.events] == ["AmountChosen", "RoundScored", "DieRolled", "AmountChosen"]
    assert result.outcome is None
    actors = [(r.event.type, r.actor_user_id) for r in store.load_events(session, game.id, after=3)]
    assert actors[:2] == [("AmountChosen", ann.id), ("RoundScored", ann.id)]
    assert {a for _, a in actors[2:]} == {None}

    rows = open_rows(session, game)
    assert set(rows) == {("add:2:0", 0), ("wave:0", 0)}
    assert rows["add:2:0", 0].version == result.version
    assert rows["wave:0", 0].opened_at == wave_opened  # still open: kept, not reopened
    assert rows["wave:0", 0].version == result.version


def test_playing_to_the_end_records_the_outcome_and_then_refuses_commands(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1], options={"target": 12})
    result = None
    for _ in range(20):
        result = games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 2},
                                      expected_version=game.version)
        if result.outcome:
            break
    assert result.outcome is not None and game.status == "finished" and game.outcome == result.outcome
    assert open_rows(session, game) == {}
    with pytest.raises(Conflict) as err:
        games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1}, expected_version=None)
    assert (err.value.status, err.value.code) == (409, "game_over")


def test_a_stale_expected_version_is_refused_with_412_and_changes_nothing(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1])
    with pytest.raises(StaleVersion) as err:
        games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1}, expected_version=2)
    assert err.value.status == 412
    assert err.value.details["current_version"] == 3
    assert game.version == 3 and count(session, StoredEvent) == 3


@pytest.mark.parametrize(
    ("command_type", "args", "error", "code"),
    [
        ("add", {"n": 3}, Conflict, "no_three_first"),  # the rules refuse it
        ("add", {"n": 7}, InvalidInput, "bad_arguments"),  # outside the decision's schema
        ("add", {}, InvalidInput, "bad_arguments"),
        ("add", [1], InvalidInput, "invalid_command"),  # args not an object
        ("add", "n=1", InvalidInput, "invalid_command"),
        ("", {}, InvalidInput, "invalid_command"),
        ("fly", {}, Conflict, "no_such_decision"),
        ("resolve_chance", {"id": "roll:2", "outcome": {"die": [6]}}, Conflict, "no_such_decision"),
    ],
)
def test_refused_commands_change_nothing(session, config, make_user, command_type, args, error, code):
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1])
    session.commit()
    with pytest.raises(error) as err:
        games.submit_command(session, config, game.id, ann, command_type=command_type, args=args,
                             expected_version=None)
    assert err.value.code == code
    session.rollback()
    assert session.get(Game, game.id).version == 3 and count(session, StoredEvent) == 3


def test_only_seated_players_act_and_only_from_their_own_seat(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    with pytest.raises(Forbidden) as err:
        games.submit_command(session, config, game.id, make_user("eve"), command_type="add", args={"n": 1},
                             expected_version=None)
    assert (err.value.status, err.value.code) == (403, "not_seated")
    with pytest.raises(Forbidden) as err:
        games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1}, expected_version=None,
                             seat=1)
    assert err.value.code == "not_your_seat"
    result = games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1},
                                  expected_version=None, seat=0)
    assert [e.type for _, e in result.events] == ["AmountChosen"]
    with pytest.raises(NotFound):
        games.submit_command(session, config, "nope", ann, command_type="add", args={"n": 1}, expected_version=None)


def test_commands_before_the_game_starts_are_refused(session, config, make_user):
    ann = make_user("ann")
    game = new_game(session, config, ann, invites=["bob@example.org"])
    with pytest.raises(Conflict) as err:
        games.submit_command(session, config, game.id, ann, command_type="wave", args={}, expected_version=None)
    assert err.value.code == "game_not_started"


def test_free_actions_never_get_a_deadline_and_never_block(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    result = games.submit_command(session, config, game.id, bob, command_type="wave", args={}, expected_version=None)
    assert [e.type for _, e in result.events] == ["Waved"]
    summary = games.game_summary(session, game, ann)
    assert summary["awaiting_seats"] == [0, 1]


def test_two_players_answering_at_once_one_wins_and_the_other_may_retry(session_factory, session, config, make_user):
    """A real race through the service: both decide against the same version; the
    second append waits for the first transaction, then finds the version moved."""
    game, ann, bob = two_humans(session, config, make_user)
    session.commit()
    first_flushed = threading.Event()
    outcome: dict[str, object] = {}

    def ann_plays() -> None:
        s = session_factory()
        try:
            games.submit_command(s, config, game.id, s.get(type(ann), ann.id), command_type="add", args={"n": 1},
                                 expected_version=None)
            # On PostgreSQL the append is held for the COMMIT (the first to commit wins):
            # the next statement sends it, and with it takes the game row's lock.
            s.scalar(select(Game.version).where(Game.id == game.id))
            first_flushed.set()
            time.sleep(0.3)  # bob's request runs into our uncommitted append meanwhile
            s.commit()
            outcome["ann"] = "committed"
        except BaseException as err:
            outcome["ann"] = err
            s.rollback()
        finally:
            first_flushed.set()
            s.close()

    def bob_plays() -> None:
        first_flushed.wait(timeout=10)
        s = session_factory()
        try:
            games.submit_command(s, config, game.id, s.get(type(bob), bob.id), command_type="add", args={"n": 2},
                                 expected_version=None)
            s.commit()
            outcome["bob"] = "committed"
        except LostRace as err:
            outcome["bob"] = err
            s.rollback()
        except BaseException as err:
            outcome["bob"] = err
            s.rollback()
        finally:
            s.close()

    threads = [threading.Thread(target=ann_plays), threading.Thread(target=bob_plays)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert outcome["ann"] == "committed"
    assert isinstance(outcome["bob"], LostRace), outcome
    assert outcome["bob"].status == 409

    session.expire_all()
    retried = games.submit_command(session, config, game.id, bob, command_type="add", args={"n": 2},
                                   expected_version=None)
    assert [e.type for _, e in retried.events][:2] == ["AmountChosen", "RoundScored"]


def test_snapshots_are_written_as_the_game_goes_and_match_a_replay(session, config, make_user):
    config = dataclasses.replace(config, snapshot_every=4)
    ann = make_user("ann")
    game = new_game(session, config, ann, bot_seats=[1])
    for _ in range(5):
        games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1},
                             expected_version=game.version)
    session.commit()
    assert count(session, Snapshot) >= 3
    from_scratch = replay(RULES, RULES.initial_state(2, game.options),
                          (r.event for r in store.load_events(session, game.id)))
    assert state_of(session, game) == from_scratch


# ---------------------------------------------------------------- deadlines


def test_a_simultaneous_decision_keeps_its_deadline_while_others_answer(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    bob_row = open_rows(session, game)["add:1:1", 1]
    opened, deadline = bob_row.opened_at, bob_row.deadline_at
    games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 2}, expected_version=None)
    bob_row = open_rows(session, game)["add:1:1", 1]
    assert (bob_row.opened_at, bob_row.deadline_at) == (opened, deadline)
    assert bob_row.version == game.version
    assert ("add:1:0", 0) not in open_rows(session, game)


def test_apply_default_answers_an_open_decision_with_its_default(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 2}, expected_version=None)
    row = open_rows(session, game)["add:1:1", 1]
    result = games.apply_default(session, config, game.id, row.decision_id, row.seat, row.version)
    assert result is not None
    chosen = next(e for _, e in result.events if e.type == "AmountChosen")
    assert dict(chosen.data) == {"seat": 1, "round": 1, "n": 1}
    last = store.load_events(session, game.id)[-len(result.events):]
    assert {r.actor_user_id for r in last} == {None}  # the server acted, not bob


def test_apply_default_is_a_no_op_once_the_moment_has_passed(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    row = open_rows(session, game)["add:1:1", 1]
    stale_version = row.version
    games.submit_command(session, config, game.id, bob, command_type="add", args={"n": 2}, expected_version=None)
    version = game.version

    assert games.apply_default(session, config, game.id, "add:1:1", 1, stale_version) is None  # game moved on
    assert games.apply_default(session, config, game.id, "add:1:1", 1, version) is None  # answered already
    assert games.apply_default(session, config, game.id, "add:9:0", 0, version) is None  # never existed
    assert games.apply_default(session, config, "gone-game", "add:1:0", 0, version) is None
    assert game.version == version and count(session, StoredEvent) == version


# ---------------------------------------------------------------- reading and hidden information


def _dump(value) -> str:
    return json.dumps(value, default=str, sort_keys=True)


def everything_readable(session, game, user) -> str:
    """Every read function's answer for ``user``, as one string to search."""
    out = [
        games.game_summary(session, game, user),
        games.game_view(session, game.id, user),
        games.decisions_for(session, game.id, user),
        games.visible_events(session, game.id, user, after=0, limit=1000),
    ]
    out += [games.view_at(session, game.id, user, seq) for seq in range(game.version + 1)]
    if user is not None:
        out.append(games.games_for_user(session, user))
    return _dump(out)


def test_no_reader_ever_sees_another_seats_secret(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user, seats=3, bot_seats=[2])
    games.submit_command(session, config, game.id, bob, command_type="add", args={"n": 2}, expected_version=None)
    state = state_of(session, game)
    tokens = [f"S{s}:{state.secrets[s]}" for s in range(3)]

    seen_by_ann = everything_readable(session, game, ann)
    assert tokens[0] in seen_by_ann and tokens[1] not in seen_by_ann and tokens[2] not in seen_by_ann
    seen_by_bob = everything_readable(session, game, bob)
    assert tokens[1] in seen_by_bob and tokens[0] not in seen_by_bob and tokens[2] not in seen_by_bob
    for outsider in (make_user("eve"), None):
        seen = everything_readable(session, game, outsider)
        assert not any(t in seen for t in tokens)
        assert re.search(r"S\d+:\d+", seen) is None

    # bob's secret choice is his alone until everyone has chosen
    ann_events = games.visible_events(session, game.id, ann)
    bob_events = games.visible_events(session, game.id, bob)
    assert [e["data"] for e in ann_events if e["type"] == "AmountChosen" and e["data"]["seat"] == 1] == [
        {"seat": 1, "round": 1}]
    assert [e["data"] for e in bob_events if e["type"] == "AmountChosen" and e["data"]["seat"] == 1] == [
        {"seat": 1, "round": 1, "n": 2}]
    assert games.game_view(session, game.id, ann)["board"]["my_choice"] is None
    assert games.game_view(session, game.id, bob)["board"]["my_choice"] == 2


def test_decisions_for_lists_only_the_users_own_decisions(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    mine = games.decisions_for(session, game.id, ann)
    assert {d["id"] for d in mine} == {"add:1:0", "wave:0"}
    add = next(d for d in mine if d["id"] == "add:1:0")
    assert add["schema"]["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": 3}
    assert add["default"] == {"type": "add", "args": {"n": 1}}
    assert add["version"] == game.version and add["deadline_at"] is not None
    assert next(d for d in mine if d["id"] == "wave:0")["deadline_at"] is None
    assert games.decisions_for(session, game.id, make_user("eve")) == []
    assert games.decisions_for(session, game.id, None) == []


def test_invited_addresses_are_shown_only_to_the_creator_and_the_invitee(session, config, make_user):
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    game = new_game(session, config, ann, seats=3, invites=["bob@example.org"])
    assert "bob@example.org" in _dump(games.game_summary(session, game, ann))
    assert "bob@example.org" in _dump(games.game_summary(session, game, bob))
    for reader in (eve, None):
        summary = games.game_summary(session, game, reader)
        assert "bob@example.org" not in _dump(summary)
        assert [(s["seat"], s["invited"], s["open"]) for s in summary["seats"]] == [
            (0, False, False), (1, True, False), (2, False, True)]
    assert games.game_summary(session, game, bob)["invited_seat"] == 1


def test_summary_says_who_is_awaited_and_by_when(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user, clock_hours=10)
    games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1}, expected_version=None)
    for_ann = games.game_summary(session, game, ann)
    for_bob = games.game_summary(session, game, bob)
    assert for_ann["awaiting_seats"] == [1] == for_bob["awaiting_seats"]
    assert (for_ann["my_seat"], for_ann["my_open_decisions"], for_ann["my_next_deadline"]) == (0, 0, None)
    assert (for_bob["my_seat"], for_bob["my_open_decisions"]) == (1, 1)
    assert for_bob["my_next_deadline"] == for_bob["next_deadline"]
    assert utcnow() + dt.timedelta(hours=9) < for_bob["next_deadline"] <= utcnow() + dt.timedelta(hours=10)
    assert [s["name"] for s in for_ann["seats"]] == ["Ann", "Bob"]
    assert [s["is_you"] for s in for_bob["seats"]] == [False, True]


def test_games_awaiting_the_user_come_first_then_the_most_recent(session, config, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    waiting_for_bob = new_game(session, config, ann, invites=["bob@example.org"])
    games.join_game(session, config, waiting_for_bob.id, bob)
    games.submit_command(session, config, waiting_for_bob.id, ann, command_type="add", args={"n": 1},
                         expected_version=None)
    awaiting_ann_old = new_game(session, config, ann, bot_seats=[1])
    not_started = new_game(session, config, ann, invites=["carl@example.org"])
    awaiting_ann_new = new_game(session, config, ann, bot_seats=[1])
    invited_elsewhere = new_game(session, config, bob, invites=["ann@example.org"])
    others = new_game(session, config, bob, bot_seats=[1])
    session.flush()

    listed = games.games_for_user(session, ann)
    ids = [s["id"] for s in listed]
    assert others.id not in ids
    assert set(ids[:2]) == {awaiting_ann_old.id, awaiting_ann_new.id}
    assert set(ids[2:]) == {waiting_for_bob.id, not_started.id, invited_elsewhere.id}
    stamps = [s["updated_at"] for s in listed[2:]]
    assert stamps == sorted(stamps, reverse=True)
    assert next(s for s in listed if s["id"] == invited_elsewhere.id)["invited_seat"] == 1


def test_visible_events_pages_past_events_the_reader_may_not_see(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    for _ in range(5):
        games.submit_command(session, config, game.id, ann, command_type="wave", args={}, expected_version=None)
    games.submit_command(session, config, game.id, bob, command_type="add", args={"n": 1}, expected_version=None)

    spectator = games.visible_events(session, game.id, None, after=2, limit=1)
    assert [(e["seq"], e["type"]) for e in spectator] == [(8, "AmountChosen")]  # waves 3..7 are hidden
    assert spectator[0]["at"].tzinfo is not None
    page = games.visible_events(session, game.id, ann, after=2, limit=3)
    assert [e["seq"] for e in page] == [3, 4, 5]
    assert games.visible_events(session, game.id, ann, after=game.version) == []
    with pytest.raises(InvalidInput):
        games.visible_events(session, game.id, ann, limit=0)
    with pytest.raises(InvalidInput):
        games.visible_events(session, game.id, ann, after=-1)


def test_view_at_replays_the_board_and_refuses_versions_beyond_the_game(session, config, make_user):
    game, ann, bob = two_humans(session, config, make_user)
    assert games.view_at(session, game.id, ann, 0)["board"]["my_secret"] is None  # not dealt yet
    assert games.view_at(session, game.id, ann, 1)["board"]["my_secret"].startswith("S0:")
    for seq in (game.version + 1, -1):
        with pytest.raises(NotFound):
            games.view_at(session, game.id, ann, seq)


# ---------------------------------------------------------------- autoplay


def test_autoplay_replaces_a_refused_bot_answer_with_the_default(monkeypatch):
    from engine.core.types import Command

    monkeypatch.setattr(bots, "bot_command", lambda rules, state, decision, **_: Command(decision.seat, "add", {"n": 3}))
    state, events = bots.autoplay(RULES, RULES.initial_state(2, {"target": 30}), {0, 1})
    chosen = [dict(e.data) for e in events if e.type == "AmountChosen"]
    assert chosen[:2] == [{"seat": 0, "round": 1, "n": 1}, {"seat": 1, "round": 1, "n": 1}]
    assert {c["n"] for c in chosen[2:]} == {3}
    assert RULES.outcome(state) is not None


def test_autoplay_that_never_reaches_a_human_is_stopped(monkeypatch):
    with pytest.raises(bots.AutoplayRunaway):
        bots.autoplay(RULES, RULES.initial_state(2, {"target": 1_000_000}), {0, 1}, max_steps=50)
