"""An arena turn in the browser: the hex board stays on the first screen, its hexes show
their coordinates and a key explains the marks, and a move chosen on the board or from
the compact list beside it is confirmed the same way.

A turn offers 36 to 48 hexes to move to; drawn as one button each they pushed the board
1,700 px down the page.  The test measures where the board is drawn, at a phone's and a
desktop's size, as a person sees the page on opening it.
"""

from __future__ import annotations

import random
from urllib.parse import urlsplit

import pytest

from service.identity import auth
from service.play import games
from tests.browser.player import DECISION, follow_sign_in_link, open_game, submit

pytestmark = pytest.mark.browser

PLAYER = "hex-mover@example.org"
#: Screen sizes, and how far down the first screen the board may start (it started
#: 1,700 px down, below two screens and more).
SCREENS = {"phone": ({"width": 360, "height": 740}, 0.9), "desktop": ({"width": 1280, "height": 800}, 0.7)}


def _turn_with_moves(server, game_id: str, rng: random.Random, limit: int = 200) -> dict:
    """Answer my fight's decisions until my turn offers more moves than fit as buttons
    (blow by blow: no fight plan, which would answer the turn for me)."""
    for _ in range(limit):
        with server.sessions() as s:
            me = auth.get_or_create_user(s, PLAYER)
            mine = [d for d in games.decisions_for(s, game_id, me) if d["mode"] != "free"]
            turn = next((d for d in mine if d.get("prompt_key") == "spartacus_arena.turn"
                         and sum(o["type"] == "move" for o in d.get("options") or ()) > 8), None)
            if turn is not None:
                return turn
            assert mine, "the fight ended before my turn offered moves"
            d = mine[0]
            if d.get("options") is None:  # the duel's first question: fight blow by blow
                command = {"type": "set_fight_plan", "args": {"active": False}}
            else:
                no_move = [o for o in d["options"] if o["type"] != "move"]
                command = rng.choice(no_move or d["options"])
            games.submit_command(s, server.config, game_id, me, command_type=command["type"],
                                 args=command["args"], expected_version=None)
            s.commit()
    raise AssertionError("my turn never offered moves")


def test_the_board_is_on_the_first_screen_and_moves_confirm_alike(new_page, live_server, inspector):
    for attempt in range(6):
        game_id, link = live_server.create_game_against_bots(PLAYER, "spartacus_arena", 2)
        try:
            turn = _turn_with_moves(live_server, game_id, random.Random(attempt))
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("six fights ended before my turn offered moves")
    moves = sum(o["type"] == "move" for o in turn["options"])
    page = new_page()
    follow_sign_in_link(page, link)

    for name, (size, share) in SCREENS.items():
        page.set_viewport_size(size)
        open_game(page, live_server, game_id)
        board = page.locator("svg.arena-board").bounding_box()
        assert board is not None, "the hex board is drawn"
        assert board["y"] < size["height"] * share, f"{name}: the board starts {board['y']:.0f} px down"
        print(f"{name}: board top at {board['y']:.0f} px of {size['height']} ({moves} moves)")
    inspector.look(page, "arena: a turn with moves")

    # every move is in one list, not a button each
    choice = page.locator(f"{DECISION} form.choice-list")
    assert choice.count() == 1 and choice.locator("select option").count() == moves
    assert page.locator(f"{DECISION} button.option").count() < 10, "no wall of buttons"
    # every hex shows its coordinates, and the key explains the marks (I and II: the starts)
    hexes = page.locator("svg.arena-board polygon").count()
    coordinates = page.locator("svg.arena-board text.hex-coord").all_text_contents()
    assert len(coordinates) == hexes and "0,0" in coordinates
    key = page.locator(".arena-key").inner_text()
    assert "I and II" in key and "coordinates" in key

    # a move picked from the list opens the confirm page that a board click opens
    option = choice.locator("select option").nth(1)
    target = option.inner_text()
    choice.locator("select").select_option(index=1)
    submit(page, choice.locator("button"))
    assert urlsplit(page.url).path.endswith("/choose")
    from_list = page.locator(f"{DECISION}").inner_text()
    assert target in from_list
    page.go_back()
    hex_link = page.locator("a.hex-target").first
    label = hex_link.get_attribute("aria-label")
    submit(page, hex_link)
    assert urlsplit(page.url).path.endswith("/choose")
    from_board = page.locator(f"{DECISION}").inner_text()
    assert label in from_board
    assert from_board.replace(label, "<move>") == from_list.replace(target, "<move>"), \
        "a board click and the list confirm alike"
    submit(page, page.locator(f"{DECISION} form [type=submit]").first)
    assert urlsplit(page.url).path == f"/games/{game_id}"
    assert not page.locator("main [role=alert]").count()
    inspector.assert_accessible()
