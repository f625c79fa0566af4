"""Looking at a page the way the product's standards ask: screenshots at a phone's and a
desktop's width, axe-core's accessibility rules, and whether it fits a 360 px screen.

:class:`Inspector` keeps what it found for the test to assert at the end
(:meth:`Inspector.assert_accessible`), so one run reports every page's problems at once
instead of stopping at the first.  Screenshots and each page's full axe report (every
impact, for reading) are written to the artifacts folder.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
#: The impacts that fail a test; "minor" and "moderate" findings are only written to the report.
FAILING_IMPACTS = ("serious", "critical")

#: Resolves once the page has been laid out and painted at its new size (frames too).
_PAINTED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

#: Elements that reach past the right edge of the viewport (the page scrolls sideways).
_WIDE_ELEMENTS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1)) {
      out.push(el.outerHTML.slice(0, 160));
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, width: width, elements: out.slice(0, 5)};
}"""


def artifacts_root() -> Path:
    """``$CAPUA_TEST_ARTIFACTS`` or ``tests/browser/artifacts`` (ignored by git)."""
    configured = os.environ.get("CAPUA_TEST_ARTIFACTS")
    return Path(configured) if configured else ROOT / "tests" / "browser" / "artifacts"


@dataclass(frozen=True)
class Finding:
    """One problem on one page: an axe rule broken, or the page wider than a phone."""

    page: str
    url: str
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        where = "\n      ".join(self.targets)
        return f"[{self.page}] {self.rule} ({self.impact}): {self.help}\n    at {self.url}\n      {where}"


class Inspector:
    """Screenshots and accessibility checks of the pages one test visits."""

    def __init__(self, directory: Path) -> None:
        from axe_playwright_python.base import AXE_SCRIPT

        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        for old in self.directory.glob("*"):
            if old.is_file():
                old.unlink()  # a rerun replaces the pictures instead of mixing two runs
        self.findings: list[Finding] = []
        self.looked: list[str] = []
        self._axe_script = AXE_SCRIPT

    def look(self, page, name: str) -> list[Finding]:
        """Photograph ``page`` at phone and desktop width and check it at both widths;
        returns the failing findings of this page (they are also kept)."""
        self.looked.append(name)
        stem = f"{len(self.looked):02d}-{_slug(name)}"
        restore = page.viewport_size
        found: dict[tuple[str, tuple[str, ...]], Finding] = {}
        report = {"url": page.url, "violations": {}}
        try:
            for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
                page.set_viewport_size(size)
                page.evaluate(_PAINTED)
                # a long page (the full rules) takes a while to stitch on a busy machine
                page.screenshot(path=str(self.directory / f"{stem}-{label}.png"), full_page=True, timeout=120_000)
                violations = self._axe_violations(page)
                report["violations"][label] = violations
                for v in violations:
                    if v.get("impact") in FAILING_IMPACTS:
                        targets = tuple(", ".join(map(str, n["target"])) + "  " + n.get("html", "")[:160]
                                        for n in v["nodes"])
                        found[(v["id"], targets)] = Finding(name, page.url, v["id"], v["impact"], v["help"], targets)
                if label == "phone":
                    wide = page.evaluate(_WIDE_ELEMENTS)
                    report["phone_width"] = wide
                    if wide["scrollWidth"] > wide["width"]:
                        found[("phone-width", ())] = Finding(
                            name, page.url, "phone-width", "serious",
                            f"the page is {wide['scrollWidth']} px wide on a {wide['width']} px screen "
                            "(it scrolls sideways)", tuple(wide["elements"]))
        finally:
            if restore:
                page.set_viewport_size(restore)
        (self.directory / f"{stem}-axe.json").write_text(json.dumps(report, indent=1))
        self.findings.extend(found.values())
        return list(found.values())

    def _axe_violations(self, page) -> list[dict]:
        """axe-core's violations on ``page`` (its script is put into a page once)."""
        if not page.evaluate("typeof window.axe === 'object'"):
            page.evaluate(self._axe_script)
        return page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]

    def assert_accessible(self) -> None:
        """Fail listing every serious or critical finding on every page looked at."""
        assert self.looked, "no page was inspected"
        if self.findings:
            pages = sorted({f.page for f in self.findings})
            raise AssertionError(
                f"{len(self.findings)} serious or critical accessibility problem(s) on {', '.join(pages)} "
                f"(screenshots and axe reports in {self.directory}):\n" + "\n".join(map(str, self.findings)))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "page"
