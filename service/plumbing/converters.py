"""URL converters for database ids, each bounded to its column, so an id no column can
hold is a 404 and never reaches the database (PostgreSQL refuses a 2**40 for a 32-bit
``integer`` with an error, not with "no such row").

``<id32:...>`` is the id of a table whose key is ``Integer`` (users, API tokens,
vacations, webhook endpoints, standing orders); ``<int64:...>`` is a ``BigInteger`` key
or a stream position (webhook deliveries, event sequence numbers).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter

#: The largest value of a 32-bit ``Integer`` column.
MAX_INT32 = 2**31 - 1
#: The largest value of a 64-bit ``BigInteger`` column.
MAX_INT64 = 2**63 - 1


class Int64Converter(IntegerConverter):
    """Path integers bounded to the database's 64-bit columns (a larger one is a 404)."""

    maximum = MAX_INT64

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", self.maximum)
        super().__init__(map, *args, **kwargs)

    def to_python(self, value: str) -> int:
        """The id, or 404 at once: werkzeug's own refusal would let a rule of another
        method claim the path and answer 405."""
        number = int(value)
        if number > self.maximum:
            raise NotFound()
        return number


class Int32Converter(Int64Converter):
    """Path integers bounded to the database's 32-bit id columns (a larger one is a 404)."""

    maximum = MAX_INT32


def register(app: Flask) -> None:
    """Make ``<id32:...>`` and ``<int64:...>`` known to ``app`` (any room's pages may use them)."""
    app.url_map.converters["id32"] = Int32Converter
    app.url_map.converters["int64"] = Int64Converter
