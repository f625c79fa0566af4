"""PAX in Capua's languages: the seven categories and the card names, and which choices
ask for a confirmation.

The decision prompts and button words of PAX live in :mod:`service.i18n` (``PROMPTS``,
``COMMANDS``).  Here are the game's own terms, which are data rather than sentences:
the rulebook (Material) names the property cards by category with the Latin word printed
on the card -- "je 10 Karten Wohlstand (in floribus), Flotte (navis longa), Armee
(legionarius), Religion (religio), Senator (senator); je 12 Land (praedium) und Intrige
(conspiratio)" -- so a card is called by its category and its Latin name in every language.
"""

from __future__ import annotations

import functools
from typing import Optional

from engine.pax.card_set import CATEGORIES, LATIN_NAMES, Card, load_card_set, second_copy

#: The categories as the German rulebook names them, with English and Russian beside.
CATEGORY_NAMES: dict[str, dict[str, str]] = {
    "en": {"wealth": "Wealth", "fleet": "Fleet", "army": "Army", "religion": "Religion",
           "senator": "Senator", "land": "Land", "intrigue": "Intrigue"},
    "de": {"wealth": "Wohlstand", "fleet": "Flotte", "army": "Armee", "religion": "Religion",
           "senator": "Senator", "land": "Land", "intrigue": "Intrige"},
    "ru": {"wealth": "Богатство", "fleet": "Флот", "army": "Армия", "religion": "Религия",
           "senator": "Сенатор", "land": "Земля", "intrigue": "Интрига"},
}

#: Command types whose board link or button first shows a confirm page.  Both give up
#: something that cannot be taken back and both sit one click away from a routine choice:
#: buying a legion spends aurei and takes every card under it (``skip_buy`` is the default
#: next to it); looking at Rome's hidden cards replaces the whole turn -- no drawing, buying
#: or laying (``draw_cards`` is the default next to it).  Laying a card and placing a drawn
#: card happen several times a turn, and their cost is already in the prompt, so asking
#: again each time would only slow the game.
CONFIRM = frozenset({"buy_legion", "peek_rome"})


def category_name(category: str, language: str) -> str:
    """The category's word in ``language`` (English when Capua does not speak it)."""
    names = CATEGORY_NAMES.get(language) or CATEGORY_NAMES["en"]
    return names.get(category, category)


@functools.cache
def _default_cards() -> dict[str, Card]:
    cards = load_card_set().cards
    return {c.id: c for c in cards + second_copy(cards)}


def card_name(card_id: str, language: str) -> Optional[str]:
    """``"Flotte (navis longa)"``: the category in ``language`` and the card's Latin name.

    Only the default card set is known by id; a card of another set keeps the name its
    file gives it (``None``)."""
    card = _default_cards().get(str(card_id))
    if card is None or card.category not in CATEGORIES:
        return None
    return display_name(card.category, card.name, language)


def display_name(category: str, latin: Optional[str], language: str) -> str:
    """A card's name from its category and printed name, as :func:`card_name` gives it."""
    latin = latin or LATIN_NAMES.get(category, "")
    word = category_name(category, language)
    return f"{word} ({latin})" if latin and latin.lower() != word.lower() else word
