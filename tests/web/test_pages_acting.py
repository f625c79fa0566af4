"""Acting on the game page: the confirm step for irreversible choices, and a stale page
that says what changed since it was drawn."""

from __future__ import annotations

import html
import json
import re
from types import SimpleNamespace

import pytest

from engine import registry
from service import demo
from service.identity import auth
from service.play import games
from service.plumbing.db import Game
from service.words import telling, terms
from tests.service import fake_game
from tests.web.pages_play import CommandLog, decision_form, hidden_value, option_buttons, user
from tests.web.support import csrf_from, sign_in_with
from service.words.seat_marks import seat_letter


@pytest.fixture
def confirm_count(monkeypatch, app, web_sessions, web_config):
    """A running count game of ann and bob whose terms mark adding and waving irreversible."""
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    monkeypatch.setitem(terms._modules, fake_game.NAME, SimpleNamespace(CONFIRM={"add", "wave"}))
    with web_sessions() as s:
        ann, bob = user(s, "ann@example.org"), user(s, "bob@example.org")
        game = games.create_game(s, web_config, creator=ann, game_type=fake_game.NAME, options={"target": 30},
                                 seats=2, invites=["bob@example.org"])
        games.join_game(s, web_config, game.id, bob)
        s.commit()
        return game.id


def _version(web_sessions, game_id) -> int:
    with web_sessions() as s:
        return s.get(Game, game_id).version


def test_an_irreversible_answer_is_confirmed_before_it_is_sent(app, confirm_count, web_sessions, monkeypatch):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    page = client.get(f"/games/{confirm_count}").get_data(as_text=True)
    with web_sessions() as s:
        add = next(d for d in games.decisions_for(s, confirm_count, auth.get_or_create_user(s, "ann@example.org"))
                   if d["command_type"] == "add")
    form = decision_form(page, add["id"])
    assert "Next: confirm" in form
    log = CommandLog(monkeypatch)
    before = _version(web_sessions, confirm_count)

    shown = client.post(f"/games/{confirm_count}/act", data={
        "csrf_token": csrf_from(page), "version": str(add["version"]), "decision_id": add["id"], "arg.n": "2"})
    text = shown.get_data(as_text=True)
    assert shown.status_code == 200 and "This cannot be undone once sent." in text
    assert log.commands == [] and _version(web_sessions, confirm_count) == before, "nothing is sent yet"
    confirm = re.search(r"<form[^>]*>.*?</form>", text[text.index('class="decision"'):], re.S).group(0)
    assert json.loads(hidden_value(confirm, "command")) == {"type": "add", "args": {"n": 2}}
    assert hidden_value(confirm, "confirmed") == "1"

    done = client.post(f"/games/{confirm_count}/act", data={
        "csrf_token": csrf_from(text), "version": hidden_value(confirm, "version"),
        "decision_id": hidden_value(confirm, "decision_id"), "command": hidden_value(confirm, "command"),
        "confirmed": "1"})
    assert done.status_code == 303
    assert log.commands == [{"type": "add", "args": {"n": 2}}]
    assert _version(web_sessions, confirm_count) > before


def test_an_irreversible_option_links_to_the_confirm_page(app, confirm_count, web_sessions, monkeypatch):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    page = client.get(f"/games/{confirm_count}").get_data(as_text=True)
    (wave,) = [b for b in option_buttons(page) if b["command"]["type"] == "wave"]
    assert wave["method"] == "get" and wave["action"].endswith(f"/games/{confirm_count}/choose")
    assert "csrf_token" not in wave["form"], "the button only shows the confirm page"
    choose = client.get(wave["action"], query_string={
        "decision": hidden_value(wave["form"], "decision"), "version": hidden_value(wave["form"], "version"),
        "command": json.dumps(wave["command"])})
    text = choose.get_data(as_text=True)
    assert choose.status_code == 200 and "This cannot be undone once sent." in text and "Wave" in text
    log = CommandLog(monkeypatch)
    # Posting the option without the confirm page's mark shows the confirm page again.
    direct = client.post(f"/games/{confirm_count}/act", data={
        "csrf_token": csrf_from(text), "version": hidden_value(wave["form"], "version"),
        "command": json.dumps(wave["command"])})
    assert direct.status_code == 200 and "This cannot be undone once sent." in direct.get_data(as_text=True)
    assert log.commands == []
    done = client.post(f"/games/{confirm_count}/act", data={
        "csrf_token": csrf_from(text), "version": hidden_value(wave["form"], "version"),
        "command": json.dumps(wave["command"]), "confirmed": "1"})
    assert done.status_code == 303 and log.commands == [{"type": "wave", "args": {}}]


def test_a_stale_page_shows_what_changed_since_it_was_drawn(app, web_sessions, web_config):
    with web_sessions() as s:
        _user, game = demo.create_demo_game(s, web_config)
        s.commit()
        game_id, game_type = game.id, game.game_type
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    first = next(b for b in option_buttons(page) if b["method"] == "post")
    version = int(hidden_value(first["form"], "version"))
    data = {"csrf_token": csrf_from(page), "version": str(version), "command": json.dumps(first["command"])}
    assert client.post(f"/games/{game_id}/act", data=data).status_code == 303

    again = client.post(f"/games/{game_id}/act", data=data)
    text = again.get_data(as_text=True)
    assert again.status_code == 412 and "Someone moved first" in text
    assert "What changed since your page was drawn" in text
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, demo.DEMO_EMAIL)
        view = games.game_view(s, game_id, ann)
        names = {seat["seat"]: seat["name"] if seat["is_bot"] else f"{seat['name']} (seat {seat_letter(seat['seat'])})"
                 for seat in view["seats"]}
        since = games.visible_events(s, game_id, ann, after=version)
    assert since, "the game moved on"
    changes = text[text.index("What changed since"):text.index("</section>", text.index("What changed since"))]
    for event in since:
        assert html.escape(telling.describe_event("en", event, names, "UTC", game_type)) in changes
    assert changes.count("<li>") == len(since)
    assert "The table" in text, "with the game as it is now"
