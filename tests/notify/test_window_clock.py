"""Window answers run on a clock of their own (by default a sixth of the decision clock),
and letting a window pass costs neither a vacation day nor a missed deadline."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from engine import registry
from service.play import deadlines, games
from service.plumbing.db import GameClock, OpenDecision, Seat, User, VacationDay
from service.plumbing.errors import InvalidInput
from tests.notify import bell_game
from tests.notify.helpers import new_game


@pytest.fixture(autouse=True)
def bell(monkeypatch):
    monkeypatch.setitem(registry._GAMES, bell_game.NAME, "tests.notify.bell_game:RULES")


def _open(sessions, game_id) -> list[OpenDecision]:
    with sessions() as s:
        return list(s.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.mode != "free")))


def _ring(sessions, cfg, game_id) -> OpenDecision:
    """Ann rings the bell; the window row it opens."""
    with sessions() as s:
        ann = s.scalars(select(User).where(User.email == "ann@example.org")).one()
        games.submit_command(s, cfg, game_id, ann, command_type="ring", args={"loud": True}, expected_version=None)
        s.commit()
    (window,) = _open(sessions, game_id)
    assert window.mode == "interrupt"
    return window


def test_a_window_answer_gets_a_sixth_of_the_decision_clock(sessions, cfg):
    game_id, _ = new_game(sessions, cfg, game_type="bell", options={"rings": 2}, clock={"hours": 24, "vacation": False})
    (ring,) = _open(sessions, game_id)
    assert ring.deadline_at - ring.opened_at == dt.timedelta(hours=24)
    window = _ring(sessions, cfg, game_id)
    assert window.seat == 1 and window.deadline_at - window.opened_at == dt.timedelta(hours=4)


def test_the_window_clock_is_a_game_option(sessions, cfg):
    game_id, _ = new_game(sessions, cfg, game_type="bell", options={"rings": 2},
                          clock={"hours": 48, "window_hours": 2, "vacation": False})
    with sessions() as s:
        assert s.get(GameClock, game_id).window_hours == 2
        assert deadlines.clock_view(s, game_id)["window_hours"] == 2
    window = _ring(sessions, cfg, game_id)
    assert window.deadline_at - window.opened_at == dt.timedelta(hours=2)


def test_the_windows_target_answers_on_the_decision_clock_the_others_on_the_window_clock(sessions, cfg):
    """The target is public (a scheme names it aloud): its answer gets the full clock, and
    its reminder the decision clock's lead, also when a pause re-arms it."""
    game_id, users = new_game(sessions, cfg, game_type="bell", players=("ann", "bob", "cleo"), options={"rings": 2, "aim": 2},
                              clock={"hours": 24, "vacation": False})
    window = _ring(sessions, cfg, game_id)
    assert window.seat == 1 and window.deadline_at - window.opened_at == dt.timedelta(hours=4)
    assert window.deadline_at - window.remind_at == dt.timedelta(hours=1)
    with sessions() as s:
        bob = s.get(User, users["bob"])
        games.submit_command(s, cfg, game_id, bob, command_type="pass", args={}, expected_version=None)
        s.commit()
    (target,) = _open(sessions, game_id)
    assert target.seat == 2 and target.mode == "interrupt"
    assert target.deadline_at - target.opened_at == dt.timedelta(hours=24)
    assert target.deadline_at - target.remind_at == dt.timedelta(hours=6)
    with sessions() as s:
        ann = s.get(User, users["ann"])
        deadlines.pause(s, cfg, game_id, ann)
        s.commit()
    with sessions() as s:
        deadlines.resume(s, cfg, game_id, s.get(User, users["ann"]))
        s.commit()
    (rearmed,) = _open(sessions, game_id)
    assert rearmed.deadline_at - rearmed.remind_at == dt.timedelta(hours=6)


@pytest.mark.parametrize("window_hours", [0, 25, "4", 1.5])
def test_a_window_clock_outside_the_decision_clock_is_refused(sessions, cfg, window_hours):
    with pytest.raises(InvalidInput) as err:
        new_game(sessions, cfg, game_type="bell", clock={"hours": 24, "window_hours": window_hours})
    assert err.value.code == "invalid_clock" and "window_hours" in err.value.details["fields"]


def test_a_window_left_to_its_deadline_passes_without_spending_vacation_or_counting_a_miss(sessions, cfg):
    game_id, users = new_game(sessions, cfg, game_type="bell", options={"rings": 3}, clock={"hours": 24})
    for _ in range(3):
        window = _ring(sessions, cfg, game_id)
        late = window.deadline_at + dt.timedelta(seconds=1)
        assert deadlines.apply_deadline(sessions, cfg, window.id, now=late) == "applied"
    with sessions() as s:
        bob = s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == 1)).one()
        assert (bob.missed_deadlines or 0) == 0 and bob.bot_since is None, "three windows passed, no bot"
        assert not s.scalars(select(VacationDay).where(VacationDay.user_id == users["bob"])).all()
