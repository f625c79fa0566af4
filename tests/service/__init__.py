"""Tests of the event store, the game service and the schema migrations."""
