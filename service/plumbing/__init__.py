"""Plumbing: what every room stands on and nothing of the games' meaning.

Settings (:mod:`.config`), the database and its models (:mod:`.db`, :mod:`.database`,
migrations in :mod:`.migrations`, :mod:`.schema_upgrade`), the error types and their one
JSON shape (:mod:`.errors`, :mod:`.http_errors`), idempotency keys and rate limits,
the mail outbox and its transports (:mod:`.mail`, :mod:`.mail_backend`, :mod:`.smtp`),
the network guard of outgoing requests (:mod:`.netguard`), time zones and deadline
arithmetic (:mod:`.clock`), who is asking (:mod:`.requester`) and the seam to the
workers (:mod:`.dispatch`).

May import: the standard library, third-party packages and ``engine``; never another room
of the service, nor ``worker``.  What plumbing needs from above (the signed-in user, who
works after a commit) is registered into it at start-up.
"""
