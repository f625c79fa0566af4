"""Capua worker: Celery app and tasks (mail, webhooks, deadline sweeps)."""
