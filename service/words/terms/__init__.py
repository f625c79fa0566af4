"""Each game's words in Capua's languages: decision prompts, command names, card names.

A game may have a module ``service/words/terms/<game>.py`` with any of:

- ``PROMPTS: dict[str, str]`` -- ``prompt_key`` -> English sentence marked with ``N_``,
  ``%(name)s`` placeholders filled from the decision's ``prompt_args``;
- ``COMMANDS: dict[str, str]`` -- command type -> its name on a button (``N_``);
- ``command_label(language, command, card_names) -> str | None`` -- a button's words
  where the arguments matter (``None``: use the generic label);
- ``card_name(card_id, language) -> str | None`` -- a card's name as the rulebook of
  ``language`` has it (``None``: the engine's English name);
- ``CONFIRM: set[str]`` -- command types that are final enough to ask "are you sure?"
  before they act (the page sends them through a confirm page);
- ``describe_event(event, language, seat_names) -> str | None`` -- one sentence telling
  what an event (as the reader may see it) was, for the history, stale pages and mail;
- ``ARGUMENTS``, ``VALUES``, ``CONTEXT`` -- words for a decision's argument names, enum
  values and context keys on the page's forms (see :func:`table`);
- ``outcome(result, language, seat_names) -> dict | None`` -- the "game has ended" panel
  in ``language``.  ``result`` is the engine's outcome as the page has it (``winners``,
  ``ranking``, ``scores`` with seat keys as text or numbers, and the game's own
  ``detail``); ``seat_names`` maps a seat to how the page names its player.  The answer::

      {"lines": ["Rome won ...", ...],            # sentences, in order
       "table": {"caption": "Points",             # or None: no table
                 "head": ["Player", "Points", ...],
                 "rows": [{"seat": 0, "cells": ["Ann (seat 1)", "18", ...]}, ...]}}

  The first cell of a row names its player (drawn with the seat's colour mark when
  ``seat`` is a seat number); every cell is plain text.  ``None`` (or no such function):
  the page draws the generic panel -- winners, ranking and scores by player name.

Strings are translated through the ordinary catalogues (``translations/``); card names
come from the game's own data, since they are data, not sentences.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from types import ModuleType
from typing import Any, Mapping, Optional

from service.words.seat_marks import seat_letter

_GAME_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
#: Games played inside another game, whose words the outer game uses too: a Spartacus
#: arena phase is a fight of the arena duel (its decisions and commands are the duel's).
_PLAYED_INSIDE = {"spartacus": ("spartacus_arena",)}
_modules: dict[str, Optional[ModuleType]] = {}


def module(game: Optional[str]) -> Optional[ModuleType]:
    """``service.words.terms.<game>`` if that game has one."""
    if not isinstance(game, str) or not _GAME_NAME.match(game):
        return None
    if game not in _modules:
        name = f"service.words.terms.{game}"
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


def describe_event(game: Optional[str], event: Mapping[str, Any], language: str,
                   seat_names: Mapping[int, str]) -> Optional[str]:
    """One sentence in ``language`` telling what ``event`` (as the reader may see it) was,
    from the game's ``describe_event(event, language, seat_names)``; ``None`` when no
    game names it."""
    for terms in _games(game):
        tell = getattr(terms, "describe_event", None)
        text = tell(event, language, seat_names) if tell else None
        if text:
            return text
    return None


def needs_confirmation(game: Optional[str], command_type: str) -> bool:
    """Whether ``game`` asks for a confirm step before ``command_type`` acts (``CONFIRM``)."""
    return any(command_type in getattr(terms, "CONFIRM", ()) for terms in _games(game))


def command_label(game: Optional[str], language: str, cmd: Mapping[str, Any],
                  card_names: Mapping[str, str], seat_names: Optional[Mapping[int, str]] = None) -> Optional[str]:
    """A button's words from the game's own terms; a seat it names is named by
    ``seat_names`` (the player's name and mark as the page shows them)."""
    for terms in _games(game):
        label = getattr(terms, "command_label", None)
        words = label(language, cmd, card_names, seat_names or {}) if label else None
        if words:
            return words
    return None


def outcome(game: Optional[str], result: Mapping[str, Any], language: str,
            seat_names: Mapping[int, str]) -> Optional[dict]:
    """The game's own outcome panel (``outcome`` of its terms), or ``None``.  Only the
    game's own module answers: a game played inside another ends with the outer game's
    outcome, never with the inner one's."""
    terms = module(game)
    draw = getattr(terms, "outcome", None) if terms else None
    return draw(result, language, seat_names) if draw else None


def card_name(game: Optional[str], card_id: Any, language: str, fallback: str) -> str:
    """The name of card ``card_id`` in ``language``; ``fallback`` (the engine's English)
    when the game has no other name for it."""
    terms = module(game)
    name_of = getattr(terms, "card_name", None) if terms else None
    name = name_of(str(card_id), language) if name_of else None
    return name or fallback


# --------------------------------------------------------------------------- helpers of the outcome panels


def seat_name(seat_names: Mapping[int, str], seat: Any, language: str) -> str:
    """How the page names ``seat``'s player (``Seat 3`` when the page names no one there)."""
    from service.words.i18n import translator

    try:
        n = int(seat)
    except (TypeError, ValueError):
        return str(seat)
    return seat_names.get(n) or translator(language)("Seat %(n)s", n=seat_letter(n))


def seat_value(values: Any, seat: Any) -> Any:
    """``values[seat]`` of a seat-keyed mapping whose keys may be text (as stored) or numbers."""
    if not isinstance(values, Mapping):
        return None
    return values.get(str(seat), values.get(seat))


def seats_of(result: Mapping[str, Any], key: str) -> list[int]:
    """The seat numbers of ``result[key]`` (``winners``, ``ranking``) that are numbers."""
    out = []
    for seat in result.get(key) or []:
        try:
            out.append(int(seat))
        except (TypeError, ValueError):
            continue
    return out
