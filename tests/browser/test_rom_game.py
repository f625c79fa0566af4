"""Rom: Rise to Power in the browser: a power die placed by clicking a track section on
the board, then the whole game against two bots to its final scoring."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.browser.player import (BOARD_CHOICE, answer_a_decision, choose_on_board, follow_sign_in_link,
                                  game_has_ended, open_decision_prompts, play, wait_for_a_decision)

pytestmark = pytest.mark.browser

#: A die drawn dashed under a track section: where one of my dice would land (a choice).
SECTION_CHOICE = "section.rom-track svg a.rom-choice"
#: The sections of a track as its drawing's title names them: "I: A 3+4; II: free; ...".
_SECTION = re.compile(r"\b([IVX]+): ([^;]*)")


def _sections(page, track: str) -> list[str]:
    """What each section of ``track`` holds, in order ("A 3+4", or "free")."""
    title = page.locator(f"#rom-track-{track}-title").text_content()
    return [re.sub(r"\s+", " ", held).strip() for _roman, held in _SECTION.findall(title.split(":", 1)[1])]


_SECTION_OF_GHOST = """g => {
  const x = +g.querySelector('rect').getAttribute('x');
  const sections = [...g.ownerSVGElement.querySelectorAll(':scope > rect[height="44"]')];
  return sections.findIndex(s => x >= +s.getAttribute('x') && x < +s.getAttribute('x') + +s.getAttribute('width'));
}"""


def test_a_die_is_placed_by_clicking_a_track_section_and_the_game_is_played_to_the_end(page, live_server,
                                                                                         inspector):
    email = "rom-player@example.org"
    _game_id, link = live_server.create_game_against_bots(email, "rom", 3)
    follow_sign_in_link(page, link)
    rng = random.Random(7)

    # Play on (by the page's buttons) until the board offers my dice on the tracks.
    deadline = time.monotonic() + 60
    while not page.locator(SECTION_CHOICE).count():
        assert time.monotonic() < deadline, "no die of mine to place within a minute"
        assert not game_has_ended(page)
        wait_for_a_decision(page)
        if not page.locator(SECTION_CHOICE).count():
            answer_a_decision(page, lambda labels: rng.randrange(len(labels)))
    inspector.look(page, "rom board: dice to place")

    ghost = page.locator(SECTION_CHOICE).first
    label = ghost.get_attribute("aria-label")
    track = ghost.evaluate("a => a.closest('section.rom-track').id.replace('rom-track-', '')")
    section = ghost.evaluate(_SECTION_OF_GHOST)
    value = int(re.search(r"\d+", label).group())  # "Place a 3 on the senate track"
    before = _sections(page, track)
    assert section >= 0 and before[section], f"the dashed die {label!r} lies under a section of {track}"
    choose_on_board(page, ghost)

    after = _sections(page, track)
    # the bots answer at once and a later, smaller die may push mine one section on: the
    # die is on the track as mine (A, the first seat's letter) with its value
    mine_before = [v for held in before if held.startswith("A ") for v in held.split(" ", 1)[1].split("+")]
    mine_after = [v for held in after if held.startswith("A ") for v in held.split(" ", 1)[1].split("+")]
    assert sorted(mine_after) == sorted(mine_before + [str(value)]), \
        f"my die is on the {track} track after {label!r}: {before} -> {after}"
    inspector.look(page, "rom board: a die placed")

    stages: set[str] = set()

    def look_at_phases(prompt: str) -> None:
        status = page.locator(".rom-status dd")
        if prompt != "ended" and not status.count():
            return  # a confirm page, not the board
        phase = status.first.inner_text().split("·")[-1].strip() if prompt != "ended" else "ended"
        if phase not in stages and len(stages) < 4:
            stages.add(phase)
            inspector.look(page, f"rom board: {phase}")

    answers = play(page, seed=11, timeout=300.0, on_page=look_at_phases)
    assert game_has_ended(page) and not open_decision_prompts(page)
    assert answers >= 10, f"a Rom game takes more than {answers} answers"
    assert page.locator(BOARD_CHOICE).count() == 0, "a finished game offers nothing to click"
    inspector.assert_accessible()
