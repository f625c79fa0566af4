"""Helpers of the notification tests: run the worker's jobs by hand, and read links out
of received mail the way a person clicking them would."""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import Optional

from service.notify import mailing
from service.plumbing import mail
from service.plumbing import database

_BUTTON = re.compile(r"^\s+\* (?P<label>.+): (?P<url>https?://\S+/act/\S+)$", re.M)
_ACT = re.compile(r"https?://[^\s<>\"']+/act/[A-Za-z0-9_.\-]+")
_UNSUB = re.compile(r"https?://[^\s<>\"']+/unsubscribe/[A-Za-z0-9_.\-]+")
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_COMMAND = re.compile(r'name="command" value="([^"]+)"')


def pump(sessions, config, now=None) -> list[int]:
    """What the worker does after a commit: compose due notifications, send the mail."""
    composed = mailing.compose_due(sessions, config, now)
    for mail_id in composed:
        mail.deliver(sessions, config, mail_id)
    return composed


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def html_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def buttons(message: EmailMessage) -> list[tuple[str, str]]:
    """The one-click answers of a mail: ``(label, url)`` in order."""
    return [(m.group("label"), m.group("url")) for m in _BUTTON.finditer(text_of(message))]


def act_links(message: EmailMessage) -> list[str]:
    return _ACT.findall(text_of(message))


def unsubscribe_link(message: EmailMessage) -> str:
    return _UNSUB.search(text_of(message)).group(0)


def path_of(url: str, config) -> str:
    assert url.startswith(config.base_url), url
    return url[len(config.base_url):]


def csrf_from(html: str) -> Optional[str]:
    match = _CSRF.search(html)
    return match.group(1) if match else None


def commands_on(html: str) -> list[str]:
    """The answers a ``choose`` page offers (each a form posting ``command``)."""
    import html as html_mod

    return [html_mod.unescape(v) for v in _COMMAND.findall(html)]


def sign_in(app, browser, sink, address: str) -> None:
    """The magic-link sign-in, with the link read from the mail the SMTP sink received."""
    config = app.extensions["capua.config"]
    page = browser.get("/signin")
    browser.post("/signin", data={"email": address, "next": "/", "csrf_token": csrf_from(page.data.decode())})
    mail.deliver_pending(database.sessions(app), config)
    link = re.search(r"https?://\S+/auth/magic/[A-Za-z0-9_.\-]+", text_of(sink.received()[-1])).group(0)
    confirm = browser.get(path_of(link, config))
    done = browser.post(path_of(link, config), data={"csrf_token": csrf_from(confirm.data.decode())})
    assert done.status_code == 303, done.data
