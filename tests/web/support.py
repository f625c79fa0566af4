"""Helpers of the web tests: CSRF tokens from pages, reading the mail outbox, and pressing
the button of a confirm page."""

from __future__ import annotations

from service.plumbing import database

import email
import email.policy
import html as htmllib
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Optional

class _Reader(HTMLParser):
    """Collects the text a person reads on a page: text nodes only, never markup, scripts or styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in {"script", "style", "template"}:
            self._hidden += 1

    def handle_endtag(self, tag) -> None:
        if tag in {"script", "style", "template"} and self._hidden:
            self._hidden -= 1

    def handle_data(self, data) -> None:
        if not self._hidden:
            self.parts.append(data)


def read_text(page: bytes | str) -> str:
    """What a person reads on ``page``: its text with the tags gone and entities decoded,
    whitespace folded.  Markup escaped into the text (``&lt;strong&gt;``) stays visible
    here as ``<strong>``, as it does on the screen."""
    reader = _Reader()
    reader.feed(page.decode() if isinstance(page, bytes) else page)
    return " ".join("".join(reader.parts).split())


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_MAGIC = re.compile(r"https?://\S+?/auth/magic/[A-Za-z0-9_.\-]+")


def csrf_from(html: bytes | str) -> str:
    """The CSRF token of the first form on a page."""
    text = html.decode() if isinstance(html, bytes) else html
    match = _CSRF.search(text)
    assert match, "the page has no form with a CSRF token"
    return match.group(1)


def outbox_files(config) -> list[Path]:
    directory = Path(config.mail_outbox_dir)
    return sorted(directory.glob("*.eml")) if directory.is_dir() else []


def parse_eml(path: Path) -> email.message.EmailMessage:
    with open(path, "rb") as fh:
        return email.message_from_binary_file(fh, policy=email.policy.default)


def magic_link_in(message: email.message.EmailMessage) -> str:
    """The sign-in link of a mail, from its text part (which must agree with the HTML)."""
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    match = _MAGIC.search(text)
    assert match, text
    assert match.group(0) in html
    return match.group(0)


def path_of(url: str, config) -> str:
    assert url.startswith(config.base_url), url
    return url[len(config.base_url):]


def sign_in_with(app, client, address: str, next: str = "/") -> str:
    """The whole magic-link flow, as a browser does it: the form, the mail delivered to
    the outbox, the link read from the ``.eml`` file, the confirm page, the POST.
    Returns where the sign-in redirected to."""
    from service.plumbing import mail

    config = app.extensions["capua.config"]
    before = set(outbox_files(config))
    page = client.get(f"/signin?next={next}")
    answer = client.post("/signin", data={"email": address, "next": next, "csrf_token": csrf_from(page.data)})
    assert answer.status_code == 303, answer.data
    mail.deliver_pending(database.sessions(app), config)
    (new,) = set(outbox_files(config)) - before
    link = path_of(magic_link_in(parse_eml(new)), config)
    confirm = client.get(link)
    done = client.post(link, data={"csrf_token": csrf_from(confirm.data)})
    assert done.status_code == 303, done.data
    return done.headers["Location"]


def signed_in_email(client) -> Optional[str]:
    """The address the header of the landing page shows, or ``None``."""
    page = client.get("/").data.decode()
    match = re.search(r'<div class="me">\s*<span>([^<]+)</span>', page)
    return match.group(1) if match else None


_CONFIRM_FORM = re.compile(r'<form method="post" action="([^"]+)">((?:(?!</form>).)*?name="confirmed"(?:(?!</form>).)*)</form>',
                           re.S)
_HIDDEN_INPUT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def press_confirm(client, page):
    """Press the button of a confirm page as a person would: POST every field of its form.
    ``page`` is the page's HTML or the response that carried it."""
    text = page if isinstance(page, str) else page.get_data(as_text=True)
    form = _CONFIRM_FORM.search(text)
    assert form, "a confirm page with its button"
    fields = {htmllib.unescape(name): htmllib.unescape(value) for name, value in _HIDDEN_INPUT.findall(form.group(2))}
    return client.post(htmllib.unescape(form.group(1)), data=fields)


def through_confirm(client, answer):
    """The answer to a POST, or, when the POST showed the confirm page of a choice the game
    asks to confirm (``CONFIRM`` in its terms), the answer to pressing its button."""
    if answer.status_code == 200 and 'name="confirmed"' in answer.get_data(as_text=True):
        return press_confirm(client, answer)
    return answer


def decision_of(listed: dict):
    """The kernel's :class:`Decision` behind a decision as ``games.decisions_for`` lists it,
    for the kernel's bots to choose from."""
    from engine.core.types import Command, Decision

    seat = listed["seat"]
    options = tuple(Command(seat, o["type"], o["args"]) for o in listed["options"]) if "options" in listed else None
    return Decision(id=listed["id"], seat=seat, mode=listed["mode"], prompt=listed["prompt"],
                    default=Command(seat, listed["default"]["type"], listed["default"]["args"]),
                    command_type=listed["command_type"], options=options, schema=listed.get("schema"))


def answer_or_default(session, config, game_id: str, user, listed: dict, command) -> None:
    """Submit ``command`` for the listed decision; when the rules refuse it (a bot's random
    pick of a schema decision may be illegal), submit the decision's default instead, as
    the service's bots do."""
    from service.play import games
    from service.plumbing.db import Game
    from service.plumbing.errors import Conflict, InvalidInput

    try:
        games.submit_command(session, config, game_id, user, command_type=command.type, args=dict(command.args),
                             expected_version=listed["version"])
    except (Conflict, InvalidInput):
        session.rollback()
        default = decision_of(listed).default
        games.submit_command(session, config, game_id, user, command_type=default.type, args=dict(default.args),
                             expected_version=session.get(Game, game_id).version)
