"""What a request leaves until its answer is out (:mod:`service.plumbing.after_answer`):
under gunicorn (``gunicorn.conf.py``'s ``pre_request`` and ``post_request``), the workers
hear of a commit, the connection goes back to the pool and the session is closed once the
answer has been written; anywhere else at once, as before."""

from __future__ import annotations

import gc
import logging
import runpy
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.plumbing import after_answer, database, dispatch

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


@pytest.fixture
def serving():
    """This thread serves a request as gunicorn's hooks mark it (``pre_request``); what
    the test leaves runs at its end."""
    after_answer.begin()
    yield
    after_answer.run()


def test_where_no_server_marked_the_thread_the_work_runs_at_once():
    done = []
    after_answer.later(lambda: done.append(1))
    assert done == [1]


def test_in_a_served_request_the_work_waits_for_the_answer_and_runs_in_order(serving):
    done = []
    after_answer.later(lambda: done.append("first"))
    after_answer.later(lambda: done.append("second"))
    assert done == []
    after_answer.run()
    assert done == ["first", "second"]
    # the request is over: the thread runs work at once again, until the next request
    after_answer.later(lambda: done.append("third"))
    assert done == ["first", "second", "third"]


def test_a_failing_piece_of_work_is_logged_and_the_rest_still_runs(serving, monkeypatch):
    done, logged = [], []

    def broken():
        raise RuntimeError("the broker is down")

    # the module's own logger, heard directly (another test's logging set-up may have
    # turned off what propagates to the root)
    handler = logging.Handler(level=logging.ERROR)
    handler.emit = logged.append
    monkeypatch.setattr(logging.root.manager, "disable", logging.NOTSET)
    monkeypatch.setattr(after_answer.log, "disabled", False)
    monkeypatch.setattr(after_answer.log, "level", logging.NOTSET)
    after_answer.log.addHandler(handler)
    try:
        after_answer.later(broken)
        after_answer.later(lambda: done.append("after"))
        after_answer.run()
    finally:
        after_answer.log.removeHandler(handler)
    assert done == ["after"]
    assert [record.getMessage() for record in logged] == ["work left until after the answer failed"]
    assert "the broker is down" in str(logged[0].exc_info[1])


def test_work_left_by_a_request_whose_end_was_missed_runs_when_the_next_begins(serving):
    done = []
    after_answer.later(lambda: done.append("earlier"))
    after_answer.begin()
    assert done == ["earlier"]


def test_each_thread_runs_only_what_its_own_request_left(serving):
    done = []
    after_answer.later(lambda: done.append("mine"))
    other = threading.Thread(target=lambda: (after_answer.begin(), after_answer.run()))
    other.start()
    other.join()
    assert done == []
    after_answer.run()
    assert done == ["mine"]


class _Recorder:
    """A dispatcher that notes what it is told."""

    def __init__(self):
        self.told = []

    def mail(self, config, ids):
        self.told.append(("mail", ids))

    def webhooks(self, config, ids):
        self.told.append(("webhooks", ids))

    def notifications(self, config, user_ids, due):
        self.told.append(("notifications", user_ids))

    def bots(self, config, game_ids):
        self.told.append(("bots", game_ids))


@pytest.fixture
def recorder():
    recorder = _Recorder()
    before = dispatch.registered(dispatch.EMBEDDED)
    dispatch.register(dispatch.EMBEDDED, recorder)
    yield recorder
    dispatch.register(dispatch.EMBEDDED, before)


def _checked_out(app) -> int:
    return database.engine(app).pool.checkedout()


def _request_that_commits(app, recorder: _Recorder) -> dict:
    """A request whose transaction remembers work for the workers and commits; what they
    were told, and how many connections were out, at the commit and at the request's end."""
    config = app.extensions["capua.config"]
    seen = {}
    with app.test_request_context("/api/v1/games", method="POST"):
        session = database.session()
        session.connection()
        dispatch.remember_users(session, config, [7])
        dispatch.remember_bots(session, config, "g1")
        database.commit(session)
        seen["told at the commit"] = list(recorder.told)
        seen["out after the commit"] = _checked_out(app)
    seen["out after the request"] = _checked_out(app)
    return seen


def test_under_gunicorn_the_commits_aftermath_waits_for_the_answer(app, recorder, serving):
    assert _checked_out(app) == 0
    seen = _request_that_commits(app, recorder)
    assert seen == {"told at the commit": [], "out after the commit": 1, "out after the request": 1}
    after_answer.run()
    assert recorder.told == [("notifications", [7]), ("bots", ["g1"])]
    assert _checked_out(app) == 0


def test_elsewhere_it_happens_at_once(app, recorder):
    seen = _request_that_commits(app, recorder)
    assert seen == {"told at the commit": [("notifications", [7]), ("bots", ["g1"])],
                    "out after the commit": 0, "out after the request": 0}


def test_a_read_requests_session_is_closed_once_the_answer_is_out(app, serving):
    with app.test_request_context("/api/v1/games"):
        session = database.session()
        session.connection()  # a read's open transaction
        assert _checked_out(app) == 1
    assert _checked_out(app) == 1  # the context is gone, its session not yet closed
    with app.test_request_context("/api/v1/games"):
        assert database.session() is not session  # the next request has a session of its own
    after_answer.run()
    assert _checked_out(app) == 0
    assert not session.in_transaction()


def test_elsewhere_a_requests_session_is_closed_with_its_context(app):
    with app.test_request_context("/api/v1/games"):
        session = database.session()
        session.connection()
    assert _checked_out(app) == 0
    assert not session.in_transaction()


def test_a_rolled_back_transaction_leaves_nothing_to_tell(app, recorder, serving):
    config = app.extensions["capua.config"]
    with app.test_request_context("/api/v1/games", method="POST"):
        session = database.session()
        dispatch.remember_users(session, config, [7])
        session.rollback()
    after_answer.run()
    assert recorder.told == []


def test_gunicorn_settings_mark_the_request_and_run_its_work_after_the_answer():
    thresholds = gc.get_threshold()
    hooks = runpy.run_path(str(CONF))
    try:
        done = []
        hooks["pre_request"](SimpleNamespace(log=logging.getLogger("gunicorn.error")),
                             SimpleNamespace(method="POST", path="/api/v1/games/g1/commands"))
        after_answer.later(lambda: done.append(1))
        assert done == []
        hooks["post_request"](None, None, None, None)
        assert done == [1]
        after_answer.later(lambda: done.append(2))  # between requests: at once
        assert done == [1, 2]
    finally:
        after_answer.run()
        gc.set_threshold(*thresholds)
