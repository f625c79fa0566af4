"""Helpers of the site page tests: catalogues that already hold the pending translations.

Branches hand over new translations in ``translations/pending/*.json`` and leave the shared
catalogues alone until the lead folds them in, so a test of a German or Russian page compiles
its own catalogues: the committed ``.po`` files with the pending translations merged in.  Once
the pending files are folded, the result is the same as the committed catalogues.
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"


@functools.cache
def merged_translations() -> str:
    """A directory of compiled catalogues (``<lang>/LC_MESSAGES/messages.mo``) with every
    pending translation added; built once per test run."""
    target = Path(tempfile.mkdtemp(prefix="capua-translations-"))
    pending: dict[str, dict] = {}
    for path in sorted((TRANSLATIONS / "pending").glob("*.json")):
        for msgid, by_lang in json.loads(path.read_text(encoding="utf-8")).items():
            pending.setdefault(msgid, {}).update(by_lang)
    for lang in ("de", "ru"):
        with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
            catalog: Catalog = read_po(f, locale=lang)
        for msgid, by_lang in pending.items():
            given = by_lang.get(lang)
            if not given:
                continue
            if isinstance(given, list):
                message = catalog.get(msgid)
                if message is None:
                    continue
                message.string = tuple(given)
            else:
                catalog.add(msgid, given)
        out = target / lang / "LC_MESSAGES"
        out.mkdir(parents=True)
        with open(out / "messages.mo", "wb") as f:
            write_mo(f, catalog)
    return str(target)


def use_merged_translations(app) -> None:
    """Point ``app``'s Flask-Babel at :func:`merged_translations` (before its first request)."""
    app.extensions["babel"].translation_directories = [merged_translations()]
