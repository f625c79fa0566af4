"""Frozen records made and changed the fast way.

Every game keeps its state in frozen dataclasses and folds each event into a new one.
``dataclasses.replace`` builds the copy through ``__init__`` (every field passed again,
defaults and ``__post_init__`` run) and was the largest single cost of a bot game.  The
records of a game's state hold already-checked values, so copying the instance
dictionary and overwriting the changed entries gives the same record, only faster.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

R = TypeVar("R")

_new = object.__new__
_set = object.__setattr__  # frozen records refuse their own __setattr__


def evolve(record: R, **changes: Any) -> R:
    """``record`` with ``changes``: the same as ``dataclasses.replace`` for a frozen
    dataclass whose ``__post_init__`` (if any) derives nothing from the changed fields.

    A name that is not a field raises ``TypeError``, as ``replace`` does.
    """
    attrs = record.__dict__.copy()
    size = len(attrs)
    attrs.update(changes)
    if len(attrs) != size:  # a name the record did not hold: look whether it is a field at all
        known = record.__dataclass_fields__  # type: ignore[attr-defined]
        for name in changes:
            if name not in known:
                raise TypeError(f"{type(record).__name__} has no field {name!r}")
    new = _new(record.__class__)
    _set(new, "__dict__", attrs)
    return new


def quick_init(cls: type[R]) -> type[R]:
    """Give a frozen dataclass an ``__init__`` that fills the instance dictionary at once.

    A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``;
    commands, events and decisions are made by the thousand in every game, so theirs is
    generated here instead: the same parameters, defaults and default factories, the
    values stored in one step, then ``__post_init__`` as before.  Put it above
    ``@dataclass(frozen=True)``.
    """
    names = [f.name for f in fields(cls) if f.init]
    scope: dict[str, Any] = {"_MISSING": _MISSING, "_set": _set}
    params, lines = ["self"], []
    for f in fields(cls):
        if not f.init:
            continue
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            lines.append(f"    if {f.name} is _MISSING:\n        {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
    lines.append("    _set(self, '__dict__', {" + ", ".join(f"{n!r}: {n}" for n in names) + "})")
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + "\n".join(lines) + "\n"
    exec(source, scope)  # as dataclasses itself builds __init__
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls


_MISSING = object()
