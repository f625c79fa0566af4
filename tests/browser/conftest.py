"""Fixtures of the browser tests: the live server, Chromium, a fresh page, an inspector.

The browser tests need Debian's Chromium at ``/usr/bin/chromium`` and the Python
packages ``playwright`` and ``axe-playwright-python`` (the ``test`` extra).  Without them
they are skipped on a developer's machine but fail under CI (``CI`` set): a green CI run
must mean they ran.  They run on SQLite only — they test pages, not databases — against
one server for the whole session; each test works with its own users and games.
"""

from __future__ import annotations

import os
from typing import Optional

import pytest

from tests.browser import chromium
from tests.browser.inspection import PHONE, Inspector, artifacts_root
from tests.browser.live_server import LiveServer


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the system's Chromium against a live server")


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright's driver, once the browser and packages are known to be there."""
    reason = chromium.missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """One headless Chromium for the session (each test gets its own context)."""
    instance = chromium.launch(playwright_driver)
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def live_server(playwright_driver, tmp_path_factory):
    """The real app with its embedded defaults, served on a free loopback port.

    Depends on the driver so that a machine without a browser skips before starting it.
    """
    server = LiveServer(tmp_path_factory.mktemp("capua-instance")).start()
    yield server
    server.stop()


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(storage_state=None, locale="en-US", timezone_id=None)``: a page in a fresh browser context
    (no cookies unless ``storage_state`` brings a signed-in one), at a phone's size (360 px wide).

    Fails the test if any page answered with a server error (no input may cause a 500)
    or a script on a page threw.
    """
    contexts, broken = [], []

    def open_page(storage_state=None, locale: str = "en-US", timezone_id: Optional[str] = None):
        context = browser.new_context(locale=locale, viewport=PHONE, storage_state=storage_state,
                                      timezone_id=timezone_id)
        # an upper bound, never a wait: a loaded machine may take seconds to answer a command
        context.set_default_timeout(30_000)
        contexts.append(context)
        tab = context.new_page()
        tab.on("response", lambda r: broken.append(f"{r.status} {r.request.method} {r.url}")
               if r.status >= 500 else None)
        tab.on("pageerror", lambda err: broken.append(f"script error on {tab.url}: {err}"))
        return tab

    yield open_page
    for context in contexts:
        context.close()
    if broken:
        pytest.fail("the browser met server or script errors:\n" + "\n".join(broken), pytrace=False)


@pytest.fixture
def page(new_page):
    """A page in a fresh browser context, not signed in, in English (see ``new_page``)."""
    return new_page()


@pytest.fixture
def inspector(request, playwright_driver) -> Inspector:
    """Screenshots and axe checks, kept in ``<artifacts>/<test name>/``."""
    return Inspector(artifacts_root() / _slug_of(request.node.name))


def _slug_of(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")
