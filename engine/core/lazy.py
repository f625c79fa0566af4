"""A mapping whose costlier values are computed when first read.

A decision's ``context`` may carry what only some readers want (an engine suggestion, a
plan spelled out as JSON); bots answering from the options alone never read it.  The
reader sees an ordinary read-only mapping either way.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping


class LazyMapping(Mapping[str, Any]):
    """``values`` plus ``later``: each of the latter's functions is called on the first
    read of its key and its answer kept.  Keys keep their order, ``values`` first."""

    __slots__ = ("_values", "_later", "_keys")

    def __init__(self, values: Mapping[str, Any], later: Mapping[str, Callable[[], Any]]) -> None:
        self._values = dict(values)
        self._later = {k: fn for k, fn in later.items() if k not in self._values}
        self._keys = tuple(self._values) + tuple(self._later)

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            pass
        value = self._later[key]()
        self._values[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return repr(dict(self))
