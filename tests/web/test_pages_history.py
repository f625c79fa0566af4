"""The history page: the log as the viewer may see it, one line per event with its time
in the viewer's zone and the acting seat's mark, and the replay of the board at step N."""

from __future__ import annotations

import html
import json
import re

import pytest

from service import demo
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game
from service.words import i18n, seat_marks, telling
from tests.web.pages_play import option_buttons, user
from tests.web.support import csrf_from, sign_in_with, through_confirm
from service.words.seat_marks import seat_letter

_ID = re.compile(r'"id": "([^"]+)"')


@pytest.fixture
def played(app, web_sessions, web_config):
    """The PAX demo game (the demo player against three bots) after three of her moves,
    the demo player in Tokyo; returns the game id and her signed-in client."""
    with web_sessions() as s:
        _user, game = demo.create_demo_game(s, web_config)
        user(s, demo.DEMO_EMAIL, timezone="Asia/Tokyo")
        s.commit()
        game_id = game.id
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    for _ in range(3):
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        first = next((b for b in option_buttons(page) if b["method"] == "post"), None)
        if first is None:
            break
        version = re.search(r'name="version" value="(\d+)"', first["form"]).group(1)
        posted = client.post(f"/games/{game_id}/act", data={"csrf_token": csrf_from(page), "version": version,
                                                             "command": json.dumps(first["command"])})
        through_confirm(client, posted)
    return game_id, client


def _visible(web_sessions, game_id):
    with web_sessions() as s:
        me = auth.get_or_create_user(s, demo.DEMO_EMAIL)
        view = games.game_view(s, game_id, me)
        view["game_type"] = s.get(Game, game_id).game_type
        return games.visible_events(s, game_id, me, after=0, limit=1000), view


def _without_addresses(page: str) -> str:
    """The page without attribute values that carry random tokens (links, CSRF)."""
    return re.sub(r'(href|value|action|id)="[^"]*"', "", page)


def test_the_history_lists_what_the_viewer_may_see_and_nothing_else(played, web_sessions):
    game_id, client = played
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    events, view = _visible(web_sessions, game_id)
    names = {seat["seat"]: seat["name"] if seat["is_bot"] else f"{seat['name']} (seat {seat_letter(seat['seat'])})"
                 for seat in view["seats"]}
    assert page.count('<li id="event-') == len(events)
    for event in events:
        assert html.escape(telling.describe_event("en", event, names, "Asia/Tokyo", view["game_type"])) in page
    assert "Times in Asia/Tokyo" in page
    mark = seat_marks.seat_style(1)
    assert re.search(rf'background: {mark["fill"]}; color: {mark["ink"]}" title="{re.escape(names[1])}">'
                     rf'{mark["mark"]}<', page), "the acting seat's mark"

    with web_sessions() as s:
        game = s.get(Game, game_id)
        raw = {card for r in store.load_events(s, game_id) for card in _ID.findall(json.dumps(r.event.data))}
        seen = {card for e in events for card in _ID.findall(json.dumps(e["data"]))}
        me = auth.get_or_create_user(s, demo.DEMO_EMAIL)
        for seq in range(game.version + 1):
            seen |= set(_ID.findall(json.dumps(games.view_at(s, game_id, me, seq)["board"])))
    secret = raw - seen
    assert secret, "the bots hold cards the demo player never saw"
    text = _without_addresses(page)
    leaked = {card for card in secret if re.search(rf"\b{re.escape(card)}\b", text)}
    assert not leaked, f"other seats' hidden cards on the history page: {leaked}"


def test_the_replay_shows_the_board_at_step_n(played, web_sessions):
    game_id, client = played
    events, view = _visible(web_sessions, game_id)
    dealt = next(e for e in events if e["type"] == "StartCardsDrawn" and e["data"].get("seat") == 0)
    mine = [card["id"] for card in dealt["data"]["cards"]]
    n = dealt["seq"]

    at = client.get(f"/games/{game_id}/history?at={n}").get_data(as_text=True)
    assert f"The board after step {n} of {view['version']}" in at
    assert f'type="range" name="at" min="0" max="{view["version"]}" value="{n}"' in at
    assert f"/games/{game_id}/history?at={n - 1}" in at and f"/games/{game_id}/history?at={n + 1}" in at
    shown = set(re.findall(r'data-card="([^"]+)"', at))
    assert set(mine) <= shown, "the cards just dealt to the player are on the board after that step"

    before = client.get(f"/games/{game_id}/history?at={n - 1}").get_data(as_text=True)
    assert not set(mine) & set(re.findall(r'data-card="([^"]+)"', before))


@pytest.mark.parametrize("at", ["abc", "-1", "999999"])
def test_a_step_that_does_not_exist_is_explained(played, at):
    game_id, client = played
    answer = client.get(f"/games/{game_id}/history?at={at}")
    assert answer.status_code == 400
    assert f"There is no step {at}" in answer.get_data(as_text=True)


def test_the_game_page_links_to_its_history(played):
    game_id, client = played
    assert f"/games/{game_id}/history" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_history_times_read_like_every_other_time_on_the_site(played, web_sessions):
    """The game page writes a deadline "Friday, November 27, 2026, 20:00 (Asia/Tokyo)"; the
    history writes its times the same way (the zone named once above the list)."""
    game_id, client = played
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    events, _view = _visible(web_sessions, game_id)
    times = re.findall(r'<span class="small muted">([^<]+)</span>', page)
    assert len(times) == len(events)
    for event, shown in zip(events, times):
        expected = i18n.format_moment(event["at"], "en", "Asia/Tokyo").rsplit(" (", 1)[0]
        assert shown == expected, shown
        assert re.fullmatch(r"[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}, \d\d:\d\d", shown), shown
    game_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    deadline = re.search(r"Answer by ([^<]+?) \(Asia/Tokyo\)", game_page)
    if deadline:
        assert re.fullmatch(r"[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}, \d\d:\d\d", deadline.group(1))
