"""Spartacus: A Game of Blood and Treachery.

``engine.spartacus.cards`` holds the card data (the market deck: gladiators, slaves and
equipment, with their abilities composed from an effect vocabulary); ``engine.spartacus.arena``
is the arena: the hex board, a fight between two fighters as a pure sub-game that the
Spartacus game nests in its own state, and the standalone exhibition duel
``spartacus_arena``.
"""
