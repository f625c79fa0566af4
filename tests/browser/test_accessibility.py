"""Every page a player reaches passes axe-core's rules (nothing serious or critical) and
fits a 360 px phone screen; each is photographed at phone and desktop width.

The pages met on the way through a sign-in and a whole game are checked by those tests
(``test_sign_in``, ``test_pax_game``); this module covers the rest, each page as its own
test so that a report names every page with problems.  To check a new page, add a row
to ``PAGES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from service import demo
from tests.browser.player import follow_sign_in_link

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Table:
    """What the pages are shown about: the demo player's running PAX game."""

    game_id: str
    player_state: dict  # the signed-in browser's cookies (Playwright storage state)


@dataclass(frozen=True)
class Visit:
    name: str
    path: Callable[[Table, object], str]  # (table, live server) -> path
    signed_in: bool = True


PAGES = [
    Visit("landing", lambda t, s: "/", signed_in=False),
    Visit("landing signed in", lambda t, s: "/"),
    Visit("sign-in form", lambda t, s: "/signin?next=/games", signed_in=False),
    Visit("my games", lambda t, s: "/games"),
    Visit("game as its player", lambda t, s: f"/games/{t.game_id}"),
    Visit("game as a spectator", lambda t, s: f"/games/{t.game_id}", signed_in=False),
    Visit("confirm a choice made on the board", lambda t, s: s.choice_path(t.game_id, demo.DEMO_EMAIL)),
    Visit("notification settings", lambda t, s: "/settings/notifications"),
    Visit("vacation settings", lambda t, s: "/settings/vacation"),
    Visit("webhooks", lambda t, s: "/settings/webhooks"),
    Visit("standing orders", lambda t, s: "/settings/standing-orders"),
    Visit("mail outbox", lambda t, s: "/dev/outbox", signed_in=False),
    Visit("page not found", lambda t, s: "/games/no-such-game", signed_in=False),
]


@pytest.fixture(scope="module")
def table(browser, live_server) -> Table:
    """A PAX game against bots, and a browser signed in as its human player by the link
    ``capua demo`` prints."""
    game_id, link = live_server.create_demo_game()
    context = browser.new_context(locale="en-US")
    try:
        follow_sign_in_link(context.new_page(), link)
        return Table(game_id, context.storage_state())
    finally:
        context.close()


@pytest.mark.parametrize("visit", PAGES, ids=[v.name for v in PAGES])
def test_the_page_is_accessible_and_fits_a_phone(visit, table, new_page, live_server, inspector):
    page = new_page(storage_state=table.player_state if visit.signed_in else None)
    page.goto(live_server.url(visit.path(table, live_server)))
    assert (page.locator("header .me span").count() > 0) == visit.signed_in, "signed in as the visit says"
    inspector.look(page, visit.name)
    inspector.assert_accessible()
