"""What a person does in the browser: sign in by mail, open a game, answer decisions.

Every step goes through what the page shows — the forms, buttons and links a player
would use — never around it: a sign-in link is read from the mail as the outbox page
shows it, and an answer is a click on one of the offered buttons (or on a choice drawn
on the board, then its confirm button).  Selectors are the pages' structure (forms,
``section.decision``, ``button.option``), not English words, so the helpers keep
working when the pages are translated.
"""

from __future__ import annotations

import random
import re
import time
from typing import Callable, Optional
from urllib.parse import urlsplit

#: A player's answers: buttons of my decisions, and choices drawn on the board (links to
#: the confirm page ``/games/<id>/choose``).
DECISION = "section.decision"
BOARD_CHOICE = "a[href*='/choose?']"
#: What a page says when it refuses an answer (or anything else).
REFUSAL = "main [role=alert]"
#: What a page shows when someone answered between drawing it and my answer.
MOVED_FIRST = "#changes-h"
#: A decision's prompt: the first heading of its section.
PROMPT = ":is(h2, h3, h4)"

Chooser = Callable[[list[str]], int]


def submit(page, clickable) -> None:
    """Click something that submits a form or follows a link, and wait for the next page."""
    with page.expect_navigation(wait_until="load"):
        clickable.click()


def sign_in_by_mail(page, server, email: str, *, start: str = "/", timeout: float = 15.0,
                    look: Optional[Callable[[str], object]] = None) -> None:
    """Sign in as ``email`` the way a newcomer does it: the sign-in form on ``start``
    (a page showing it: the landing page or ``/signin``), the mail opened in the
    developer outbox, its link followed and confirmed.

    ``look(name)`` is called on each page on the way (e.g. to photograph it).
    """
    note = look or (lambda name: None)
    page.goto(server.url(start))
    note("sign-in form")
    page.locator("form[action$='/signin'] input[type=email]").fill(email)
    submit(page, page.locator("form[action$='/signin'] [type=submit]"))
    assert urlsplit(page.url).path == "/signin/sent", page.url
    note("sign-in link sent")
    open_newest_mail(page, server, to=email, timeout=timeout)
    note("sign-in mail")
    link = page.locator("pre.mail a[href*='/auth/magic/']").first
    follow_sign_in_link(page, link.get_attribute("href"), look=look)


def open_newest_mail(page, server, *, to: str, timeout: float = 15.0) -> None:
    """Open ``/dev/outbox`` and, once the in-process worker has delivered it, the newest
    mail to ``to`` (the outbox lists newest first; reloading is what a person would do)."""
    deadline = time.monotonic() + timeout
    row = None
    while True:
        page.goto(server.url("/dev/outbox"))
        rows = page.locator("tbody tr").filter(has=page.locator("td", has_text=re.compile(rf"^\s*{re.escape(to)}\s*$")))
        if rows.count():
            row = rows.first
            break
        assert time.monotonic() < deadline, f"no mail to {to} reached the outbox within {timeout:.0f}s"
        time.sleep(0.1)
    submit(page, row.locator("a").first)


def follow_sign_in_link(page, link: str, *, look: Optional[Callable[[str], object]] = None) -> None:
    """Open a magic link (from a mail, or the one ``capua demo`` prints) and confirm it."""
    page.goto(link)
    if look:
        look("sign-in confirm")
    submit(page, page.locator("form[action*='/auth/magic/'] [type=submit]"))
    assert signed_in_as(page), f"not signed in after following the link; at {page.url}"


def signed_in_as(page) -> Optional[str]:
    """The address the page header shows for the signed-in visitor, or ``None``."""
    shown = page.locator("header .me span")
    return shown.first.inner_text().strip() if shown.count() else None


def open_game(page, server, game_id: str) -> None:
    """Open a game's page (as whoever the page's browser context is signed in as)."""
    page.goto(server.url(f"/games/{game_id}"))


def game_has_ended(page) -> bool:
    """The outcome panel is shown (only a finished game has one): ``#outcome``, or in the
    English page a panel headed "... ended"."""
    return page.locator("main section.panel h2", has_text=re.compile("ended", re.I)).count() > 0 \
        or page.locator("#outcome").count() > 0


def open_decision_prompts(page) -> list[str]:
    """The prompts of the decisions the page asks me to answer, in order."""
    return [section.locator(PROMPT).first.inner_text().strip() for section in page.locator(DECISION).all()]


def answer_a_decision(page, choose: Chooser) -> str:
    """Answer the first open decision; returns its prompt.

    The candidates are the first decision's option buttons and every choice drawn on the
    board; ``choose(labels)`` picks one by index.  A decision asked as a form (no
    buttons) is sent as the page fills it in, which is the decision's default and so
    always legal.  A refusal shown on the page fails the helper: every offered answer
    must be accepted.
    """
    section = page.locator(DECISION).first
    prompt = section.locator(PROMPT).first.inner_text().strip()
    # a list folded away (the arena's "hexes you can move to") repeats what the board shows
    candidates = [c for c in section.locator("button.option").all() + page.locator(BOARD_CHOICE).all()
                  if c.is_visible()]
    if candidates:
        labels = [_label_of(c) for c in candidates]
        chosen = candidates[choose(labels)]
        on_board = chosen.evaluate("e => e.tagName.toLowerCase() !== 'button'")
        if on_board:
            # a hex's centre may lie under a neighbouring token's attack label; a person
            # clicks the hex where it shows, which follows the same link
            with page.expect_navigation(wait_until="load"):
                chosen.dispatch_event("click")
        else:
            submit(page, chosen)
        if on_board and not page.locator(MOVED_FIRST).count():
            # the confirm page of a choice made on the board: one button POSTs it
            submit(page, page.locator(f"{DECISION} form [type=submit]").first)
    else:
        submit(page, section.locator("form [type=submit]").last)
    refused = page.locator(REFUSAL)
    # A bot that answered between drawing the page and the click makes the page say so
    # and show what changed: a person reads it and answers again, so does the caller.
    assert not refused.count() or page.locator(MOVED_FIRST).count(), \
        f"answering {prompt!r} was refused: {refused.first.inner_text()}"
    return prompt


def play(page, *, until: Callable[[object], bool] = game_has_ended, seed: int = 0, max_answers: int = 600,
         timeout: float = 110.0, on_page: Optional[Callable[[str], object]] = None) -> int:
    """Answer the decisions of the game open in ``page`` until ``until(page)`` holds —
    by default until the game's outcome is shown.

    Picks among the offered answers at random (``seed`` makes a run repeatable as far as
    the game's own dealing allows).  When nothing is mine to answer yet (someone else's
    deadline, a worker still busy) it reloads, as a person would.  ``on_page(prompt)``
    is called before each answer (with ``"ended"`` once the game has ended).  Fails
    after ``max_answers`` answers or ``timeout`` seconds; returns the answers given.
    """
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    answers = 0
    while not until(page):
        assert answers < max_answers, f"still playing after {max_answers} answers"
        assert time.monotonic() < deadline, f"still playing after {timeout:.0f}s ({answers} answers)"
        assert not game_has_ended(page), f"the game ended after {answers} answers, before the goal was reached"
        prompts = open_decision_prompts(page)
        if not prompts:
            time.sleep(0.2)
            page.reload()
            continue
        if on_page:
            on_page(prompts[0])
        answer_a_decision(page, lambda labels: rng.randrange(len(labels)))
        answers += 1
    if on_page and game_has_ended(page):
        on_page("ended")
    return answers


def _label_of(element) -> str:
    """What the element says: its text, else its accessible name (SVG links may have no text)."""
    return element.evaluate("e => ((e.innerText ?? e.textContent ?? '').trim() || e.getAttribute('aria-label') || '')")


def choose_on_board(page, choice) -> None:
    """Click a choice drawn on the board (a link to the confirm page) and press the
    confirm page's button, as a player confirms a hex, a die or a track section."""
    submit(page, choice)
    assert urlsplit(page.url).path.endswith("/choose"), f"a board choice opens its confirm page, not {page.url}"
    submit(page, page.locator(f"{DECISION} form [type=submit]").first)
    refused = page.locator(REFUSAL)
    assert not refused.count(), f"the board choice was refused: {refused.first.inner_text()}"


def wait_for_a_decision(page, *, timeout: float = 30.0) -> None:
    """Reload (as a person would) until the page asks me something or the game has ended."""
    deadline = time.monotonic() + timeout
    while not open_decision_prompts(page) and not game_has_ended(page):
        assert time.monotonic() < deadline, f"nothing to answer within {timeout:.0f}s at {page.url}"
        time.sleep(0.2)
        page.reload()


def switch_language(page, code: str) -> None:
    """Choose the page language ``code`` with the header's language switcher."""
    submit(page, page.locator(f"header form.languages button[value='{code}']"))
    assert page.locator("html").get_attribute("lang") == code, f"the page is not in {code} after switching"
