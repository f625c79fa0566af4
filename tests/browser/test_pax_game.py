"""A whole PAX game in a real browser: a human against three bots, to the outcome."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.player import follow_sign_in_link, game_has_ended, open_decision_prompts, play

pytestmark = pytest.mark.browser


def test_a_newcomer_plays_the_demo_pax_game_to_the_end(page, live_server, inspector):
    """What ``capua demo`` offers: its link signs the newcomer in onto a running PAX game
    against three bots; answering every decision by clicking the page's buttons (the
    bots answer in between) ends the game with its outcome shown.  Each kind of decision
    and the end are photographed and checked for accessibility once."""
    game_id, link = live_server.create_demo_game()

    follow_sign_in_link(page, link, look=lambda name: inspector.look(page, name))
    assert urlsplit(page.url).path == f"/games/{game_id}"
    assert open_decision_prompts(page), "the demo game starts with a decision for the newcomer"

    seen: set[str] = set()

    def look_once(prompt: str) -> None:
        # prompts differ by their numbers ("costs 2 aurei"); one look per kind is enough
        kind = "".join(c for c in prompt if not c.isdigit())
        if kind not in seen:
            seen.add(kind)
            inspector.look(page, f"game: {prompt}" if prompt != "ended" else "game ended")

    # a newcomer's game must be quick to click through: the helper fails after 100 s
    answers = play(page, seed=20261126, timeout=300.0, on_page=look_once)

    assert game_has_ended(page)
    assert not open_decision_prompts(page), "a finished game asks nothing"
    assert answers >= 10, f"a PAX game takes more than {answers} answers"
    page.goto(live_server.url("/games"))
    assert page.locator(f"a[href='/games/{game_id}']").count() == 1, "the game is listed under my games"
    inspector.look(page, "my games")
    inspector.assert_accessible()
