"""The house stays in order: the rooms of ``service/`` depend one way, and no import
cycle exists anywhere in ``service``, ``worker`` or ``engine``.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``) and are run here with
import-linter.  Its ``layers`` contract does not see a cycle inside one layer, and its
``acyclic_siblings`` contract does not see one between a package's ``__init__`` and its
own modules, so a module-level check on grimp's import graph (the graph import-linter
builds on, function-level imports included) finds every cycle; a throw-away package
proves that it does.
"""

from __future__ import annotations

import contextlib
import logging
import textwrap
from pathlib import Path

import grimp
import pytest
from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("service", "worker", "engine")

def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return cycles


def _graph(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, exclude_type_checking_imports=True, cache_dir=None)


def test_the_layer_contracts_hold(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    with _loggers_kept():
        status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert status == EXIT_STATUS_SUCCESS, "import contracts broken:\n" + capsys.readouterr().out
    assert not logging.getLogger("service.plumbing.wal").disabled, "the tests after this one still see the logs"


@contextlib.contextmanager
def _loggers_kept():
    """Every logger as it was, after import-linter's run: it configures logging with
    ``dictConfig``, which turns off every logger that exists (so a test run after this
    one would no longer see Capua's log lines)."""
    manager = logging.root.manager
    loggers = [logger for logger in [logging.root, *manager.loggerDict.values()] if isinstance(logger, logging.Logger)]
    kept = [(logger, logger.disabled, logger.level, logger.propagate, list(logger.handlers)) for logger in loggers]
    try:
        yield
    finally:
        for logger, disabled, level, propagate, handlers in kept:
            logger.disabled, logger.propagate = disabled, propagate
            logger.setLevel(level)
            logger.handlers[:] = handlers


def test_no_import_cycle_in_service_worker_or_engine():
    assert import_cycles(_graph(*PACKAGES)) == []


def _package(tmp_path: Path, name: str, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = tmp_path / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


@pytest.mark.parametrize("files, expected", [
    # Two modules that import each other, one only inside a function.
    ({"__init__.py": "", "a.py": "from looped import b\n",
      "b.py": "def later():\n    from looped import a\n    return a\n"},
     [["looped.a", "looped.b"]]),
    # A package's __init__ and one of its own modules (what acyclic_siblings cannot see).
    ({"__init__.py": "", "api/__init__.py": "from looped.api.docs import PAGE\nPREFIX = '/api'\n",
      "api/docs.py": "from looped.api import PREFIX\nPAGE = PREFIX + '/docs'\n"},
     [["looped.api", "looped.api.docs"]]),
    # A longer circle through three rooms.
    ({"__init__.py": "", "play/__init__.py": "", "play/games.py": "import looped.notify.mail\n",
      "notify/__init__.py": "", "notify/mail.py": "from looped.worker import tasks\n",
      "worker/__init__.py": "", "worker/tasks.py": "from looped.play.games import *\n"},
     [["looped.notify.mail", "looped.play.games", "looped.worker.tasks"]]),
    # One way only: no cycle.
    ({"__init__.py": "", "a.py": "from looped import b\n", "b.py": "X = 1\n"}, []),
])
def test_the_cycle_check_finds_a_cycle_that_is_added(tmp_path, monkeypatch, files, expected):
    _package(tmp_path, "looped", files)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles(_graph("looped")) == expected
