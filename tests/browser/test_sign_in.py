"""Signing in by magic link in a real browser, with the mail read from the developer outbox."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.player import signed_in_as, sign_in_by_mail

pytestmark = pytest.mark.browser


def test_a_newcomer_signs_in_with_the_link_mailed_to_the_outbox(page, live_server, inspector):
    """The landing page's form mails a link (delivered by the in-process worker to the
    outbox); following it and confirming signs the visitor in and lands on "my games"."""
    email = "ann.browser@example.org"
    page.goto(live_server.url("/"))
    assert signed_in_as(page) is None

    sign_in_by_mail(page, live_server, email, start="/", look=lambda name: inspector.look(page, name))

    assert signed_in_as(page) == email
    assert urlsplit(page.url).path == "/games"
    inspector.look(page, "my games (empty)")
    inspector.assert_accessible()


def test_a_used_sign_in_link_is_refused_in_the_browser(page, new_page, live_server, inspector):
    """A link works once: opening it again, in another browser, shows why it is refused,
    not a sign-in. (Another browser context, not cleared cookies: a request still in flight
    in the first tab would set the session cookie again.)"""
    email = "bob.browser@example.org"
    sign_in_by_mail(page, live_server, email, start="/signin")
    page.goto(live_server.url("/dev/outbox"))
    page.locator("tbody tr", has_text=email).first.locator("a").click()
    link = page.locator("pre.mail a[href*='/auth/magic/']").first.get_attribute("href")

    elsewhere = new_page()
    answer = elsewhere.goto(link)

    assert answer.status == 403
    assert elsewhere.locator("main [role=alert]").is_visible()
    assert elsewhere.locator("form[action*='/auth/magic/']").count() == 0
    assert signed_in_as(elsewhere) is None
    inspector.look(elsewhere, "used link refused")
    inspector.assert_accessible()
