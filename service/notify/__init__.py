"""Rendering notification mail (:mod:`service.notify.compose`); the outbox and the
fan-out live in :mod:`service.notifications`."""
