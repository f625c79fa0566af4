"""Bring the catalogues up to date: extract every marked string, update the German and
Russian catalogues, fill in translations handed over in ``translations/pending/*.json``,
and compile.

    python -m tools.i18n_refresh           # write translations/ and remove the pending files
    python -m tools.i18n_refresh --check   # write nothing; list what lacks a translation

A pending file maps each English message to its translations, for work done apart from
the catalogues (a branch that must not touch the shared ``.po`` files)::

    {"Place your bid.": {"de": "Gib dein Gebot ab.", "ru": "Сделайте ставку."}}

A plural message is keyed by its singular, with a list per language.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
PENDING = TRANSLATIONS / "pending"
LANGUAGES = ("de", "ru")


def _babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(target: Path) -> None:
    # (``NP_``: a message with a number in a table of messages, see service.words.i18n)
    _babel("extract", "-F", str(ROOT / "babel.cfg"), "-k", "NP_:1,2", "--no-location", "--omit-header",
           "-o", str(target), str(ROOT))


def pending() -> dict[str, dict[str, object]]:
    merged: dict[str, dict[str, object]] = {}
    for path in sorted(PENDING.glob("*.json")):
        for msgid, by_lang in json.loads(path.read_text(encoding="utf-8")).items():
            merged.setdefault(msgid, {}).update(by_lang)
    return merged


def _key(message) -> str:
    return message.id[0] if isinstance(message.id, (tuple, list)) else message.id


def missing(pot: Path) -> dict[str, list[str]]:
    """language -> messages of ``pot`` that neither its catalogue nor a pending file translates."""
    handed_over = pending()
    with open(pot, "rb") as f:
        template = read_po(f)
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
            catalog = read_po(f)
        done = {_key(m) for m in catalog if m.id and m.string and not m.fuzzy
                and (not isinstance(m.string, (tuple, list)) or all(m.string))}
        out[lang] = [_key(m) for m in template if m.id and _key(m) not in done
                     and not handed_over.get(_key(m), {}).get(lang)]
    return out


def _without_date(po: bytes) -> list[bytes]:
    return [line for line in po.splitlines() if not line.startswith(b'"POT-Creation-Date:')]


def refresh() -> None:
    pot = TRANSLATIONS / "messages.pot"
    before = {lang: (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").read_bytes() for lang in LANGUAGES}
    extract(pot)
    for lang in LANGUAGES:
        _babel("update", "-i", str(pot), "-d", str(TRANSLATIONS), "-l", lang, "--no-fuzzy-matching",
               "--ignore-obsolete")
    handed_over = pending()
    for lang in LANGUAGES:
        po_path = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
        with open(po_path, "rb") as f:
            catalog = read_po(f, locale=lang)
        for message in catalog:
            given = handed_over.get(_key(message), {}).get(lang) if message.id else None
            if given:
                message.string = tuple(given) if isinstance(message.id, (tuple, list)) else given
                # (an update marks a message fuzzy when it gains a plural; a fuzzy one is not compiled)
                message.flags.discard("fuzzy")
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=76)
        # an unchanged catalogue keeps its date, so a refresh with nothing new changes no file
        unchanged = _without_date(buffer.getvalue()) == _without_date(before[lang])
        po_path.write_bytes(before[lang] if unchanged else buffer.getvalue())
    _babel("compile", "-d", str(TRANSLATIONS))
    for path in PENDING.glob("*.json"):
        path.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; list untranslated messages")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            pot = Path(tmp) / "messages.pot"
            extract(pot)
            gaps = missing(pot)
    else:
        refresh()
        gaps = missing(TRANSLATIONS / "messages.pot")
    for lang, ids in gaps.items():
        for msgid in ids:
            print(f"{lang}: untranslated: {msgid!r}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
