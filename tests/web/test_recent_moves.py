"""The game page shows what happened since my previous visit, above the board."""

from __future__ import annotations

import re

from service.identity import auth
from service.play import games
from tests.web.pages_play import bot_game
from tests.web.support import read_text, sign_in_with

HEADING = "Since your last visit"


def _section(page: str) -> str:
    match = re.search(r'<section class="panel recent".*?</section>', page, re.S)
    return read_text(match.group(0)) if match else ""


def test_the_moves_made_while_i_was_away_are_shown_once(app, client, web_sessions, web_config):
    game_id = bot_game(web_sessions, web_config, "pax", 3)
    sign_in_with(app, client, "ann@example.org")

    first = client.get(f"/games/{game_id}").data.decode()
    assert HEADING not in read_text(first), "a first visit has no previous one"

    with web_sessions() as s:  # I answer elsewhere (a mail's link); the bots answer after me
        me = auth.get_or_create_user(s, "ann@example.org")
        decision = next(d for d in games.decisions_for(s, game_id, me) if d["mode"] != "free")
        before = games.game_view(s, game_id, me)["version"]
        games.submit_command(s, web_config, game_id, me, command_type=decision["default"]["type"],
                             args=decision["default"]["args"], expected_version=None)
        s.commit()
        after = games.game_view(s, game_id, me)["version"]
    assert after > before

    again = client.get(f"/games/{game_id}").data.decode()
    recent = _section(again)
    assert recent.startswith(HEADING), recent
    lines = re.findall(r"<li>(.*?)</li>", re.search(r'<section class="panel recent".*?</section>', again, re.S)
                       .group(0), re.S)
    assert 1 <= len(lines) <= min(after - before, 12), lines
    assert not any(re.search(r"\b[A-Z][a-z]+[A-Z]\w+\b", line) for line in lines), "sentences, not event types"
    assert again.index('class="panel recent"') < again.index("<svg"), "above the board"

    third = client.get(f"/games/{game_id}").data.decode()
    assert HEADING not in read_text(third), "nothing new since the last visit"
