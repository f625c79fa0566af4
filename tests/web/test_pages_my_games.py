"""My games: the games awaiting my decision first (soonest deadline first, shown in my
time zone with the time left), then running, open (invitations to accept or decline)
and finished games."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from engine import registry
from service.play import games
from service.plumbing.db import OpenDecision, Seat, utcnow
from service.words import i18n
from tests.service import fake_game
from tests.web.pages_play import user
from tests.web.support import csrf_from, sign_in_with

BERLIN = "Europe/Berlin"


@pytest.fixture
def count_games(monkeypatch):
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")


def _new(s, config, creator, *, title, bots=(), invites=(), target=50):
    return games.create_game(s, config, creator=creator, game_type=fake_game.NAME, options={"target": target},
                             seats=2, bot_seats=list(bots), invites=list(invites), title=title).id


def _deadline(s, game_id, seat, at):
    for row in s.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id, OpenDecision.seat == seat,
                                                    OpenDecision.mode != "free")):
        row.deadline_at = at


@pytest.fixture
def tables(count_games, app, web_sessions, web_config):
    """Ann (in Berlin) has two games awaiting her, one waiting for bob, an invitation from
    bob and a finished game."""
    now = utcnow()
    with web_sessions() as s:
        ann = user(s, "ann@example.org", timezone=BERLIN)
        bob = user(s, "bob@example.org")
        ids = {
            "later": _new(s, web_config, ann, title="Later table", bots=[1]),
            "sooner": _new(s, web_config, ann, title="Sooner table", bots=[1]),
            "theirs": _new(s, web_config, ann, title="Bob's turn table", invites=["bob@example.org"]),
            "invited": _new(s, web_config, bob, title="Invitation table", invites=["ann@example.org"]),
            "over": _new(s, web_config, ann, title="Finished table", bots=[1], target=1),
        }
        games.join_game(s, web_config, ids["theirs"], bob)
        games.submit_command(s, web_config, ids["theirs"], ann, command_type="add", args={"n": 1},
                             expected_version=None)
        games.submit_command(s, web_config, ids["over"], ann, command_type="add", args={"n": 1},
                             expected_version=None)
        deadlines = {"later": now + dt.timedelta(hours=30, minutes=10),
                     "sooner": now + dt.timedelta(hours=3, minutes=10)}
        for key, at in deadlines.items():
            _deadline(s, ids[key], 0, at)
        s.commit()
    return ids, deadlines


def test_games_awaiting_me_come_first_with_deadlines_in_my_zone(app, tables):
    ids, deadlines = tables
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    page = client.get("/games").get_data(as_text=True)
    order = ["Awaiting your decision", "Sooner table", "Later table", "Running", "Bob&#39;s turn table",
             "Open: waiting for players", "Invitation table", "Finished", "Finished table"]
    positions = [page.index(text) for text in order]
    assert positions == sorted(positions), "awaiting (soonest first), running, open, finished"
    for key in ("sooner", "later"):
        assert i18n.format_moment(deadlines[key], "en", BERLIN) in page, "the deadline in Ann's time zone"
    assert "(Europe/Berlin)" in page
    assert re.search(r"3 h (9|10) min left", page) and "1 d 6 h left" in page
    invitation = page[page.index("Invitation table"):page.index("Finished</h2>")]
    assert f'/games/{ids["invited"]}/join' in invitation and f'/games/{ids["invited"]}/decline' in invitation
    assert "/games/new" in page, "a link to create a game"


def test_declining_an_invitation_opens_the_seat(app, tables, web_sessions):
    ids, _ = tables
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    page = client.get("/games").get_data(as_text=True)
    answer = client.post(f"/games/{ids['invited']}/decline", data={"csrf_token": csrf_from(page)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/games")
    with web_sessions() as s:
        seat = s.scalar(select(Seat).where(Seat.game_id == ids["invited"], Seat.seat == 1))
        assert seat.invited_email is None and seat.user_id is None
    assert "Invitation table" not in client.get("/games").get_data(as_text=True)
    again = client.post(f"/games/{ids['invited']}/decline", data={"csrf_token": csrf_from(page)})
    assert again.status_code == 409 and "no invitation of yours" in again.get_data(as_text=True)
