"""Capua service: the Flask app over the rules engines, in rooms that depend one way.

=============  ================================================================  =====================================
room           owns                                                              may import
=============  ================================================================  =====================================
``app``,       composition roots: the app factory, the command line, the demo,  everything below
``cli``,       :mod:`service.wiring` (who listens to whom), and the in-process
``demo``,      worker (:mod:`service.inprocess`, an adapter like ``worker/``)
``wiring``,
``inprocess``
``api``        REST blueprints and marshmallow schemas                          web's peers and everything below
``web``        pages, boards, forms                                             notify, play, identity, words, plumbing
``notify``     notifications, mail composing, reminders, table talk, webhooks,  play, identity, words, plumbing
               inbound mail, action links
``play``       commands, event store, bots, clocks and deadlines, absence,      identity, words, plumbing
               standing orders, the fan-out hook
``identity``   users, sign-in, tokens, sessions, CSRF, a player's settings      words, plumbing
``words``      catalogues, moments in a time zone, game terms, seat marks       plumbing
``plumbing``   settings, database and models, errors, HTTP errors,              nothing of Capua but ``engine``
               idempotency, rate limits, migrations, mail outbox and SMTP,
               network guard, time arithmetic, the dispatch seam
=============  ================================================================  =====================================

``api`` and ``web`` do not import each other.  Play tells notify what happened through
:mod:`service.play.fanout` and every room hands committed work to a worker through
:mod:`service.plumbing.dispatch`; the listeners and dispatchers are registered by the
composition roots.  ``tests/test_layers.py`` keeps it so.  See ``docs/architecture.md``.
"""
