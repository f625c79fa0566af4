"""The rest of the site checked in English, German and Russian: axe-core's rules (nothing
serious or critical) and a 360 px phone screen without sideways scrolling.

Pages: the new-game form (its list and each game's settings), a game's history with the
replay slider moved, the rules (index, each game's short rules, Capua's full rules), the
card catalogues, the settings, the API tokens after making one, and the board of a
running game of each kind.  Each language is one player who switches the page language
with the header's switcher (the choice is saved on the account, so each language has its
own player), then visits the pages by their links where a person would follow them.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.player import follow_sign_in_link, submit, switch_language

pytestmark = pytest.mark.browser

GAMES = {"pax": 3, "rom": 3, "spartacus": 3, "spartacus_arena": 2}
#: Where each game's board is drawn (present on the running game's page).
BOARDS = {"pax": "svg.pax-rome", "rom": "svg.rom-map", "spartacus": "svg.sp-svg", "spartacus_arena": "svg.arena-board"}


def _links(page, prefix: str) -> list[str]:
    """The distinct paths of the page's main links under ``prefix`` (one level deeper), in order."""
    seen: list[str] = []
    for href in page.locator(f"main a[href^='{prefix}']").evaluate_all("as => as.map(a => a.getAttribute('href'))"):
        path = urlsplit(href).path
        if path.startswith(prefix) and path.count("/") == prefix.count("/") and path not in seen:
            seen.append(path)
    return seen


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_site_pages_are_accessible_and_fit_a_phone(language, new_page, live_server, inspector):
    email = f"visitor-{language}@example.org"
    boards = {game: live_server.create_game_against_bots(email, game, seats)[0] for game, seats in GAMES.items()}
    page = new_page()
    follow_sign_in_link(page, live_server.sign_in_link(email, "/settings"))
    if language != "en":
        switch_language(page, language)
    assert page.locator("html").get_attribute("lang") == language
    look = lambda name: inspector.look(page, f"{language} {name}")  # noqa: E731 - a short alias

    look("settings")
    page.goto(live_server.url("/settings/tokens"))
    page.locator("#token-name").fill("my bot")
    submit(page, page.locator("main form[action$='/settings/tokens'] [type=submit]"))
    assert page.locator("#new-token").count() == 1, "the new token is shown once"
    look("api tokens with a new token")

    page.goto(live_server.url("/games/new"))
    look("new game: which game")
    for game in GAMES if language == "en" else ["spartacus"]:
        page.locator(f"form input[type=radio][name=game][value='{game}']").check()
        submit(page, page.locator("main form [type=submit]"))
        look(f"new game: {game} settings")
        page.go_back()

    page.goto(live_server.url("/rules"))
    look("rules")
    rules = _links(page, "/rules/")
    assert set(rules) >= {f"/rules/{g}" for g in GAMES}, rules
    for path in rules:
        page.goto(live_server.url(path))
        look(f"rules {path.rsplit('/', 1)[1]}")
    # Capua's full rules are English documents; in German and Russian one is enough
    for path in rules if language == "en" else rules[:1]:
        page.goto(live_server.url(path))
        submit(page, page.locator(f"main a[href='{path}/full']").first)
        look(f"full rules {path.rsplit('/', 1)[1]}")

    page.goto(live_server.url("/cards"))
    look("cards")
    catalogues = _links(page, "/cards/")
    assert catalogues, "the card catalogues are listed"
    for path in catalogues:
        page.goto(live_server.url(path))
        look(f"cards {path.rsplit('/', 1)[1]}")

    for game, game_id in boards.items():
        page.goto(live_server.url(f"/games/{game_id}"))
        assert page.locator(BOARDS[game]).count(), f"the {game} board is drawn"
        look(f"{game} board")

    page.goto(live_server.url(f"/games/{boards['spartacus']}/history"))
    slider = page.locator("#replay-at")
    steps = int(slider.get_attribute("max"))
    assert steps >= 2, "the game has a history to replay"
    slider.fill(str(steps // 2))
    submit(page, page.locator("main form.replay-form [type=submit]"))
    assert f"at={steps // 2}" in page.url and slider.input_value() == str(steps // 2)
    look("history, replayed to the middle")

    inspector.assert_accessible()
