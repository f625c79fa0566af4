"""Reading events recorded by earlier rules in the current vocabulary.

A game's events are stored once and never changed, but the vocabulary moves on: an event
type gains data (its schema ``version`` is bumped), or one event comes to say what a run of
two said before (a fighter's move and the end of its turn).  A game may then define
``upcast(events)`` on its rules object: a pure function rewriting a stored sequence of old
types and versions into the events the current rules would have recorded, folding to the
same state.  Where stored events are folded (the service's event store) they go through
:func:`upcast` first; events in the current vocabulary pass unchanged.

:func:`rewriter` builds such a function from small rewrites, each keyed by the event type
it starts from: given that event and the one that follows it (``None`` at the end), a
rewrite returns the events to read instead and whether it took the following one into
them (``None``: leave the event as it is).  A run cut short (a fold up to an event in the
middle of it) is rewritten as far as it goes, so every rewrite must also read its first
event alone as the same state change.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping, Optional

from engine.core.types import Event

#: (event, the one after it or None) -> (events to read instead, took the one after it?), or None
Rewrite = Callable[[Event, Optional[Event]], Optional[tuple[tuple[Event, ...], bool]]]
Upcaster = Callable[[Iterable[Event]], Iterator[Event]]


def upcast(rules: Any, events: Iterable[Event]) -> Iterable[Event]:
    """``events`` as ``rules`` read them today (unchanged for a game without an upcaster)."""
    fn = getattr(rules, "upcast", None)
    return events if fn is None else fn(events)


def rewriter(rewrites: Mapping[str, Rewrite]) -> Upcaster:
    """An upcaster applying ``rewrites`` (type of the first event -> :data:`Rewrite`) in one pass."""

    def run(events: Iterable[Event]) -> Iterator[Event]:
        stream = iter(events)
        event = next(stream, None)
        while event is not None:
            following = next(stream, None)
            rewrite = rewrites.get(event.type)
            result = rewrite(event, following) if rewrite is not None else None
            if result is None:
                yield event
            else:
                instead, took = result
                yield from instead
                if took:
                    following = next(stream, None)
            event = following

    return run


def chain(*upcasters: Upcaster) -> Upcaster:
    """The upcasters applied one after the other (a game nesting another's events)."""

    def run(events: Iterable[Event]) -> Iterator[Event]:
        for fn in upcasters:
            events = fn(events)
        return iter(events)

    return run


def at_version(event: Event, version: int, **extra: Any) -> Event:
    """``event`` as its type reads at ``version``, with ``extra`` data added."""
    return Event(event.type, {**event.data, **extra}, version)
