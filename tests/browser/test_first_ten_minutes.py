"""A newcomer's first ten minutes, exactly as README.md tells them.

Nothing is prepared behind the browser's back: ``capua demo`` runs as a separate
process in an empty folder (a fresh instance, every setting at its default), its
printed link is followed, the first moves are clicked, the newcomer comes back by
signing in as the demo account through the outbox, starts a game of each kind against
bots with the new-game form and switches the language in the header.  Each step
checks first that the README says it, in the words the newcomer reads.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.player import (
    answer_a_decision,
    follow_sign_in_link,
    game_has_ended,
    open_decision_prompts,
    sign_in_by_mail,
    signed_in_as,
    submit,
    switch_language,
    wait_for_a_decision,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
README = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())

#: Each game the README offers at /games/new, with the players the newcomer picks.
NEW_GAMES = {"pax": 3, "rom": 3, "spartacus": 3, "spartacus_arena": 2}
BOARDS = {"pax": "svg.pax-rome", "rom": ".rom svg.rom-map", "spartacus": "svg.sp-svg",
          "spartacus_arena": "svg.arena-board"}
#: The header's "My games" in each language the README names.
MY_GAMES = {"en": "My games", "de": "Meine Spiele", "ru": "Мои игры"}


class DemoProcess:
    """``capua demo --port P`` started in ``folder``, as a newcomer starts it."""

    def __init__(self, folder: Path, port: int) -> None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder), "PYTHONPATH": str(ROOT),
               "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from service.cli import main; main()", "demo", "--port", str(port)],
            cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def url(self, path: str = "/") -> str:
        return self.base + path

    def printed_link(self, timeout: float = 60.0) -> str:
        """The link ``capua demo`` prints, once the server answers."""
        deadline = time.monotonic() + timeout
        while True:
            found = [m.group(1) for line in list(self.lines)
                     if (m := re.search(r"Your PAX game against three bots: (\S+)", line))]
            if found:
                break
            assert self.process.poll() is None, "capua demo stopped:\n" + "\n".join(self.lines)
            assert time.monotonic() < deadline, "capua demo printed no link:\n" + "\n".join(self.lines)
            time.sleep(0.1)
        while True:
            try:
                urllib.request.urlopen(self.url("/"), timeout=2).close()
                return found[0]
            except OSError:
                assert time.monotonic() < deadline, "capua demo does not answer:\n" + "\n".join(self.lines)
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _main_text(page) -> str:
    return " ".join(page.locator("main").inner_text().split())


def test_a_newcomers_first_ten_minutes_as_the_readme_tells_them(page, inspector, tmp_path):
    folder = tmp_path / "my-capua"
    folder.mkdir()
    port = _free_port()
    demo = DemoProcess(folder, port)
    try:
        # 1. `capua demo` prints a link that signs in as the demo account, once
        assert ".venv/bin/capua demo" in README
        assert "The link signs you in as the demo player, **demo@capua.local**, and opens the PAX game" in README
        link = demo.printed_link()
        assert link.startswith(demo.url("/auth/magic/"))
        assert any("signs you in as demo@capua.local once, within 30 minutes" in line for line in demo.lines)
        assert (folder / "instance" / "capua.sqlite3").exists(), "the instance is made where the command ran"

        page.goto(link)
        assert "Sign in as demo@capua.local?" in _main_text(page), "the confirm page names the account as text"
        inspector.look(page, "demo link confirm")
        submit(page, page.locator("form[action*='/auth/magic/'] [type=submit]"))
        assert signed_in_as(page) in {"demo@capua.local", "Demo"}, "signed in as the demo account"
        game_path = urlsplit(page.url).path
        assert re.fullmatch(r"/games/[A-Za-z0-9_-]+", game_path), page.url
        assert "PAX against three bots" in _main_text(page)

        # 2. the first moves: the decisions at the top as buttons, the bots answer at once
        assert "your open decisions sit at the top of the game page as buttons" in README
        moves = 0
        while moves < 3 and not game_has_ended(page):
            wait_for_a_decision(page)
            if game_has_ended(page):
                break
            if moves == 0:
                inspector.look(page, "demo game: first decision")
            answer_a_decision(page, lambda labels: 0)
            moves += 1
        assert moves == 3, "the newcomer made three moves"

        # 3. coming back: sign in as the demo account through the outbox; the game is under My games
        assert "sign in at <http://127.0.0.1:5000/signin> as demo@capua.local" in README
        assert "link lands in the local outbox at <http://127.0.0.1:5000/dev/outbox>" in README
        # (nothing still loading may set the session cookie again once it is cleared)
        page.wait_for_load_state("networkidle")
        page.context.clear_cookies()
        page.goto(demo.url(game_path))
        assert signed_in_as(page) is None
        sign_in_by_mail(page, demo, "demo@capua.local", start="/signin")
        page.goto(demo.url("/games"))
        assert page.locator(f"main a[href='{game_path}']").count() == 1, "the demo game is under My games"
        page.goto(demo.url(game_path))
        wait_for_a_decision(page)
        assert open_decision_prompts(page) or game_has_ended(page), "the game goes on where it was left"

        # 4. a new game of each kind against bots at /games/new
        assert "Start more games, of any of the three (and the Spartacus arena duel), against bots" in README
        for game, players in NEW_GAMES.items():
            page.goto(demo.url("/games/new"))
            page.locator(f"form input[type=radio][name=game][value='{game}']").check()
            submit(page, page.locator("main form [type=submit]"))
            page.locator("#seats").select_option(str(players))
            for seat in range(1, players):
                page.locator(f"#seat-{seat}-role").select_option("bot")
            submit(page, page.locator("main form[method=post] button[type=submit]").last)
            assert re.fullmatch(r"/games/[A-Za-z0-9_-]+", urlsplit(page.url).path), \
                f"{game}: the form lands on the new game, not on {page.url}: {_main_text(page)[:300]}"
            page.locator(BOARDS[game]).first.wait_for()
            wait_for_a_decision(page)
            inspector.look(page, f"new {game} against bots")

        # 5. the language switch in the header
        assert "Pick English, Deutsch or Русский in the header." in README
        page.goto(demo.url("/games"))
        for code in ("de", "ru", "en"):
            switch_language(page, code)
            assert page.locator("main h1").first.inner_text().strip() == MY_GAMES[code]
            if code != "en":
                inspector.look(page, f"my games in {code}")
        assert len(page.locator("main a[href^='/games/']").all()) >= 5, "the demo game and the four new ones"
    finally:
        demo.stop()
    inspector.assert_accessible()
