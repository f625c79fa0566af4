"""A Spartacus arena duel in the browser: invited by another player, accepted on My games,
fought to the end by clicking the hex board.

Another player sets up the duel (a bot fights as I, the test's player is invited to II)
the way ``POST /api/v1/games`` does; the invited player signs in by mail, accepts the
invitation with My games' button, and fights: a hex drawn as a move target, the
opponent's token to attack it, and — when wounds are to be allocated — a die on their
own fighter, each confirmed on the confirm page.  Other decisions (initiative, rerolls)
are answered with the page's buttons; to the duel's first question the player answers
"blow by blow" (no fight plan), so that every decision of the fight is the player's own.
"""

from __future__ import annotations

import random
import time
from urllib.parse import urlsplit

import pytest

from tests.browser.player import (BOARD_CHOICE, DECISION, answer_a_decision, choose_on_board, game_has_ended,
                                  open_decision_prompts, sign_in_by_mail, submit, wait_for_a_decision)

pytestmark = pytest.mark.browser

MY_FIGHTER = ".arena-fighter[data-side='II']"
#: The lanista's choice of fighters: the champion Theokoles (the bot's) against a murmillo
#: (mine), so that my fighter is wounded soon and often (with Spartacus against Crixus,
#: the defaults, a whole duel may pass without a wound for me to allocate).
DUEL = {"fighter_i": "theokoles", "fighter_ii": "murmillo"}
#: The distance from each hex a move may end on to the opponent's (I's) token, in board units.
_HEX_DISTANCES = """() => {
  const them = document.querySelector(".token[data-side='I'] .token-disc");
  const tx = +them.getAttribute('cx'), ty = +them.getAttribute('cy');
  return [...document.querySelectorAll('a.hex-target .target-dot')].map(
    c => Math.hypot(+c.getAttribute('cx') - tx, +c.getAttribute('cy') - ty));
}"""


def _pool_count(page, pool: str) -> int:
    return int(page.locator(f"{MY_FIGHTER} .pool-{pool} .pool-name strong").inner_text())


def _fight(page, inspector, rng: random.Random, tally: dict, *, timeout: float = 90.0) -> None:
    """Fight the duel open in ``page`` to its end, by board clicks where the board offers them."""
    deadline = time.monotonic() + timeout
    chose_blow_by_blow = False
    while True:
        wait_for_a_decision(page)
        if game_has_ended(page):
            return
        assert time.monotonic() < deadline, f"the duel still runs after {timeout:.0f}s: {tally}"
        plan = page.locator(f"{DECISION}:has(input[name='arg.active'])")
        if plan.count() and not chose_blow_by_blow:
            # the duel's first question: a plan, or blow by blow; this player fights every blow
            # (the plan stays changeable as a free action: it is answered once)
            plan.first.locator("input[name='arg.active']").uncheck()
            submit(page, plan.first.locator("form [type=submit]").last)
            chose_blow_by_blow = True
            tally["other"] += 1
            continue
        dice = page.locator(f"{MY_FIGHTER} a.die-link")
        attack = page.locator("a.attack-target")
        hexes = page.locator("a.hex-target")
        if dice.count():
            die = dice.nth(rng.randrange(dice.count()))
            pool = die.evaluate("a => a.closest('.pool').className.match(/pool-(\\w+)/)[1]")
            before = _pool_count(page, pool)
            if not tally["wounds"]:
                inspector.look(page, "arena: wounds to allocate")
            choose_on_board(page, die)
            tally["wounds"] += 1
            if not game_has_ended(page):
                assert _pool_count(page, pool) < before, f"the clicked {pool} die is lost"
        elif attack.count():
            choose_on_board(page, attack.first)
            tally["attacks"] += 1
        elif hexes.count():
            if not tally["moves"]:
                inspector.look(page, "arena: hexes to move to")
            distances = page.evaluate(_HEX_DISTANCES)
            nearest = min(range(len(distances)), key=lambda i: (distances[i], rng.random()))
            choose_on_board(page, hexes.nth(nearest))
            tally["moves"] += 1
        else:
            _answer_by_buttons(page, rng)
            tally["other"] += 1


def _answer_by_buttons(page, rng: random.Random) -> None:
    """Answer the first decision that offers buttons (initiative, rerolls, order), or a
    choice drawn beside the board; never the fight-plan form, which would answer every
    later decision of the fight by itself (and leave no wound for me to allocate)."""
    for section in page.locator(DECISION).all():
        buttons = section.locator("button.option")
        if buttons.count():
            submit(page, buttons.nth(rng.randrange(buttons.count())))
            confirm = page.locator(f"{DECISION} form:has(input[name=confirmed]) [type=submit]")
            if confirm.count():  # an irreversible answer is shown on its confirm page first
                submit(page, confirm.first)
            return
    links = [link for link in page.locator(BOARD_CHOICE).all() if link.is_visible()]
    if links:
        choose_on_board(page, links[rng.randrange(len(links))])
    else:
        answer_a_decision(page, lambda labels: rng.randrange(len(labels)))


def test_an_invited_player_accepts_a_duel_and_fights_it_on_the_hex_board(page, live_server, inspector):
    email = "invited-gladiator@example.org"
    sign_in_by_mail(page, live_server, email)
    rng = random.Random(20261126)
    tally = {"wounds": 0, "attacks": 0, "moves": 0, "other": 0}
    duels = 0
    # The dice are the server's, not seeded: a duel may end before my fighter is wounded
    # with a choice to make, or before my turn offers a move on the board, so another player
    # invites me again (at most eight duels: a wound is often one that leaves no choice).
    while duels < 8 and not (tally["wounds"] and (tally["moves"] or tally["attacks"])):
        duels += 1
        game_id = live_server.invite_to_duel("lanista@example.org", email, DUEL)
        page.goto(live_server.url("/games"))
        entry = page.locator("main ul.game-list > li").filter(
            has=page.locator(f"a[href='/games/{game_id}']")).last
        if duels == 1:
            inspector.look(page, "my games: an invitation to a duel")
        submit(page, entry.locator(f"form[action$='/games/{game_id}/join'] [type=submit]"))
        page.goto(live_server.url(f"/games/{game_id}"))
        assert page.locator("svg.arena-board").count() == 1, "the duel's hex board is drawn"
        assert page.locator(".token[data-side='II']").count() == 1, "my fighter's token is on the board"
        _fight(page, inspector, rng, tally)
        assert game_has_ended(page) and not open_decision_prompts(page), "the fight ended"
        if duels == 1:
            inspector.look(page, "arena: the fight ended")
    assert tally["wounds"], f"in {duels} duels my fighter never had wounds to allocate: {tally}"
    assert tally["moves"] or tally["attacks"], f"the fights were fought on the board: {tally}"
    assert urlsplit(page.url).path.startswith("/games/")
    inspector.assert_accessible()
