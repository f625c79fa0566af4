"""Bad input on every page and form: a clear answer below 500, and nothing changed.

Each page's own tests check its particular refusals; this sweeps junk through all of them
at once — unreadable numbers, JSON that is no command, ids that name nothing, someone else's
game — and checks that the game, the account and the tokens are as they were."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from service import demo
from service.plumbing.db import ApiToken, Game, User
from tests.web.support import csrf_from, sign_in_with

JUNK = ["", "x", "-1", "99999999999999999999", "[]", "{}", "null", '{"type": 1}', '{"type": "pass", "args": []}',
        "%00", "<script>alert(1)</script>", "ü" * 300]


def _fingerprint(web_sessions, game_id):
    with web_sessions() as s:
        game = s.get(Game, game_id)
        user = s.scalar(select(User).where(User.email == demo.DEMO_EMAIL))
        return (game.version, game.status, user.language, user.timezone, user.display_name,
                s.scalar(select(func.count()).select_from(Game)), s.scalar(select(func.count()).select_from(ApiToken)))


def test_junk_on_every_page_is_refused_clearly_and_changes_nothing(app, web_sessions, demo_game):
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    page = client.get(f"/games/{demo_game}").get_data(as_text=True)
    token = csrf_from(page)
    before = _fingerprint(web_sessions, demo_game)
    answers = []
    for junk in JUNK:
        for path in (f"/games/{demo_game}/choose?decision={junk}&version={junk}&command={junk}",
                     f"/games/{demo_game}/choose?decision=x&version=1&command=" + json.dumps({"type": junk, "args": {}}),
                     f"/games/{demo_game}/history?at={junk}", f"/games/{junk or 'x'}", f"/games/{junk or 'x'}/history",
                     f"/games/new?game={junk}", f"/cards/{junk or 'x'}", f"/rules/{junk or 'x'}",
                     f"/rules/{junk or 'x'}/full"):
            answers.append((path, client.get(path)))
        for path, data in ((f"/games/{demo_game}/act", {"version": junk, "command": junk}),
                           (f"/games/{demo_game}/act", {"version": "1", "decision_id": junk, "arg.x": junk}),
                           (f"/games/{demo_game}/act", {"version": "1", "command": junk, "confirmed": "1"}),
                           (f"/games/{demo_game}/decline", {"seat": junk}),
                           (f"/games/{demo_game}/deadlines/extend", {"hours": junk, "seat": junk}),
                           (f"/games/{demo_game}/messages", {"body": "", "to": junk}),
                           ("/games/new", {"game": junk, "seats": junk, "clock_hours": junk, "seat.0": junk}),
                           ("/games/new", {"game": "pax", "seats": junk, "option.solo_level": junk}),
                           ("/settings", {"language": junk, "timezone": junk, "display_name": junk * 20}),
                           ("/language", {"language": junk, "next": junk}),
                           ("/settings/tokens", {"name": (junk or "x") * 100}),
                           ("/settings/tokens/99999/revoke", {})):
            answers.append((path, client.post(path, data={"csrf_token": token, **data})))
    for path, answer in answers:
        assert answer.status_code < 500, (path, answer.status_code)
    assert _fingerprint(web_sessions, demo_game) == before, "no game moved or was created; account and tokens as they were"


def test_another_players_choice_link_and_forms_do_nothing(app, web_sessions, demo_game):
    """A stranger who got hold of a player's board link or form cannot act with it."""
    stranger = app.test_client()
    sign_in_with(app, stranger, "mallory@example.org")
    before = _fingerprint(web_sessions, demo_game)
    with web_sessions() as s:
        version = s.get(Game, demo_game).version
    command = json.dumps({"type": "draw_cards", "args": {}})
    shown = stranger.get(f"/games/{demo_game}/choose?decision=turn:1&version={version}&command={command}")
    assert shown.status_code in (403, 404, 409) and 'name="confirmed"' not in shown.get_data(as_text=True)
    posted = stranger.post(f"/games/{demo_game}/act", data={
        "csrf_token": csrf_from(stranger.get("/games").get_data(as_text=True)), "version": str(version),
        "command": command, "confirmed": "1"})
    assert 400 <= posted.status_code < 500
    assert _fingerprint(web_sessions, demo_game) == before
