"""A whole Spartacus game in the browser: a human against two bots, one round long.

The game's ``max_rounds`` option at its smallest limit (1: the game ends after the first
round's arena) and the quick length keep it to a few minutes of clicking.  Every
decision is answered by the page's buttons or the choices drawn on the board (the
arena's hexes and dice included); the board is photographed in each phase it reaches.
"""

from __future__ import annotations

import pytest

from tests.browser.player import follow_sign_in_link, game_has_ended, open_decision_prompts, play

pytestmark = pytest.mark.browser


def test_a_one_round_spartacus_game_against_two_bots_is_played_to_the_end(page, live_server, inspector):
    _game_id, link = live_server.create_game_against_bots(
        "dominus@example.org", "spartacus", 3, {"max_rounds": 1, "game_length": "quick"})
    follow_sign_in_link(page, link)
    assert page.locator("svg.sp-svg").count(), "the houses are drawn"

    stages: list[str] = []

    def look_at_stages(prompt: str) -> None:
        # the prompt names the phase's decision: one photograph per kind for the first
        # five kinds, then the arena's fight on its hex board, and the end
        if prompt == "ended":
            stages.append("ended")
            inspector.look(page, "spartacus ended")
        elif page.locator("svg.arena-board").count():
            if "arena" not in stages:
                stages.append("arena")
                inspector.look(page, f"spartacus arena: {prompt[:40]}")
        else:
            kind = "".join(c for c in prompt if not c.isdigit())[:40]
            if kind not in stages and len(stages) < 5:
                stages.append(kind)
                inspector.look(page, f"spartacus: {prompt[:40]}")

    answers = play(page, seed=3, timeout=480.0, max_answers=800, on_page=look_at_stages)
    assert game_has_ended(page) and not open_decision_prompts(page)
    assert answers >= 5, f"a round of Spartacus takes more than {answers} answers"
    # (my gladiator fights in the arena only when the host picks it: no stage is certain
    # but the first ones and the end)
    assert len(stages) >= 4 and stages[-1] == "ended", f"the board was seen in several stages: {stages}"
    inspector.assert_accessible()
