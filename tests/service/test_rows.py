"""``service.plumbing.rows``: rows read once per transaction, and never a stale answer."""

from __future__ import annotations

import datetime as dt
import gc

import pytest
from sqlalchemy import func, select

from engine.core.types import Event
from service.play import absence, at_hand, store
from service.plumbing.db import (Game, GameClock, GameNotificationPreference, NotificationPreference, OpenDecision,
                                 Seat, StoredEvent, User)
from service.plumbing.errors import LostRace
from service.plumbing.rows import get_row, get_rows, hold, hold_plain, plain_row
from tests.api.statement_counter import StatementCounter


def _user(session, email):
    user = User(email=email)
    session.add(user)
    session.flush()
    return user.id


def test_a_row_is_read_once_even_when_nobody_holds_it(session):
    uid = _user(session, "ann@example.org")
    session.commit()
    with StatementCounter(session.get_bind()) as counter:
        assert get_row(session, User, uid).email == "ann@example.org"
        gc.collect()  # the identity map holds rows weakly: a plain session.get would read again
        assert get_row(session, User, uid).email == "ann@example.org"
        assert get_rows(session, User, [uid]) == {uid: get_row(session, User, uid)}
    assert len(counter.statements) == 1


def test_a_miss_is_remembered_until_a_row_of_that_model_is_added(session, bare_game):
    game = bare_game()
    with StatementCounter(session.get_bind()) as counter:
        assert get_row(session, GameClock, game.id) is None
        assert get_row(session, GameClock, game.id) is None
    assert len(counter.statements) == 1
    session.add(GameClock(game_id=game.id, timezone="UTC", weekend_pause=False, bot_after_missed=2, vacation=True))
    assert get_row(session, GameClock, game.id) is not None


def test_a_deleted_row_is_not_handed_out(session):
    uid = _user(session, "bob@example.org")
    prefs = NotificationPreference(user_id=uid)
    session.add(prefs)
    session.flush()
    assert get_row(session, NotificationPreference, uid) is prefs
    session.delete(prefs)
    session.flush()
    assert get_row(session, NotificationPreference, uid) is None
    assert get_rows(session, NotificationPreference, [uid]) == {}


def test_what_is_held_is_forgotten_when_the_transaction_ends(session):
    uid = _user(session, "cy@example.org")
    hold(session, session.get(User, uid))
    assert get_row(session, NotificationPreference, uid) is None
    session.commit()
    session.add(NotificationPreference(user_id=uid))
    session.commit()
    session.expunge_all()
    assert get_row(session, NotificationPreference, uid) is not None
    with StatementCounter(session.get_bind()) as counter:
        get_row(session, User, uid)
    assert len(counter.statements) == 1, "the user was held by the earlier transaction only"


def test_a_plain_row_is_handed_out_until_a_row_of_its_model_is_added(session):
    uid = _user(session, "dee@example.org")
    session.commit()
    row = plain_row(User)(id=uid, email="dee@example.org", display_name="Dee", language="en", timezone="UTC",
                          created_at=None)
    hold_plain(session, User, uid, row)
    with StatementCounter(session.get_bind()) as counter:
        assert get_row(session, User, uid) is row
        assert get_rows(session, User, [uid]) == {uid: row}
    assert counter.statements == []
    session.add(User(email="eve@example.org"))
    found = get_row(session, User, uid)
    assert isinstance(found, User) and found.display_name == ""


def test_what_a_command_only_reads_is_held_as_plain_rows(session, bare_game):
    game = bare_game()
    ann, bob = _user(session, "ann@example.org"), _user(session, "bob@example.org")
    session.add_all([Seat(game_id=game.id, seat=0, user_id=ann), Seat(game_id=game.id, seat=1, user_id=bob),
                     NotificationPreference(user_id=ann, digest_hour=7),
                     GameNotificationPreference(user_id=bob, game_id=game.id, act_delivery="digest")])
    session.commit()
    session.expunge_all()
    hand = at_hand.load(session, game.id)
    assert hand.game.id == game.id and [s.seat for s in hand.seats] == [0, 1]
    # The game and its seats too: changeable plain rows, written by the command's own statements.
    assert not isinstance(hand.game, Game) and not any(isinstance(s, Seat) for s in hand.seats)
    assert hand.game.changes() == {} and hand.seats[1].user_id == bob
    with StatementCounter(session.get_bind()) as counter:
        users = get_rows(session, User, [ann, bob])
        assert {u.email for u in users.values()} == {"ann@example.org", "bob@example.org"}
        assert not any(isinstance(u, User) for u in users.values())
        assert get_row(session, NotificationPreference, ann).digest_hour == 7
        assert get_row(session, NotificationPreference, bob) is None
        assert get_row(session, GameNotificationPreference, (bob, game.id)).act_delivery == "digest"
        assert get_row(session, GameNotificationPreference, (ann, game.id)) is None
        assert get_row(session, GameClock, game.id) is None
    assert counter.statements == []
    assert at_hand.load(session, "no-such-game") is None


def test_the_open_decisions_come_with_the_game_as_a_read_of_their_rows_gives_them(session, bare_game):
    """On PostgreSQL :func:`at_hand.load` reads the game's open decisions in the game's
    own statement (as JSON): the same keys and deadlines as a read of their rows, each
    deadline in the very time zone a read gives it (a whole second, a fraction, none);
    on SQLite they are not read."""
    game, other = bare_game(), bare_game()
    at = dt.datetime(2026, 3, 29, 1, 30, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    rows = [("bid \"quoted\" é", 0, at), ("bid", 1, at + dt.timedelta(microseconds=123456)), ("free", 0, None)]
    session.add_all([OpenDecision(game_id=game.id, decision_id=d, seat=seat, mode="decision", version=0,
                                  deadline_at=deadline) for d, seat, deadline in rows]
                    + [OpenDecision(game_id=other.id, decision_id="bid", seat=0, mode="decision", version=0)])
    session.add_all([Seat(game_id=game.id, seat=0), Seat(game_id=game.id, seat=1), Seat(game_id=other.id, seat=0)])
    session.commit()
    session.expunge_all()
    read = {(d, seat): at for d, seat, at in session.execute(
        select(OpenDecision.decision_id, OpenDecision.seat, OpenDecision.deadline_at)
        .where(OpenDecision.game_id == game.id))}
    session.commit()
    with StatementCounter(session.get_bind()) as counter:
        hand = at_hand.load(session, game.id)
    assert len(counter.statements) == 1
    if session.get_bind().dialect.name != "postgresql":
        assert hand.open_decisions is None
        return
    assert hand.open_decisions == read
    assert all(hand.open_decisions[key].tzinfo is read[key].tzinfo for key in read if read[key] is not None)
    session.query(OpenDecision).filter_by(game_id=game.id).delete()
    session.commit()
    assert at_hand.load(session, game.id).open_decisions == {}


def test_a_commands_game_is_written_by_the_version_update_and_its_seat_by_one_statement(session, bare_game):
    game = bare_game()
    ann = _user(session, "ann@example.org")
    session.add(Seat(game_id=game.id, seat=0, user_id=ann, missed_deadlines=2))
    session.commit()
    loaded = session.get(Game, game.id)  # a caller's ORM object of the same row, read first
    hand = at_hand.load(session, game.id)
    plain, seat = hand.game, hand.seats[0]
    plain.status, plain.outcome = "finished", {"winners": [0]}
    assert plain.changes() == {"status": "finished", "outcome": {"winners": [0]}}
    with StatementCounter(session.get_bind()) as counter:
        absence.player_acted(session, None, plain, seat)  # no bot to give the seat back: no config read
        store.append(session, plain, [Event("Waved", {"seat": 0})], 0, ann)
        assert plain.changes() == {} and seat.changes() == {} and plain.version == 1
        assert (loaded.version, loaded.status, loaded.outcome) == (1, "finished", {"winners": [0]})
        session.commit()  # (on PostgreSQL the event's INSERT is held until here)
    # the seat's UPDATE, the game's (with its version), the event; on PostgreSQL the game's
    # UPDATE and its events are one statement (:func:`service.play.store.append`)
    postgresql = session.get_bind().dialect.name == "postgresql"
    assert len(counter.statements) == (2 if postgresql else 3)
    session.expunge_all()
    again = session.get(Game, game.id)
    assert (again.version, again.status, again.outcome) == (1, "finished", {"winners": [0]})
    assert session.get(Seat, seat.id).missed_deadlines == 0
    # A stale plain row loses the race, whatever else it would write (on PostgreSQL its
    # version's UPDATE is held, and the race judged, with the next statement or before the
    # COMMIT), and nothing of it is committed.
    stale = at_hand.load(session, game.id).game
    stale.version, stale.bots_due_at = 0, again.updated_at
    with pytest.raises(LostRace):
        store.append(session, stale, [Event("Waved", {"seat": 0})], 0, ann)
        session.commit()
    session.rollback()
    assert session.scalar(select(func.count()).select_from(StoredEvent)) == 1
