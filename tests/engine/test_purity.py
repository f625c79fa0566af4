"""The engine is pure: standard library only, no randomness, no clock."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: the only engine modules allowed to touch a random generator: they take an injected one
TAKES_INJECTED_RNG = {"core/bots.py", "core/playout.py", "core/schema.py"}

_IMPURE = re.compile(
    r"^\s*(import|from)\s+(random|time|secrets|datetime|uuid)\b"
    r"|\bdatetime\.(now|utcnow|today)\b|\btime\.(time|monotonic|perf_counter)\b"
    r"|\bos\.urandom\b|\bSystemRandom\b",
    re.MULTILINE,
)


def test_importing_the_engine_pulls_in_only_the_standard_library():
    probe = """
import sys
before = set(sys.modules)
import importlib, json, pkgutil
import engine, engine.core, engine.registry
for info in pkgutil.walk_packages(engine.core.__path__, "engine.core."):
    importlib.import_module(info.name)
import engine.pax
for info in pkgutil.walk_packages(engine.pax.__path__, "engine.pax."):
    importlib.import_module(info.name)
rules = engine.registry.get("pax")
rules.initial_state(4, {})
roots = sorted({name.split(".")[0] for name in set(sys.modules) - before})
print(json.dumps([r for r in roots if r not in sys.stdlib_module_names and r != "engine"]))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ENGINE.parent, check=True)
    foreign = json.loads(out.stdout.strip().splitlines()[-1])
    assert foreign == [], f"engine imports non-stdlib modules: {foreign}"


def test_no_randomness_or_clock_inside_the_engine():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE).as_posix()
        if rel in TAKES_INJECTED_RNG:
            continue
        for match in _IMPURE.finditer(path.read_text(encoding="utf-8")):
            offenders.append(f"{rel}: {match.group(0).strip()}")
    assert offenders == []


def test_the_rng_users_only_take_an_injected_generator():
    for rel in TAKES_INJECTED_RNG:
        text = (ENGINE / rel).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|from)\s+(random|secrets|time)\b", text, re.MULTILINE), rel
