"""The upcaster kernel (engine.core.upcast): rewriting runs of stored events in one pass."""

from __future__ import annotations

from engine.core.types import Event
from engine.core.upcast import at_version, chain, rewriter, upcast


def _pair(event, following):
    """Test rewrite: ``A`` 1 followed by ``B`` is one ``A`` 2 with ``b``; ``A`` 1 alone is ``A`` 2."""
    if event.version >= 2:
        return None
    took = following is not None and following.type == "B"
    return (at_version(event, 2, b=took),), took


def test_a_pair_becomes_one_event_and_the_rest_passes_unchanged():
    run = rewriter({"A": _pair})
    events = [Event("X"), Event("A", {"n": 1}), Event("B"), Event("Y"), Event("A", {"n": 2}), Event("Z")]
    assert list(run(events)) == [Event("X"), Event("A", {"n": 1, "b": True}, 2), Event("Y"),
                                 Event("A", {"n": 2, "b": False}, 2), Event("Z")]


def test_a_run_cut_short_is_rewritten_as_far_as_it_goes():
    run = rewriter({"A": _pair})
    assert list(run([Event("A")])) == [Event("A", {"b": False}, 2)]
    assert list(run([Event("B")])) == [Event("B")]
    assert list(run([])) == []


def test_events_already_current_are_left_alone():
    run = rewriter({"A": _pair})
    current = [Event("A", {"b": True}, 2), Event("B")]
    assert list(run(current)) == current


def test_a_dropped_event_and_chained_upcasters():
    drop = rewriter({"D": lambda e, f: ((), False)})
    both = chain(drop, rewriter({"A": _pair}))
    assert list(both([Event("A"), Event("D"), Event("B")])) == [Event("A", {"b": True}, 2)]


def test_a_game_without_an_upcaster_reads_its_events_as_stored():
    class Plain:
        pass

    events = [Event("A"), Event("B")]
    assert upcast(Plain(), events) is events
