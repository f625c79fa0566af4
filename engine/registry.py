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
    module, attr = _GAMES[name].split(":")
    return getattr(importlib.import_module(module), attr)


def bot_knowledge(name: str):
    """What game ``name``'s bots know (``None`` for a game whose bots play at random)."""
    target = _BOTS.get(name)
    if target is None:
        return None
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
