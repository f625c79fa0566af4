"""Fixtures of the webhook tests (shared with the table-talk and standing-order tests)."""

import pytest

from tests.webhooks.fixtures import *  # noqa: F401,F403


@pytest.fixture
def handed_over_translations(monkeypatch):
    """The German and Russian catalogues with ``translations/pending/*.json`` laid over
    them, as ``tools.i18n_refresh`` folds them in.  A branch may not touch the shared
    catalogues, so its new messages live there until the fold; afterwards the pending
    files are gone and this changes nothing."""
    from babel.support import NullTranslations

    from service import i18n
    from tools import i18n_refresh

    handed = i18n_refresh.pending()
    catalogue = i18n.translations

    class Overlay(NullTranslations):
        def __init__(self, language: str) -> None:
            super().__init__()
            self.language = language
            self.add_fallback(catalogue(language))

        def gettext(self, message):
            given = handed.get(message, {}).get(self.language)
            return given if isinstance(given, str) and given else super().gettext(message)

    def translations(language):
        language = i18n.language_or_default(language)
        return catalogue(language) if language == i18n.DEFAULT_LANGUAGE else Overlay(language)

    i18n.mail_environment.cache_clear()
    monkeypatch.setattr(i18n, "translations", translations)
    yield
    i18n.mail_environment.cache_clear()
