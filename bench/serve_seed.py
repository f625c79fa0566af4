"""Prepare a database for a Capua served by gunicorn: the schema from scratch, a user and
an API token (printed).  Run it from the tree that will be served
(``PYTHONPATH=<tree> python bench/serve_seed.py URL``): it prepares the database as
:func:`bench.api_latency.running_server` does, then stops that server."""

from __future__ import annotations

import sys


def main(database_url: str) -> None:
    from bench.api_latency import running_server

    with running_server(database_url) as server:
        token = server.token
    print(token)


if __name__ == "__main__":
    main(sys.argv[1])
