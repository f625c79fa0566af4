"""What a request leaves until its answer is out (:mod:`service.plumbing.after_answer`):
under gunicorn (``gunicorn.conf.py``), the workers hear of a commit once the answer has
been written; anywhere else at once, as before."""

from __future__ import annotations

import logging
import runpy
from pathlib import Path

import pytest
from flask import Flask

from service.plumbing import after_answer, database, dispatch

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


@pytest.fixture
def served(monkeypatch):
    """This process's server runs :func:`after_answer.run` after each answer (as gunicorn does
    with ``gunicorn.conf.py``), for this test only."""
    monkeypatch.setattr(after_answer, "_SERVED", False)
    after_answer.served_here()
    yield
    after_answer.run()  # nothing a failing test left behind reaches the next one


@pytest.fixture
def bare_app():
    return Flask("after_answer_test")


def test_outside_a_request_the_work_runs_at_once(served):
    done = []
    after_answer.later(lambda: done.append(1))
    assert done == [1]


def test_under_a_server_that_does_not_run_it_the_work_runs_at_once(monkeypatch, bare_app):
    monkeypatch.setattr(after_answer, "_SERVED", False)
    done = []
    with bare_app.test_request_context("/"):
        after_answer.later(lambda: done.append(1))
        assert done == [1]


def test_in_a_served_request_the_work_waits_for_the_answer_and_runs_in_order(served, bare_app):
    done = []
    with bare_app.test_request_context("/"):
        after_answer.later(lambda: done.append("first"))
        after_answer.later(lambda: done.append("second"))
        assert done == []
    assert done == []
    after_answer.run()
    assert done == ["first", "second"]
    after_answer.run()  # run once: nothing is left for the next request
    assert done == ["first", "second"]


def test_a_failing_piece_of_work_is_logged_and_the_rest_still_runs(served, bare_app, caplog):
    done = []

    def broken():
        raise RuntimeError("the broker is down")

    with bare_app.test_request_context("/"):
        after_answer.later(broken)
        after_answer.later(lambda: done.append("after"))
    with caplog.at_level(logging.ERROR, logger=after_answer.__name__):
        after_answer.run()
    assert done == ["after"]
    assert "work left until after the answer failed" in caplog.text
    assert "the broker is down" in caplog.text


def test_each_thread_runs_only_what_its_own_request_left(served, bare_app):
    import threading

    done = []
    with bare_app.test_request_context("/"):
        after_answer.later(lambda: done.append("mine"))
    other = threading.Thread(target=after_answer.run)
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


def _commit_with_work(app, told: _Recorder) -> list:
    """Commit a request's transaction that remembered work for the workers; what they were
    told by the end of the request."""
    config = app.extensions["capua.config"]
    with app.test_request_context("/api/v1/games", method="POST"):
        session = database.session()
        dispatch.remember_users(session, config, [7])
        dispatch.remember_bots(session, config, "g1")
        database.commit(session)
        return list(told.told)


def test_under_gunicorn_the_workers_hear_of_a_commit_once_the_answer_is_out(app, recorder, served):
    assert _commit_with_work(app, recorder) == []
    after_answer.run()
    assert recorder.told == [("notifications", [7]), ("bots", ["g1"])]


def test_elsewhere_the_workers_hear_of_a_commit_at_once(app, recorder, monkeypatch):
    monkeypatch.setattr(after_answer, "_SERVED", False)
    assert _commit_with_work(app, recorder) == [("notifications", [7]), ("bots", ["g1"])]


def test_a_rolled_back_transaction_leaves_nothing_for_after_the_answer(app, recorder, served):
    config = app.extensions["capua.config"]
    with app.test_request_context("/api/v1/games", method="POST"):
        session = database.session()
        dispatch.remember_users(session, config, [7])
        session.rollback()
    after_answer.run()
    assert recorder.told == []


def test_gunicorn_settings_run_the_work_in_post_request(monkeypatch, bare_app):
    """``post_worker_init`` says this server runs it; ``post_request`` runs it."""
    import gc

    thresholds = gc.get_threshold()
    monkeypatch.setattr(after_answer, "_SERVED", False)
    hooks = runpy.run_path(str(CONF))
    try:
        hooks["post_worker_init"](None)
        done = []
        with bare_app.test_request_context("/"):
            after_answer.later(lambda: done.append(1))
        assert done == []
        hooks["post_request"](None, None, None, None)
        assert done == [1]
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
