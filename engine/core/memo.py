"""What is computed from a state, computed once per state.

States are frozen: whatever a pure function derives from one (its open decisions, above
all) stays true for as long as that state exists.  :func:`once_per_state` keeps the
answers for the states asked about last, so the kernel, a game's ``decide`` and a bot
asking the same state the same question share one computation.  The cache lives outside
the state: snapshots pickle exactly the fields, and a state folded anew gets its own entry.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import wraps
from typing import Any, Callable, Optional, TypeVar

V = TypeVar("V")

#: States remembered per cached function, the least recently asked about dropped first.
#: A step asks about the state it starts from and the one it reaches, a bot about a few
#: more.  Kept small on purpose: every state held back from the garbage makes Python's
#: cyclic collector run more often, and with many entries that costs more than it saves.
CAPACITY = 8


def once_per_state(fn: Callable[..., V]) -> Callable[..., V]:
    """``fn(state, *args)`` computed once for each state among the :data:`CAPACITY` asked
    about last (and each value of the further, hashable arguments).

    The state is found by its identity, never by equality (comparing states would cost
    more than the answer); an entry holds its state, so that state's ``id`` cannot pass
    to another object meanwhile.  Arguments that cannot be hashed are simply not cached.
    Every dictionary operation here is a single atomic step, so threads may share it.
    The answer is shared by every caller: treat it as read-only.
    """
    cache: OrderedDict[Any, tuple[Any, V]] = OrderedDict()
    # The question asked last, with its answer, in one tuple (read and replaced whole, so
    # threads see parts that belong together): most calls ask what the call before asked,
    # and this answers them without touching the ordered cache.
    last: list[Optional[tuple[Any, tuple, V]]] = [None]

    @wraps(fn)
    def cached(state: Any, *args: Any) -> V:
        hit = last[0]
        if hit is not None and hit[0] is state and hit[1] == args:
            return hit[2]
        key = (id(state), *args) if args else id(state)
        try:
            entry = cache.get(key)
        except TypeError:  # an unhashable argument
            return fn(state, *args)
        if entry is not None and entry[0] is state:
            try:
                cache.move_to_end(key)
            except KeyError:  # dropped by another thread meanwhile
                pass
            last[0] = (state, args, entry[1])
            return entry[1]
        value = fn(state, *args)
        cache[key] = (state, value)
        last[0] = (state, args, value)
        if len(cache) > CAPACITY:
            try:
                cache.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                pass
        return value

    def cache_clear() -> None:
        last[0] = None
        cache.clear()

    cached.cache_clear = cache_clear  # type: ignore[attr-defined]
    return cached
