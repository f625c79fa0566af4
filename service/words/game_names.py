"""What Capua calls each game, in the reader's words, and a game's title as a reader sees it.

A game created without a title is stored with its engine's English name ("Spartacus"), which
the API hands out as it is.  Pages and mail show such a title as the reader calls the game
(«Спартак» in Russian), and a title Capua gave itself (the demo's) in the reader's words;
a title its creator chose is theirs and is shown as written.
"""

from __future__ import annotations

from typing import Optional

from engine import registry
from service.words import i18n
from service.words.i18n import N_

#: Each game type's name as the site presents it (brand names stay as the boxes print them).
NAMES: dict[str, str] = {
    "pax": "PAX",
    "rom": "Rom: Rise to Power",
    "spartacus": N_("Spartacus"),
    "spartacus_arena": N_("Spartacus: arena duel"),
}

#: The demo game's title (``capua demo``), stored in English like any title.
DEMO_TITLE = N_("PAX against three bots")
#: Titles Capua gives games itself: messages of the catalogue, read in the reader's language.
CAPUA_TITLES = frozenset({DEMO_TITLE})


def game_name(language: str, game_type: str) -> str:
    """The game's name as a reader of ``language`` says it ("Спартак: поединок на Арене"),
    never its id (an unknown type is named by its id)."""
    name = NAMES.get(game_type)
    return i18n.gettext(language, name) if name else game_type


def is_default_title(title: Optional[str], game_type: Optional[str]) -> bool:
    """Whether ``title`` is the one a game gets when its creator gives none: empty, or its
    engine's name of the game."""
    if not title:
        return True
    return game_type in registry.names() and title == registry.get(game_type).title


def title_in(language: str, title: Optional[str], game_type: Optional[str]) -> str:
    """The title a reader of ``language`` sees: the creator's own, else the game's name in
    the reader's words (a game type without a name here, such as a test's, keeps its title);
    a title of :data:`CAPUA_TITLES` in the reader's words."""
    if game_type in NAMES and is_default_title(title, game_type):
        return game_name(language, game_type)
    if title in CAPUA_TITLES:
        return i18n.gettext(language, title)
    return title or ""
