"""Game name -> rules object.  The service looks games up here and nowhere else."""

from __future__ import annotations

import importlib

from engine.core.game import Rules

#: name -> "module:attribute" of the rules object; imported on first use.
_GAMES = {
    "pax": "engine.pax.rules:RULES",
    "rom": "engine.rom.rules:RULES",
    "spartacus": "engine.spartacus.game.rules:RULES",
    "spartacus_arena": "engine.spartacus.arena.rules:RULES",
}

#: name -> "module:attribute" of the game's bot knowledge (:mod:`engine.core.search`).
_BOTS = {
    "pax": "engine.pax.bot:KNOWLEDGE",
    "rom": "engine.rom.bot:KNOWLEDGE",
    "spartacus": "engine.spartacus.game.bot:KNOWLEDGE",
    "spartacus_arena": "engine.spartacus.arena.bot:KNOWLEDGE",
}


def names() -> list[str]:
    return sorted(_GAMES)


def get(name: str) -> Rules:
    """The rules of game ``name``; ``KeyError`` if there is no such game."""
    return _resolve(_GAMES[name])


def bot_knowledge(name: str):
    """What game ``name``'s bots know (``None`` for a game whose bots play at random)."""
    target = _BOTS.get(name)
    return None if target is None else _resolve(target)


#: What :func:`_resolve` found, by ``"module:attribute"``: a command asks several times,
#: and ``import_module`` of a module already loaded still costs a few calls.
_found: dict[str, object] = {}


def _resolve(target: str):
    found = _found.get(target)
    if found is None:
        module, attr = target.split(":")
        found = _found[target] = getattr(importlib.import_module(module), attr)
    return found
