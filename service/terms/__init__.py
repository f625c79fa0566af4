"""Each game's words in Capua's languages: decision prompts, command names, card names.

A game may have a module ``service/terms/<game>.py`` with any of:

- ``PROMPTS: dict[str, str]`` -- ``prompt_key`` -> English sentence marked with ``N_``,
  ``%(name)s`` placeholders filled from the decision's ``prompt_args``;
- ``COMMANDS: dict[str, str]`` -- command type -> its name on a button (``N_``);
- ``command_label(language, command, card_names) -> str | None`` -- a button's words
  where the arguments matter (``None``: use the generic label);
- ``card_name(card_id, language) -> str | None`` -- a card's name as the rulebook of
  ``language`` has it (``None``: the engine's English name);
- ``CONFIRM: set[str]`` -- command types that are final enough to ask "are you sure?"
  before they act (the page sends them through a confirm page);
- ``ARGUMENTS``, ``VALUES``, ``CONTEXT`` -- words for a decision's argument names, enum
  values and context keys on the page's forms (see :func:`table`).

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
#: Games played inside another game, whose words the outer game uses too: a Spartacus
#: arena phase is a fight of the arena duel (its decisions and commands are the duel's).
_PLAYED_INSIDE = {"spartacus": ("spartacus_arena",)}
_modules: dict[str, Optional[ModuleType]] = {}


def module(game: Optional[str]) -> Optional[ModuleType]:
    """``service.terms.<game>`` if that game has one."""
    if not isinstance(game, str) or not _GAME_NAME.match(game):
        return None
    if game not in _modules:
        name = f"service.terms.{game}"
        _modules[game] = importlib.import_module(name) if importlib.util.find_spec(name) else None
    return _modules[game]


def _games(game: Optional[str]) -> list[ModuleType]:
    """The terms modules to search for ``game``: its own, then those of games played inside it."""
    names = [game, *_PLAYED_INSIDE.get(game or "", ())]
    return [m for m in (module(name) for name in names) if m is not None]


def prompt(game: Optional[str], key: str) -> Optional[str]:
    """The English source sentence of ``key`` in ``game``, if the game names it.  A key
    prefixed with a game's name (``spartacus_arena.turn``) is that game's word."""
    prefixed = key.split(".", 1)[0] if "." in key else None
    for terms in _games(game) + ([m] if prefixed and (m := module(prefixed)) else []):
        sentence = getattr(terms, "PROMPTS", {}).get(key)
        if sentence is not None:
            return sentence
    return None


def command(game: Optional[str], command_type: str) -> Optional[str]:
    for terms in _games(game):
        words = getattr(terms, "COMMANDS", {}).get(command_type)
        if words is not None:
            return words
    return None


def table(game: Optional[str], name: str) -> dict:
    """A table the game's terms may define (``ARGUMENTS``: argument name -> its words;
    ``VALUES``: enum value -> its words; ``CONTEXT``: a decision context's key -> its
    words), merged with those of games played inside it; the game's own entries win."""
    merged: dict = {}
    for terms in reversed(_games(game)):
        merged.update(getattr(terms, name, None) or {})
    return merged


def needs_confirmation(game: Optional[str], command_type: str) -> bool:
    """Whether ``game`` asks for a confirm step before ``command_type`` acts (``CONFIRM``)."""
    return any(command_type in getattr(terms, "CONFIRM", ()) for terms in _games(game))


def command_label(game: Optional[str], language: str, cmd: Mapping[str, Any],
                  card_names: Mapping[str, str]) -> Optional[str]:
    for terms in _games(game):
        label = getattr(terms, "command_label", None)
        words = label(language, cmd, card_names) if label else None
        if words:
            return words
    return None


def card_name(game: Optional[str], card_id: Any, language: str, fallback: str) -> str:
    """The name of card ``card_id`` in ``language``; ``fallback`` (the engine's English)
    when the game has no other name for it."""
    terms = module(game)
    name_of = getattr(terms, "card_name", None) if terms else None
    name = name_of(str(card_id), language) if name_of else None
    return name or fallback
