"""The system's Chromium (Debian's package), driven by Playwright: never a downloaded browser.

Playwright's own browser download (``playwright install``) is never used: the machines
that run the suite reach package registries only, so the browser comes from Debian's
``chromium`` package (``.ci/run`` installs it) and Playwright's Python package drives it
through ``executable_path``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Optional

CHROMIUM = Path("/usr/bin/chromium")

#: Headless, no sandbox (the tests may run as root), and nothing that reaches for the
#: network on its own (updates, sync, field trials over QUIC).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

INSTALL_HINT = ("install Debian's browser with `apt-get update && apt-get install -y chromium` "
                "and the test tools with `pip install -e '.[test]'` (never `playwright install`)")


def missing() -> Optional[str]:
    """Why the browser tests cannot run here, or ``None`` when they can."""
    lacking = []
    if not CHROMIUM.is_file():
        lacking.append(f"{CHROMIUM} is missing")
    for module, package in (("playwright", "playwright"), ("axe_playwright_python", "axe-playwright-python")):
        if importlib.util.find_spec(module) is None:
            lacking.append(f"the Python package {package} is missing")
    if not lacking:
        return None
    return f"browser tests need Chromium and Playwright: {'; '.join(lacking)}; {INSTALL_HINT}"


def launch(playwright):
    """Chromium with a fresh temporary profile (Playwright makes one per launch and
    deletes it on close) and the switches above."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
