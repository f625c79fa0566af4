"""Alembic migrations of Capua's schema; run them with :func:`service.schema_upgrade.upgrade`."""
