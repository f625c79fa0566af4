"""Done-when of the issue: a 4-seat PAX game in which three seats are email addresses
and nobody ever opens the site (no sign-in, no game page) runs to its end through the
mail alone: invitations accepted by link, every decision answered by a one-click link
or the decision page a mail links to, with the mail delivered by SMTP to a real server
on loopback and every link parsed out of the received mail."""

from __future__ import annotations

import datetime as dt
import random

from service.identity import auth
from service.plumbing.db import Game, utcnow
from tests.notify.support import act_links, buttons, commands_on, csrf_from, path_of, pump, text_of

PLAYERS = ["ann@example.org", "bob@example.org", "cyd@example.org"]
MAX_CLICKS = 3000


def _click(browser, url, config, rnd) -> bool:
    """Open a link from a mail and confirm it as a person would; False if refused."""
    page = browser.get(path_of(url, config))
    html = page.data.decode()
    if page.status_code != 200:
        assert "This link does not work" in html and "Nothing was changed" in html
        return False
    token = csrf_from(html)
    assert token, html
    offered = commands_on(html)
    data = {"csrf_token": token}
    if offered:  # a decision page with every answer: pick one
        data["command"] = rnd.choice(offered)
    done = browser.post(path_of(url, config), data=data)
    return done.status_code == 200


def test_a_pax_game_runs_to_its_end_by_mail_alone(app, smtp_sink, sessions, cfg):
    rnd = random.Random(7)
    with sessions() as s:
        organiser = auth.get_or_create_user(s, "org@example.org")
        _row, token = auth.create_api_token(s, organiser, "organiser")
        s.commit()
    api = app.test_client()
    created = api.post("/api/v1/games", headers={"Authorization": f"Bearer {token}"},
                       json={"game_type": "pax", "seats": 4, "invites": PLAYERS, "bot_seats": [3], "my_seat": None,
                             "clock": {"hours": 48, "timezone": "Europe/Berlin"}})
    assert created.status_code == 201, created.data
    game_id = created.get_json()["id"]

    browsers = {p: app.test_client() for p in PLAYERS}  # each player's own browser; none signs in
    handled: set[str] = set()
    clicks = answered = 0
    while True:
        pump(sessions, cfg)
        with sessions() as s:
            if s.get(Game, game_id).status == "finished":
                break
        fresh = [m for m in smtp_sink.received() if str(m["Message-ID"]) not in handled]
        assert fresh, "the game waits for someone, but nobody got a mail about it"
        for message in fresh:
            handled.add(str(message["Message-ID"]))
            to = str(message["To"])
            assert to in PLAYERS, (to, str(message["Subject"]), text_of(message)[:600])
            assert message["List-Unsubscribe"] and message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            if str(message["Subject"]).startswith("Invitation"):
                accept, decline = act_links(message)[:2]
                assert "Accept: " + accept in text_of(message) and "Decline: " + decline in text_of(message)
                clicks += 1
                assert _click(browsers[to], accept, cfg, rnd)
                continue
            choices = buttons(message)
            links = [url for _label, url in choices] or act_links(message)
            if not links:
                continue
            # a person clicks one of the buttons, or the page that lists every answer
            url = rnd.choice(links) if choices and rnd.random() < 0.8 else act_links(message)[-1]
            clicks += 1
            answered += _click(browsers[to], url, cfg, rnd)
        assert clicks < MAX_CLICKS
    assert answered >= 30, "the players answered the game's decisions through the links"

    # the end of the game is news: it comes with the next daily digest (08:00 Berlin time)
    tomorrow = utcnow() + dt.timedelta(days=1, hours=1)
    pump(sessions, cfg, now=tomorrow)
    ended = [m for m in smtp_sink.received() if "has ended" in str(m["Subject"]) or "has ended" in text_of(m)]
    assert {str(m["To"]) for m in ended} == set(PLAYERS)
    assert all(count == 1 for count in smtp_sink.by_message_id().values()), "no mail was sent twice"
    with sessions() as s:
        game = s.get(Game, game_id)
        assert game.status == "finished" and game.outcome is not None
