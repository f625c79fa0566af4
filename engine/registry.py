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


def names() -> list[str]:
    return sorted(_GAMES)


def get(name: str) -> Rules:
    """The rules of game ``name``; ``KeyError`` if there is no such game."""
    module, attr = _GAMES[name].split(":")
    return getattr(importlib.import_module(module), attr)
