"""Capua service: Flask app, REST API, event store, identity, mail and pages."""
