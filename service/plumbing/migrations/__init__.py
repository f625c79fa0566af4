"""Alembic migrations of Capua's schema; run them with :func:`service.plumbing.schema_upgrade.upgrade`."""
