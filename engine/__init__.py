"""Capua's rules engines: pure Python, standard library only, no randomness, no clock.

Every game package exposes one object implementing :class:`engine.core.game.Rules`;
:mod:`engine.registry` maps game names to them.
"""
