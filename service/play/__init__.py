"""Play: games as streams of events, and everything that moves them on.

Creating, joining and commanding games (:mod:`.games`), the event store and snapshots
(:mod:`.store`), bots and standing orders (:mod:`.bots`, :mod:`.standing_orders`), a
game's clock and its deadlines (:mod:`.game_clock`, :mod:`.deadlines`), absence and
vacation (:mod:`.absence`), Capua's own events in a game's log (:mod:`.meta_events`), and
the fan-out hook that tells listeners what happened (:mod:`.fanout`).

May import: :mod:`service.identity`, :mod:`service.words`, :mod:`service.plumbing`,
``engine``.  Never :mod:`service.notify`: notify hears of changes through the fan-out,
whose listeners the composition roots register.
"""
