"""The new-game form read as a player reads it: every option shows its default (never an
empty "—"), no help repeats its label, card-data fields for developers are folded away
under "Advanced", and the time zones come grouped by region, the browser's preselected."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_play import user
from tests.web.support import read_text, sign_in_with

GAMES = ("pax", "spartacus", "rom", "spartacus_arena")


def _section(page: str, start: str, end: str) -> str:
    return page[page.index(start):page.index(end, page.index(start))]


@pytest.mark.parametrize("game", GAMES)
def test_options_show_their_defaults_and_say_nothing_twice(app, client, game):
    sign_in_with(app, client, "ann@example.org")
    page = client.get(f"/games/new?game={game}").get_data(as_text=True)
    options = _section(page, 'id="options-h"', "</section>")
    shown = options.split('<details class="advanced"')[0]
    for select in re.findall(r"<select\b.*?</select>", shown, re.S):
        assert '<option value="">' not in select, "an option shows its default, not an empty choice"
        assert "selected" in select, "the default is chosen"
    text = read_text(shown)
    assert "—" not in text
    assert not re.search(r"(?i)json|engine/|\.json|card documents|senate deck|card set", text), \
        "developer fields are not among the game's options"
    for label, help_text in re.findall(r'<label[^>]*>([^<]+)</label>.*?<p class="small muted">([^<]*)</p>',
                                       shown, re.S):
        assert label.strip().lower() not in help_text.lower(), (label, help_text)
    if game in ("pax", "spartacus", "rom"):
        advanced = _section(page, '<details class="advanced"', "</details>")
        assert re.search(r"(?i)card set", read_text(advanced))


@pytest.mark.parametrize("zone, preselect", [(None, "take"), ("Europe/Berlin", "keep")])
def test_time_zones_are_grouped_and_the_browsers_is_chosen_unless_mine_is_set(app, client, web_sessions, zone,
                                                                               preselect):
    with web_sessions() as s:
        user(s, "ann@example.org", timezone=zone)
        s.commit()
    sign_in_with(app, client, "ann@example.org")
    page = client.get("/games/new?game=pax").get_data(as_text=True)
    select = re.search(r'<select id="clock-zone"[^>]*>.*?</select>', page, re.S).group(0)
    assert f'data-browser-zone="{preselect}"' in select
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert {"UTC", "Europe", "America", "Asia"} <= set(groups)
    assert '<option value="America/Argentina/Buenos_Aires" >Argentina / Buenos Aires</option>' in select \
        or 'value="America/Argentina/Buenos_Aires"' in select
    if zone:
        assert f'<option value="{zone}" selected>' in select
    assert 'id="clock-zone-search"' in page and "capua.js" in page
