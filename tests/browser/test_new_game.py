"""Creating a game through the new-game form, for every game Capua plays.

A signed-in player opens ``/games/new``, picks the game, sets the number of players with
bots in the other seats, picks a clock and creates the game: the form lands on the new
game's page, already running (bots need no invitation), with its board drawn and the
first decision of the creator's (or of a bot's) under way.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.browser.player import sign_in_by_mail, submit

pytestmark = pytest.mark.browser

#: game -> (players, options set in the form).  Spartacus is played by three or four
#: (two only with its variant switched on); the arena is a duel.
GAMES = {
    "pax": (3, {}),
    "rom": (3, {}),
    "spartacus": (3, {"arg.max_rounds": "1"}),
    "spartacus_arena": (2, {}),
}

#: Where each game draws its board: the element the test photographs and expects.
BOARDS = {
    "pax": "svg.pax-rome",
    "rom": ".rom svg.rom-map",
    "spartacus": "svg.sp-svg",
    "spartacus_arena": "svg.arena-board",
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_player_creates_a_game_against_bots_with_the_form(game, page, live_server, inspector):
    players, options = GAMES[game]
    email = f"creator-{game.replace('_', '-')}@example.org"
    sign_in_by_mail(page, live_server, email)

    page.goto(live_server.url("/games/new"))
    if game == "pax":  # the form's two steps are inspected once, not per game
        inspector.look(page, "new game: which game")
    page.locator(f"form input[type=radio][name=game][value='{game}']").check()
    submit(page, page.locator("main form [type=submit]"))
    assert urlsplit(page.url).path == "/games/new" and f"game={game}" in page.url

    for name, value in options.items():
        page.locator(f"main form [name='{name}']").fill(value)
    page.locator("#seats").select_option(str(players))
    assert page.locator("#seat-0-role").input_value() == "me", "the creator takes the first seat"
    for seat in range(1, players):
        page.locator(f"#seat-{seat}-role").select_option("bot")
    page.locator("#clock-hours").select_option("72")
    if game == "pax":
        inspector.look(page, "new game: the settings")
    submit(page, page.locator("main form[method=post] button[type=submit]").last)

    match = re.fullmatch(r"/games/([A-Za-z0-9_-]+)", urlsplit(page.url).path)
    assert match, f"creating the game lands on its page, not on {page.url}"
    game_id = match.group(1)
    assert not page.locator("main [role=alert]").count(), page.locator("main [role=alert]").first.inner_text()
    board = page.locator(BOARDS[game]).first
    board.wait_for()
    assert board.is_visible(), "the new game's board is drawn"
    inspector.look(page, f"{game} board just created")

    page.goto(live_server.url("/games"))
    assert page.locator(f"a[href='/games/{game_id}']").count() == 1, "the new game is listed under my games"
    with live_server.sessions() as session:
        from service.plumbing.db import Game, GameClock, Seat

        row = session.get(Game, game_id)
        assert (row.game_type, row.seat_count, row.status) == (game, players, "running")
        assert sorted(s.seat for s in session.query(Seat).filter_by(game_id=game_id, is_bot=True)) \
            == list(range(1, players)), "every other seat is a bot's"
        assert session.get(GameClock, game_id) is not None and row.clock_hours == 72, "the clock chosen"
        if game == "spartacus":
            assert row.options.get("max_rounds") == 1, "the option set in the form"
    inspector.assert_accessible()


def test_the_time_zone_is_the_browsers_and_the_list_is_searchable(new_page, live_server, inspector):
    """A player who set no time zone finds the browser's chosen; typing narrows the
    grouped list to the places that match, and the first match is chosen."""
    page = new_page(timezone_id="Asia/Tokyo")
    sign_in_by_mail(page, live_server, "zone-finder@example.org")
    page.goto(live_server.url("/games/new?game=pax"))
    zone = page.locator("#clock-zone")
    assert zone.input_value() == "Asia/Tokyo", "the browser's time zone is chosen"
    assert page.locator("#clock-zone optgroup[label='Europe']").count() == 1
    search = page.locator("#clock-zone-search")
    assert search.is_visible()
    search.fill("Buenos")
    assert zone.input_value() == "America/Argentina/Buenos_Aires"
    shown = zone.evaluate("s => [...s.querySelectorAll('option')].filter(o => !o.hidden).map(o => o.value)")
    assert shown and all("Buenos_Aires" in z for z in shown), shown
    inspector.look(page, "new game: a time zone found")
    inspector.assert_accessible()
