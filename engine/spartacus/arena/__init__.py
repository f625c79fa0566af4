"""The arena: the hex board, a fight between two fighters, and exhibition duels.

The Spartacus game embeds :mod:`engine.spartacus.arena.fight` (``start_fight``, ``pending``,
``decide``, ``apply``, ``view``, ``visible``, ``result``, ``summary``) for every arena and
tournament fight; :mod:`engine.spartacus.arena.rules` is the standalone game type
``spartacus_arena``.  See ``docs/spartacus-arena.md``.
"""
