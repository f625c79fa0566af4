"""Timing, percentiles and the machine description shared by the benchmarks."""

from __future__ import annotations

import os
import platform
import re
import statistics
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

RESULTS = Path(__file__).with_name("RESULTS.md")


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank; samples need not be sorted."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summarize(samples: list[float]) -> dict:
    """p50/p99/mean in milliseconds of samples given in seconds."""
    return {
        "n": len(samples),
        "p50_ms": percentile(samples, 50) * 1000,
        "p99_ms": percentile(samples, 99) * 1000,
        "mean_ms": statistics.fmean(samples) * 1000,
    }


def time_each(fn: Callable[[], object], n: int, *, progress: str = "") -> list[float]:
    """Run ``fn`` n times and return each duration in seconds, with a progress line."""
    out: list[float] = []
    for i in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
        if progress and (i + 1) % max(1, n // 10) == 0:
            print(f"\r  {progress}: {i + 1}/{n}", end="", flush=True)
    if progress:
        print()
    return out


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    box: list[float] = []
    t0 = time.perf_counter()
    try:
        yield box
    finally:
        box.append(time.perf_counter() - t0)


def machine() -> str:
    """One line naming the machine the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        mem = f", {pages / 2**30:.0f} GiB"
    except (ValueError, OSError):
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}){mem}, Python {platform.python_version()}"


def write_section(section: str, body: str) -> None:
    """Replace the section ``## {section}`` of ``bench/RESULTS.md`` by ``body`` (or add it);
    the other sections are kept."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n\nEach section is rewritten by its benchmark.\n\n"
    pattern = re.compile(rf"^## {re.escape(section)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text)
    else:
        text = text.rstrip() + "\n\n" + body + "\n"
    RESULTS.write_text(text)


def publish(section: str, body: str, *, write: bool) -> None:
    """Print a benchmark's section and, with ``write``, put it into ``bench/RESULTS.md``."""
    print()
    print(body)
    if write:
        write_section(section, body)
        print(f"written to {RESULTS}")
