"""``get_row``: ``session.get`` that holds what it found, and what it did not, until the transaction ends.

``session.get`` finds a loaded row in the identity map without a statement, but the
identity map holds rows weakly: a row nobody references any more (a game's clock read
by one step of a command) is gone when the next step asks, and read again.  And a row
that does not exist (a player who never changed a setting) is looked up again on every
call.  :func:`get_row` holds the rows it found and remembers the misses on the session
until the transaction ends; every miss of a model is forgotten as soon as a row of that
model is added to the session, a held row as soon as it is deleted.  Rows inserted by
Core statements are not seen: use it only for models written through the ORM.

A path that reads rows with a Core statement and only reads them (a command's players,
their settings, the game's clock: :mod:`service.play.at_hand`) holds them as plain named
tuples (:func:`hold_plain`), which :func:`get_row` hands out like the ORM's objects.
The rows such a path changes itself (a command's game and seats) are changeable plain
rows (:func:`changing_row`), which remember what was set on them for the path's own Core
statement to write.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from operator import attrgetter
from typing import Any, Iterable, Optional

from sqlalchemy import event, inspect, select, tuple_
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

_ABSENT = "capua.rows.absent"
_HELD = "capua.rows.held"


def get_row(session: Session, model: Any, key: Any) -> Optional[Any]:
    """``session.get(model, key)``, held (or its miss remembered) until the transaction ends."""
    held = session.info.get(_HELD)
    if held is not None:
        row = held.get((model, key))
        if row is not None:
            if _alive(session, row):
                return row
            del held[(model, key)]
    absent = session.info.get(_ABSENT)
    if absent is not None and (model, key) in absent:
        return None
    row = session.get(model, key)
    if row is None:
        session.info.setdefault(_ABSENT, set()).add((model, key))
    else:
        session.info.setdefault(_HELD, {})[(model, key)] = row
    return row


def get_rows(session: Session, model: Any, keys: Iterable[Any]) -> dict[Any, Any]:
    """``{key: row}`` of the rows of ``model`` with these primary keys (a single-column key,
    or a tuple for a composite one) that exist: what :func:`get_row` holds or knows to be
    missing costs nothing, the rest one ``SELECT ... IN``, held afterwards."""
    out: dict[Any, Any] = {}
    wanted = []
    held = session.info.get(_HELD) or {}
    absent = session.info.get(_ABSENT) or set()
    for key in dict.fromkeys(keys):
        row = held.get((model, key))
        if row is not None and (isinstance(row, tuple) or _alive(session, row)):  # (a plain row stands)
            out[key] = row
        elif (model, key) not in absent:
            wanted.append(key)
    if wanted:
        columns = inspect(model).primary_key
        if len(columns) == 1:
            query = select(model).where(columns[0].in_(wanted))
        else:
            query = select(model).where(tuple_(*columns).in_(wanted))
        found = {}
        for row in session.scalars(query):
            key = inspect(row).identity
            found[key[0] if len(columns) == 1 else tuple(key)] = row
        hold = session.info.setdefault(_HELD, {})
        misses = session.info.setdefault(_ABSENT, set())
        for key in wanted:
            if key in found:
                hold[(model, key)] = out[key] = found[key]
            else:
                misses.add((model, key))
    return out


def _alive(session: Session, row: Any) -> bool:
    """A held row still stands: a plain row always, an ORM row unless deleted."""
    if isinstance(row, tuple):
        return True
    state = inspect(row)
    return not (state.deleted or state.was_deleted or row in session.deleted)


@functools.lru_cache(maxsize=None)
def plain_row(model: Any) -> type:
    """A named tuple of ``model``'s column attributes: what a read-only path holds
    instead of the ORM's object (see :func:`hold_plain`)."""
    return namedtuple(model.__name__ + "Row", [attr.key for attr in inspect(model).column_attrs])


@functools.lru_cache(maxsize=None)
def changing_row(model: Any) -> type:
    """A plain, changeable row of ``model``: its column attributes as slots, built from
    the values a Core statement read (in :func:`plain_row`'s order), remembering them, so
    :meth:`changes` names what was set since.  For rows a path changes itself and writes
    with a Core statement of its own (a command's game and seats,
    :mod:`service.play.at_hand`): the ORM's object would cost its loading, its attribute
    events and a flush.

    Its ``__init__`` assigns every slot in one statement written for the model's columns
    (as :func:`collections.namedtuple` writes its own ``__new__``), and :meth:`changes`
    and :meth:`settled` read them all in one call: a command makes a game's row and its
    seats' and asks each what changed, which a loop over the columns did a call per
    column and row (some 90 a command)."""
    fields = tuple(attr.key for attr in inspect(model).column_attrs)
    current = attrgetter(*fields) if len(fields) > 1 else (lambda row: (getattr(row, fields[0]),))
    assign = ", ".join(f"self.{name}" for name in fields)
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, *values):\n"  # noqa: S102 - the source is the model's column names
         f"    if len(values) == {len(fields)}:\n"
         f"        {assign}, = values\n"
         f"    else:\n"
         f"        for name, value in zip(fields, values):\n"
         f"            setattr(self, name, value)\n"
         f"    self._read = values\n", {"fields": fields}, namespace)

    def changes(self) -> dict[str, Any]:
        """``{column: value}`` of what was set since the row was read (or :meth:`settled`)."""
        read = self._read
        if len(read) != len(fields):  # (made from fewer values: only those are compared)
            return {name: getattr(self, name) for name, old in zip(fields, read) if getattr(self, name) != old}
        return {name: new for name, old, new in zip(fields, read, current(self)) if new != old}

    def settled(self) -> None:
        """The row's values are written: :meth:`changes` counts from here."""
        self._read = current(self)

    def __repr__(self) -> str:
        return f"<{model.__name__} row {getattr(self, fields[0])!r}>"

    return type(model.__name__ + "Row", (), {
        "__slots__": fields + ("_read",), "__init__": namespace["__init__"], "changes": changes,
        "settled": settled, "__repr__": __repr__, "model": model, "fields": fields,
    })


def settle_loaded(session: Session, model: Any, key: Any, values: dict[str, Any]) -> None:
    """Give the ORM's object of ``model`` ``key``, if the session has one loaded (a caller
    read it before a path changed the plain row), the values a Core statement just wrote."""
    identity_map = session.identity_map
    if not identity_map:  # (a command's session mostly holds no object of the ORM)
        return
    loaded = identity_map.get((_identity_class(model), key if isinstance(key, tuple) else (key,), None))
    if loaded is not None:
        for name, value in values.items():
            set_committed_value(loaded, name, value)


@functools.lru_cache(maxsize=None)
def _identity_class(model: Any) -> type:
    """The class in ``model``'s identity keys (:func:`~sqlalchemy.orm.util.identity_key`
    builds the same key, at several times the cost of a tuple)."""
    return inspect(model)._identity_class


def hold_plain(session: Session, model: Any, key: Any, row: tuple) -> None:
    """Hold ``row``, a :func:`plain_row` of ``model`` with primary key ``key`` read by a
    Core statement, for :func:`get_row` until the transaction ends.  Only for rows the
    transaction reads and does not change: :func:`get_row` then answers the plain row,
    and adding a row of ``model`` to the session forgets it."""
    session.info.setdefault(_HELD, {})[(model, key)] = row


def hold_absent(session: Session, model: Any, key: Any) -> None:
    """Remember that ``model`` has no row ``key`` (a statement of the caller's own found
    none), so :func:`get_row` and :func:`get_rows` do not look again this transaction."""
    session.info.setdefault(_ABSENT, set()).add((model, key))


def hold(session: Session, row: Any) -> Any:
    """Hold ``row`` (loaded in ``session``) for :func:`get_row` until the transaction ends."""
    identity = inspect(row).identity
    if identity is not None:
        key = identity[0] if len(identity) == 1 else tuple(identity)
        session.info.setdefault(_HELD, {})[(type(row), key)] = row
    return row


@event.listens_for(Session, "after_attach")
def _forget_misses_of_added_model(session: Session, instance: Any) -> None:
    absent = session.info.get(_ABSENT)
    kind = type(instance)
    if absent:
        session.info[_ABSENT] = {(model, key) for model, key in absent if model is not kind}
    held = session.info.get(_HELD)
    if held:
        for model, key in [k for k, row in held.items() if k[0] is kind and isinstance(row, tuple)]:
            del held[(model, key)]


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
@event.listens_for(Session, "after_soft_rollback")
def _forget_misses(session: Session, *_args: Any) -> None:
    session.info.pop(_ABSENT, None)
    session.info.pop(_HELD, None)
