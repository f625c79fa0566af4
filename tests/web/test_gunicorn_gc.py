"""gunicorn.conf.py: the web worker's garbage collections run after a request's answer,
not inside the request."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


@pytest.fixture
def conf():
    """The settings module's hooks, with the collector's state put back afterwards."""
    thresholds = gc.get_threshold()
    hooks = runpy.run_path(str(CONF))
    yield hooks
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.fixture
def passes():
    """The generations the collector collects, in order."""
    seen: list[int] = []

    def note(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


def _started(conf, passes) -> None:
    conf["post_worker_init"](None)
    gc.collect()  # every count at 0
    passes.clear()


def test_after_start_up_only_a_request_keeping_a_great_many_objects_collects(conf, passes):
    _started(conf, passes)
    assert gc.get_threshold() == conf["NET"]
    assert conf["NET"][0] >= 10 * conf["BETWEEN_REQUESTS"][0]
    kept = [[] for _ in range(5 * conf["BETWEEN_REQUESTS"][0])]  # what a request might leave
    assert passes == []
    assert len(kept) and gc.get_count()[0] >= conf["BETWEEN_REQUESTS"][0]


def test_the_collection_due_runs_after_the_request(conf, passes):
    _started(conf, passes)
    conf["post_request"](None, None, None, None)  # little left behind: nothing to do
    assert passes == []

    kept = [[] for _ in range(conf["BETWEEN_REQUESTS"][0] + 1)]
    conf["post_request"](None, None, None, None)
    assert passes == [0]
    assert gc.get_count()[0] < conf["BETWEEN_REQUESTS"][0]
    del kept


def test_older_generations_are_collected_as_cpython_would(conf, passes):
    _started(conf, passes)
    young, middle, old = 100, 4, 3  # the hook's own counts, smaller to keep the test small
    conf["post_request"].__globals__["BETWEEN_REQUESTS"] = (young, middle, old)
    kept = []
    for _ in range((middle + 2) * (old + 1) + 1):
        kept.append([[] for _ in range(young + 1)])
        conf["post_request"](None, None, None, None)
    # the middle generation after 5 collections of the youngest, all three after 4 of the
    # middle one (CPython collects a generation once its count is past the threshold)
    assert passes == ([0] * (middle + 1) + [1]) * (old + 1) + [2]


def test_the_youngest_generation_is_collected_every_so_many_requests_however_little_they_left(conf, passes):
    """A request that frees as many old objects as it makes new ones (a cached game state
    replacing the one before) leaves the count where it was while the youngest
    generation's list grows: it is collected every ``EVERY_REQUESTS`` requests all the same."""
    _started(conf, passes)
    every = conf["EVERY_REQUESTS"]
    for _ in range(3 * every):
        conf["post_request"](None, None, None, None)
    assert passes == [0, 0, 0]
