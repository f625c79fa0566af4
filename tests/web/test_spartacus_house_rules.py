"""Spartacus's house rules -- the rules Capua plays that the rulebook does not have -- are
listed as such, with their reasons, where a group deciding on a game reads: the rules page
in every language, the full rules, and the new-game form's option descriptions."""

from __future__ import annotations

import pytest

from service.web import setup_form
from service.web.site_pages import LANGUAGE_COOKIE

#: per language: the section's heading, the fatigue rule, the market deck's reshuffle
WORDS = {
    "en": ("Capua's house rules", "fatigue", "market deck runs out"),
    "de": ("Hausregeln von Capua", "Erschöpfung", "Marktstapel aufgebraucht"),
    "ru": ("Домашние правила Capua", "усталость", "колода Рынка кончается"),
}


@pytest.fixture
def site(app):
    return app.test_client()


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_rules_page_lists_the_house_rules(site, language):
    site.set_cookie(LANGUAGE_COOKIE, language)
    page = site.get("/rules/spartacus").data.decode()
    for words in WORDS[language]:
        assert words in page, words
    assert "#capuas-house-rules" in page
    full = site.get("/rules/spartacus/full").data.decode()
    assert 'id="capuas-house-rules"' in full and "Fatigue in the arena" in full and "reshuffled" in full


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_new_game_form_says_which_options_are_house_rules(app, language):
    with app.test_request_context(headers={"Accept-Language": language}):
        fields = {f["key"]: f for f in setup_form.option_fields("spartacus", language)}
    for name in ("max_rounds", "influence_cap"):
        assert fields[name]["value"] == 0, "off unless the group chooses it"
        assert fields[name]["help"], name
    if language == "en":
        assert fields["max_rounds"]["help"].startswith("A house rule, not in the rulebook")
