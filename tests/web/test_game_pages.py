"""The game pages: what a player and a spectator see, and playing through the forms."""

from __future__ import annotations

import html
import json
import re

import pytest

from engine import registry
from service import demo
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game, User
from tests.service import fake_game
from tests.web.support import csrf_from, sign_in_with
from service.words.seat_marks import seat_letter


@pytest.fixture
def count_game_type(monkeypatch):
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")


@pytest.fixture
def demo_game(web_sessions, web_config) -> str:
    with web_sessions() as s:
        _user, game = demo.create_demo_game(s, web_config)
        s.commit()
        return game.id


def hidden_card_ids(web_sessions, game_id: str, viewer) -> set[str]:
    """Ids of cards in other players' hands (and draws) that ``viewer`` must not see."""
    with web_sessions() as s:
        game = s.get(Game, game_id)
        rules = store.rules_of(game)
        state = store.load_state(s, game, rules=rules)
        mine = rules.view(state, viewer)
        seen = {c["id"] for c in _cards(mine)}
        hidden = set()
        for seat in range(game.seat_count):
            if seat == viewer:
                continue
            me = rules.view(state, seat)["me"]
            hidden |= {c["id"] for c in me["hand"] + me["drawn"]}
        return hidden - seen


def _cards(value):
    if isinstance(value, dict):
        if "id" in value and "category" in value:
            yield value
        for v in value.values():
            yield from _cards(v)
    elif isinstance(value, list):
        for v in value:
            yield from _cards(v)


def shown_card_ids(page: str) -> set[str]:
    return set(re.findall(r'class="card[^"]*" title="([^"]+)"', page))


def option_forms(page: str) -> list[tuple[str, dict]]:
    """(version, command) of every option button on a game page."""
    forms = re.findall(r'name="version" value="(\d+)">\s*<input type="hidden" name="command" value="([^"]+)"', page)
    return [(v, json.loads(c.replace("&#34;", '"').replace("&quot;", '"'))) for v, c in forms]


# --------------------------------------------------------------------------- PAX, against bots


def test_a_player_sees_their_hand_and_decisions_but_no_other_hand(client, sign_in, demo_game, web_sessions):
    assert sign_in(demo.DEMO_EMAIL, next=f"/games/{demo_game}") == f"/games/{demo_game}"
    page = client.get(f"/games/{demo_game}").data.decode()
    assert "Your hand" in page and "Legion I" in page and "Rome" in page
    with web_sessions() as s:
        decisions = games.decisions_for(s, demo_game, s.get(User, auth.get_or_create_user(s, demo.DEMO_EMAIL).id))
    assert decisions and all(html.escape(d["prompt"]) in page for d in decisions), "open decisions are shown"
    assert option_forms(page), "each option is a button"
    hidden = hidden_card_ids(web_sessions, demo_game, 0)
    assert hidden, "the other seats hold cards"
    assert not shown_card_ids(page) & hidden
    assert page.count("Gold:") == 1


@pytest.mark.parametrize("who", ["anonymous", "not seated"])
def test_a_spectator_sees_no_hand_at_all(app, demo_game, web_sessions, who):
    client = app.test_client()
    if who == "not seated":
        sign_in_with(app, client, "eve@example.org")
    page = client.get(f"/games/{demo_game}").data.decode()
    assert "Your hand" not in page and "Gold:" not in page
    assert 'name="command"' not in page, "a spectator has nothing to decide"
    every_hand = hidden_card_ids(web_sessions, demo_game, None)
    assert every_hand and not shown_card_ids(page) & every_hand


def test_playing_an_option_moves_the_game(client, sign_in, demo_game, web_sessions):
    sign_in(demo.DEMO_EMAIL)
    page = client.get(f"/games/{demo_game}").data.decode()
    version, command = option_forms(page)[0]
    answer = client.post(f"/games/{demo_game}/act",
                         data={"csrf_token": csrf_from(page), "version": version, "command": json.dumps(command)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/games/{demo_game}")
    with web_sessions() as s:
        assert s.get(Game, demo_game).version > int(version)


def test_a_stale_page_says_someone_moved_first(client, sign_in, demo_game, web_sessions):
    sign_in(demo.DEMO_EMAIL)
    page = client.get(f"/games/{demo_game}").data.decode()
    (version, first), *_ = option_forms(page)
    client.post(f"/games/{demo_game}/act",
                data={"csrf_token": csrf_from(page), "version": version, "command": json.dumps(first)})
    with web_sessions() as s:
        now = s.get(Game, demo_game).version
    again = client.post(f"/games/{demo_game}/act",
                        data={"csrf_token": csrf_from(page), "version": version, "command": json.dumps(first)})
    assert again.status_code == 412
    assert "Someone moved first" in again.data.decode()
    assert "The table" in again.data.decode(), "the new state is shown with the message"
    with web_sessions() as s:
        assert s.get(Game, demo_game).version == now


@pytest.mark.parametrize("command, message", [
    ("not json", "unreadable answer"),
    ('["keep_card"]', "unreadable answer"),
    ('{"type": "keep_card", "args": {"card": "NOPE"}}', "not among the legal options"),
])
def test_a_refused_answer_is_explained_on_the_page(client, sign_in, demo_game, web_sessions, command, message):
    sign_in(demo.DEMO_EMAIL)
    page = client.get(f"/games/{demo_game}").data.decode()
    version = option_forms(page)[0][0]
    answer = client.post(f"/games/{demo_game}/act",
                         data={"csrf_token": csrf_from(page), "version": version, "command": command})
    assert answer.status_code in (409, 422)
    assert message in answer.data.decode()
    with web_sessions() as s:
        assert s.get(Game, demo_game).version == int(version)


def test_acting_needs_a_signed_in_player(app, client, sign_in, demo_game):
    page = client.get("/signin").data.decode()
    answer = client.post(f"/games/{demo_game}/act", data={"csrf_token": csrf_from(page), "version": "1",
                                                         "command": '{"type": "keep_card", "args": {}}'})
    assert answer.status_code == 303 and "/signin?next=" in answer.headers["Location"]
    sign_in("eve@example.org")
    page = client.get(f"/games/{demo_game}").data.decode()
    answer = client.post(f"/games/{demo_game}/act", data={"csrf_token": csrf_from(page), "version": "1",
                                                         "command": '{"type": "keep_card", "args": {}}'})
    assert answer.status_code == 403 and "no seat" in answer.data.decode()


def test_my_games_lists_games_awaiting_me(client, sign_in, demo_game):
    sign_in(demo.DEMO_EMAIL)
    page = client.get("/games").data.decode()
    assert f"/games/{demo_game}" in page and "your move" in page


def test_my_games_needs_sign_in(client):
    answer = client.get("/games")
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/signin?next=/games")


def test_an_unknown_game_is_404(client):
    assert client.get("/games/no-such-game").status_code == 404


# --------------------------------------------------------------------------- a schema decision, two humans


@pytest.fixture
def count_game(count_game_type, web_sessions, web_config) -> str:
    """A two-seat count game to 8, created by ann with bob invited (so still open)."""
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        game = games.create_game(s, web_config, creator=ann, game_type=fake_game.NAME, options={"target": 8},
                                 seats=2, invites=["bob@example.org"])
        s.commit()
        return game.id


def secrets_of(web_sessions, game_id) -> list[str]:
    with web_sessions() as s:
        game = s.get(Game, game_id)
        state = store.load_state(s, game)
        return [fake_game.secret_token(seat, value) for seat, value in enumerate(state.secrets)]


def play_n(client, game_id, n) -> tuple[int, str]:
    page = client.get(f"/games/{game_id}").data.decode()
    version = re.search(r'name="version" value="(\d+)">\s*<input type="hidden" name="decision_id" value="([^"]+)"',
                        page)
    assert version, "the schema decision is a form"
    answer = client.post(f"/games/{game_id}/act", data={
        "csrf_token": csrf_from(page), "version": version.group(1), "decision_id": version.group(2),
        "arg.n": str(n)})
    return answer.status_code, answer.data.decode()


def test_two_players_play_a_schema_game_to_the_end(app, count_game, web_sessions):
    ann, bob = app.test_client(), app.test_client()
    sign_in_with(app, ann, "ann@example.org")
    sign_in_with(app, bob, "bob@example.org")

    invited = bob.get(f"/games/{count_game}").data.decode()
    assert "Accept the invitation" in invited
    joined = bob.post(f"/games/{count_game}/join", data={"csrf_token": csrf_from(invited)})
    assert joined.status_code == 303

    page = ann.get(f"/games/{count_game}").data.decode()
    assert 'type="number" name="arg.n"' in page and 'min="1"' in page and 'max="3"' in page
    assert "Wave at the table" in page, "free actions are offered too"

    status, page = play_n(ann, count_game, 3)
    assert status == 409 and "nobody adds 3 in the first round" in page
    status, page = play_n(ann, count_game, "three")
    assert status == 422 and "whole number" in page
    status, page = play_n(ann, count_game, 9)
    assert status == 422

    mine, theirs = secrets_of(web_sessions, count_game)
    for _ in range(10):
        with web_sessions() as s:
            if s.get(Game, count_game).status == "finished":
                break
        for client, me, other in ((ann, mine, theirs), (bob, theirs, mine)):
            page = client.get(f"/games/{count_game}").data.decode()
            assert me in page and other not in page, "a player sees only their own secret"
            assert play_n(client, count_game, 2)[0] == 303
    final = ann.get(f"/games/{count_game}").data.decode()
    with web_sessions() as s:
        winner = store.load_state(s, s.get(Game, count_game)).winner
    assert "The game has ended" in final and re.search(
        rf"Won by [^<]+ \(seat {seat_letter(winner)}\)\.|Won by (Bot|Seat) {seat_letter(winner)}\.", final)
    assert 'name="decision_id"' not in final


def test_joining_a_started_game_is_explained(app, count_game, web_sessions):
    bob, eve = app.test_client(), app.test_client()
    sign_in_with(app, bob, "bob@example.org")
    page = bob.get(f"/games/{count_game}").data.decode()
    bob.post(f"/games/{count_game}/join", data={"csrf_token": csrf_from(page)})
    sign_in_with(app, eve, "eve@example.org")
    page = eve.get(f"/games/{count_game}").data.decode()
    assert "Join this game" not in page
    answer = eve.post(f"/games/{count_game}/join", data={"csrf_token": csrf_from(page)})
    assert answer.status_code == 409 and "already started" in answer.data.decode()
