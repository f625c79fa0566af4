"""The Spartacus game: setup, upkeep, intrigue, market, arena phase, victory.

:data:`engine.spartacus.game.rules.RULES` is the game's :class:`engine.core.game.Rules`.
"""
