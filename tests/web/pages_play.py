"""Helpers of the game-page tests: games with bots driven to the decision a test needs,
forms read off the pages, and a record of the commands the pages submit."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any, Callable, Optional

from werkzeug.datastructures import MultiDict

from service.identity import auth
from service.play import games
from service.plumbing.db import User

_FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)


def user(s, email: str, *, timezone: Optional[str] = None, language: Optional[str] = None) -> User:
    """The user of ``email`` (created if new), with the time zone and language given."""
    found = auth.get_or_create_user(s, email)
    if timezone is not None:
        found.timezone = timezone
    if language is not None:
        found.language = language
    s.flush()
    return found


def bot_game(web_sessions, web_config, game_type: str, seats: int, email: str = "ann@example.org",
             options: Optional[dict] = None) -> str:
    """A running game of ``game_type``: ``email`` in seat 0, bots in every other seat."""
    with web_sessions() as s:
        game = games.create_game(s, web_config, creator=user(s, email), game_type=game_type, options=options or {},
                                 seats=seats, bot_seats=list(range(1, seats)))
        s.commit()
        return game.id


def drive_until(web_sessions, web_config, game_id: str, want: Callable[[dict], bool],
                email: str = "ann@example.org", steps: int = 400,
                choose: Optional[Callable[[dict], dict]] = None) -> Optional[dict]:
    """Answer the player's decisions (with ``choose(decision)``, else their defaults) until
    one that ``want`` accepts is open; ``None`` if the game ends or waits for nobody first."""
    for _ in range(steps):
        with web_sessions() as s:
            me = auth.get_or_create_user(s, email)
            open_now = games.decisions_for(s, game_id, me)
            found = next((d for d in open_now if want(d)), None)
            if found is not None:
                return found
            blocking = [d for d in open_now if d["mode"] != "free"]
            if not blocking:
                return None
            command = choose(blocking[0]) if choose else blocking[0]["default"]
            games.submit_command(s, web_config, game_id, me, command_type=command["type"], args=command["args"],
                                 expected_version=None)
            s.commit()
    return None


def decision_form(page: str, decision_id: str) -> str:
    """The HTML of the form that answers ``decision_id`` on a game page."""
    for form in _FORM.findall(page):
        if f'name="decision_id" value="{html.escape(decision_id)}"' in form:
            return form
    raise AssertionError(f"no form for {decision_id}")


_CHOICE = re.compile(r'<option value="([^"]+)">(.*?)</option>', re.S)


def option_buttons(page: str) -> list[dict]:
    """Every option form of a game page: method, action, the command and the button's words.
    An option of a choice list (``listed``) is one entry per choice, with the choice's words."""
    out = []
    for form in _FORM.findall(page):
        if 'class="choice-list"' in form:
            for value, words in _CHOICE.findall(form):
                out.append({"method": re.search(r'method="(\w+)"', form).group(1), "form": form, "listed": True,
                            "action": html.unescape(re.search(r'action="([^"]+)"', form).group(1)),
                            "command": json.loads(html.unescape(value)), "label": html.unescape(words).strip()})
            continue
        command = re.search(r'name="command" value="([^"]+)"', form)
        if command is None:
            continue
        words = re.search(r"<button[^>]*>(.*?)</button>", form, re.S)
        out.append({"method": re.search(r'method="(\w+)"', form).group(1), "form": form,
                    "action": html.unescape(re.search(r'action="([^"]+)"', form).group(1)),
                    "command": json.loads(html.unescape(command.group(1))),
                    "label": html.unescape(re.sub(r"<[^>]+>", "", words.group(1))).strip() if words else ""})
    return out


def hidden_value(form: str, name: str) -> str:
    match = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', form)
    assert match, f"no {name} in the form"
    return html.unescape(match.group(1))


class CommandLog:
    """Records every command the pages hand to :func:`service.play.games.submit_command`."""

    def __init__(self, monkeypatch) -> None:
        self.commands: list[dict] = []
        original = games.submit_command

        def recording(*args: Any, **kwargs: Any):
            self.commands.append({"type": kwargs["command_type"], "args": kwargs["args"]})
            return original(*args, **kwargs)

        monkeypatch.setattr(games, "submit_command", recording)


class _FormReader(HTMLParser):
    """What a browser would submit for the form posting to ``action``, untouched."""

    def __init__(self, action: str) -> None:
        super().__init__(convert_charrefs=True)
        self.action, self.inside, self.values = action, False, MultiDict()
        self.select: Optional[str] = None
        self.first_option: Optional[str] = None
        self.picked = False
        self.textarea: Optional[str] = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("action") == self.action and a.get("method", "get").lower() == "post"
        if not self.inside:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.values.add(a["name"], a.get("value", "on"))
            elif kind not in ("submit", "button"):
                self.values.add(a["name"], a.get("value", ""))
        elif tag == "select":
            self.select, self.first_option, self.picked = a.get("name"), None, False
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
            if "selected" in a and not self.picked:
                self.values.add(self.select, a.get("value", ""))
                self.picked = True
        elif tag == "textarea":
            self.textarea = a.get("name")
            self.values.add(self.textarea, "")

    def handle_data(self, data):
        if self.textarea:
            self.values.setlist(self.textarea, [self.values.getlist(self.textarea)[0] + data])

    def handle_endtag(self, tag):
        if tag == "select" and self.select:
            if not self.picked and self.first_option is not None:
                self.values.add(self.select, self.first_option)
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form":
            self.inside = False


def form_values(page: str, action: str) -> MultiDict:
    """The fields (with their shown values) of the POST form to ``action`` on ``page``."""
    reader = _FormReader(action)
    reader.feed(page)
    return reader.values
