"""Languages: the catalogues in ``translations/`` for pages (Flask-Babel) and for mail
rendered by workers outside any request (Babel directly), and moments in the reader's
time zone.  Prompts, command names and events are told in :mod:`service.words.telling`.

English is the default and the language of the source strings; German and Russian are
the languages of the rulebooks.  Catalogues are ordinary gettext catalogues:
``translations/<lang>/LC_MESSAGES/messages.po`` with the compiled ``.mo`` beside it
(``python -m tools.i18n_refresh`` extracts, updates and compiles them; a test fails when
a ``.mo`` is out of date).

A message with a number in it is said in the form the number asks for: ``ngettext`` where
code says it, and :func:`NP_` (a :class:`Counted` message) where a table of messages holds
it, so that "1 step" and "5 steps", "1 шаг" and "5 шагов" each read right.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

from babel.dates import format_date
from babel.support import NullTranslations, Translations
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from service.plumbing import clock

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS_DIR = ROOT / "translations"
TEMPLATES_DIR = ROOT / "templates"
LANGUAGES = ("en", "de", "ru")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "ru": "Русский"}


def N_(message: str) -> str:
    """Marks a string for extraction; it is translated where it is used."""
    return message


def language_or_default(language: Optional[str]) -> str:
    """``language`` if Capua speaks it (``de-AT`` counts as ``de``), else English."""
    if isinstance(language, str):
        base = language.strip().lower().replace("_", "-").split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


@functools.cache
def translations(language: str) -> NullTranslations:
    """The compiled catalogue of ``language`` (English: the source strings themselves)."""
    language = language_or_default(language)
    if language == DEFAULT_LANGUAGE:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS_DIR), [language], domain="messages")


@dataclass(frozen=True)
class Counted:
    """A message with a number in it, in English's singular and plural: said in the
    reader's form for the number in its placeholder ``by`` (:func:`gettext`)."""

    singular: str
    plural: str
    by: str


def NP_(singular: str, plural: str, by: str) -> Counted:
    """Marks a message with a number for extraction (``-k NP_:1,2``, as
    ``tools.i18n_refresh`` extracts); it is translated where it is used."""
    return Counted(singular, plural, by)


def _whole(value: Any) -> Optional[int]:
    """``value`` as a whole number (an ``int``, or the digits of one); ``None`` otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def gettext(language: str, message: Union[str, Counted], **params: Any) -> str:
    """``message`` in ``language``, with ``%(name)s`` placeholders filled from ``params``;
    a :class:`Counted` message in the form its number takes (the plural where its
    placeholder holds no whole number)."""
    if isinstance(message, Counted):
        n = _whole(params.get(message.by))
        # (no number to choose by: the form of 5, which is the plural in every language here)
        text = translations(language).ngettext(message.singular, message.plural, 5 if n is None else n)
        return text % params if params else text
    text = translations(language).gettext(message)
    return text % params if params else text


def ngettext(language: str, singular: str, plural: str, n: int, **params: Any) -> str:
    """``singular`` or ``plural`` in ``language``'s form for ``n``, with ``%(num)s`` the
    number and the other placeholders filled from ``params``."""
    text = translations(language).ngettext(singular, plural, n)
    return text % {"num": n, **params}


def translator(language: str) -> Callable[..., str]:
    """A ``_(message, **params)`` bound to ``language``, for code that renders text."""
    return functools.partial(gettext, language_or_default(language))


@functools.cache
def mail_environment(language: str) -> Environment:
    """A Jinja environment for mail templates with ``language``'s catalogue installed.

    One environment per language: installing translations on a shared environment
    would race between worker threads rendering mail for different players.
    """
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    return env


def format_moment(moment: Optional[dt.datetime], language: str, tz_name: str, *, name_zone: bool = True) -> str:
    """A deadline as the player reads it: weekday, date and time in their time zone and
    language, with the zone named (``Freitag, 27. November 2026, 20:00 (Europe/Berlin)``);
    without the zone (``name_zone=False``) where the page names it once, as the history does."""
    if moment is None:
        return ""
    try:
        tz = clock.zone(tz_name)
    except ValueError:
        tz, tz_name = clock.zone("UTC"), "UTC"
    local = moment.astimezone(tz)
    locale = language_or_default(language)
    said = f"{format_date(local.date(), 'full', locale=locale)}, {local:%H:%M}"
    return f"{said} ({tz_name})" if name_zone else said
