"""``service.plumbing.rows``: rows read once per transaction, and never a stale answer."""

from __future__ import annotations

import gc

from service.plumbing.db import GameClock, NotificationPreference, User
from service.plumbing.rows import get_row, get_rows, hold
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
