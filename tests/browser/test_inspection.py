"""The inspector itself: it must catch what it is there to catch, or a green run means nothing."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

BROKEN_PAGE = """<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>
<h1>Broken on purpose</h1>
<p style="color:#bbb;background:#fff">Pale grey text on white.</p>
<form><input type="text" name="who"></form>
<pre style="white-space:pre">a line far too long for a phone: ------------------------------------------------------------</pre>
</main></body></html>"""

GOOD_PAGE = """<!doctype html><html lang="en"><head><title>Fine</title></head><body><main>
<h1>Fine</h1><p>Dark text.</p><form><label for="who">Name</label><input id="who" type="text" name="who"></form>
</main></body></html>"""


def test_serious_violations_and_sideways_scrolling_are_reported(page, inspector):
    page.set_content(BROKEN_PAGE)

    found = {f.rule for f in inspector.look(page, "broken on purpose")}

    assert {"color-contrast", "label", "phone-width"} <= found
    with pytest.raises(AssertionError, match="color-contrast"):
        inspector.assert_accessible()
    shots = sorted(p.name for p in inspector.directory.iterdir())
    assert shots == ["01-broken-on-purpose-axe.json", "01-broken-on-purpose-desktop.png",
                     "01-broken-on-purpose-phone.png"]
    report = json.loads((inspector.directory / shots[0]).read_text())
    assert {"phone", "desktop"} <= set(report["violations"])


def test_a_clean_page_passes_and_keeps_its_viewport(page, inspector):
    page.set_content(GOOD_PAGE)
    before = page.viewport_size

    assert inspector.look(page, "fine") == []

    inspector.assert_accessible()
    assert page.viewport_size == before
