"""Notify: telling people what happened, and hearing back from them.

Notification rows written by the fan-out (:mod:`.notifications`), composed into mail
(:mod:`.compose`, :mod:`.mailing`), reminders before deadlines (:mod:`.reminders`),
table talk (:mod:`.talk`) and its replies by mail (:mod:`.inbound_mail`), one-click
answers in mail (:mod:`.action_links`), and webhooks with their delivery
(:mod:`.webhooks`, :mod:`.webhook_delivery`).

May import: :mod:`service.play`, :mod:`service.identity`, :mod:`service.words`,
:mod:`service.plumbing`.  Workers reach it through the dispatch seam, never the other way.
"""
