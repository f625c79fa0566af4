"""Each game's words in Capua's languages: decision prompts, command names, card names.

A game may have a module ``service/terms/<game>.py`` with any of:

- ``PROMPTS: dict[str, str]`` -- ``prompt_key`` -> English sentence marked with ``N_``,
  ``%(name)s`` placeholders filled from the decision's ``prompt_args``;
- ``COMMANDS: dict[str, str]`` -- command type -> its name on a button (``N_``);
- ``command_label(language, command, card_names) -> str | None`` -- a button's words
  where the arguments matter (``None``: use the generic label);
- ``card_name(card_id, language) -> str | None`` -- a card's name as the rulebook of
  ``language`` has it (``None``: the engine's English name).

Strings are translated through the ordinary catalogues (``translations/``); card names
come from the game's own data, since they are data, not sentences.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from types import ModuleType
from typing import Any, Mapping, Optional

_GAME_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
_modules: dict[str, Optional[ModuleType]] = {}


def module(game: Optional[str]) -> Optional[ModuleType]:
    """``service.terms.<game>`` if that game has one."""
    if not isinstance(game, str) or not _GAME_NAME.match(game):
        return None
    if game not in _modules:
        name = f"service.terms.{game}"
        _modules[game] = importlib.import_module(name) if importlib.util.find_spec(name) else None
    return _modules[game]


def prompt(game: Optional[str], key: str) -> Optional[str]:
    """The English source sentence of ``key`` in ``game``, if the game names it."""
    terms = module(game)
    return getattr(terms, "PROMPTS", {}).get(key) if terms else None


def command(game: Optional[str], command_type: str) -> Optional[str]:
    terms = module(game)
    return getattr(terms, "COMMANDS", {}).get(command_type) if terms else None


def command_label(game: Optional[str], language: str, cmd: Mapping[str, Any],
                  card_names: Mapping[str, str]) -> Optional[str]:
    terms = module(game)
    label = getattr(terms, "command_label", None) if terms else None
    return label(language, cmd, card_names) if label else None


def card_name(game: Optional[str], card_id: Any, language: str, fallback: str) -> str:
    """The name of card ``card_id`` in ``language``; ``fallback`` (the engine's English)
    when the game has no other name for it."""
    terms = module(game)
    name_of = getattr(terms, "card_name", None) if terms else None
    name = name_of(str(card_id), language) if name_of else None
    return name or fallback
