"""One-click links: GET shows, POST acts, and a bad link is refused with a clear page and
changes nothing (tampered, expired, reused, for a closed decision)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from sqlalchemy import func, select

from service.notify import action_links
from service.plumbing.db import NotificationPreference, StoredEvent, UsedLink, utcnow
from tests.notify.helpers import new_game
from tests.notify.support import act_links, buttons, commands_on, csrf_from, path_of, pump, unsubscribe_link


def _events(sessions, game_id) -> int:
    with sessions() as s:
        return s.scalar(select(func.count()).select_from(StoredEvent).where(StoredEvent.game_id == game_id))


@pytest.fixture
def pax_mail(app, sessions, cfg, smtp_sink):
    """A PAX game with one player and three bots; the player's first mail."""
    game_id, users = new_game(sessions, cfg, players=("ann",), bots=(1, 2, 3), game_type="pax")
    pump(sessions, cfg)
    (message,) = smtp_sink.received()
    return game_id, message


def test_get_never_acts_and_post_acts_once(app, sessions, cfg, smtp_sink, pax_mail):
    game_id, message = pax_mail
    label, url = buttons(message)[0]
    browser = app.test_client()
    before = _events(sessions, game_id)
    for _ in range(3):  # a mail scanner prefetching the link
        page = browser.get(path_of(url, cfg))
        assert page.status_code == 200 and label in page.data.decode()
    assert _events(sessions, game_id) == before
    done = browser.post(path_of(url, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    assert done.status_code == 200 and "Done" in done.data.decode()
    assert _events(sessions, game_id) > before

    again = browser.post(path_of(url, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    assert again.status_code == 403 and 'data-code="link_used"' in again.data.decode()
    other_label, other = buttons(message)[1]
    refused = browser.get(path_of(other, cfg))
    assert refused.status_code == 403 and "already been used" in refused.data.decode(), \
        "all answers of one decision in one mail share their single use"


def test_a_tampered_link_is_refused_and_changes_nothing(app, sessions, cfg, pax_mail):
    game_id, message = pax_mail
    _label, url = buttons(message)[0]
    browser = app.test_client()
    page = browser.get(path_of(url, cfg))
    token = csrf_from(page.data.decode())
    before = _events(sessions, game_id)
    path = path_of(url, cfg)
    for bad in (path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB"), path[:40], "/act/nonsense",
                path.replace(".", "x", 1)):
        answer = browser.post(bad, data={"csrf_token": token})
        assert answer.status_code == 403 and 'data-code="link_invalid"' in answer.data.decode()
    assert _events(sessions, game_id) == before
    with sessions() as s:
        assert s.scalar(select(func.count()).select_from(UsedLink)) == 0


def test_a_link_for_another_command_cannot_be_forged(cfg, sessions, pax_mail):
    game_id, message = pax_mail
    link = action_links.read(cfg, path_of(buttons(message)[0][1], cfg).rsplit("/", 1)[1])
    forged = action_links.token_for(dataclasses.replace(cfg, secret_key="guess"), link)
    with pytest.raises(action_links.Forbidden) as err:
        action_links.read(cfg, forged)
    assert err.value.code == "link_invalid"


def test_an_expired_link_is_refused(app, sessions, cfg, pax_mail):
    game_id, message = pax_mail
    link = action_links.read(cfg, buttons(message)[0][1].rsplit("/", 1)[1])
    old = action_links.token_for(cfg, action_links.ActionLink(**{**link.__dict__,
                                                                 "expires_at": utcnow() - dt.timedelta(minutes=1)}))
    page = app.test_client().get(f"/act/{old}")
    assert page.status_code == 403 and 'data-code="link_expired"' in page.data.decode()


def test_a_link_to_an_answered_decision_is_refused(app, sessions, cfg, pax_mail):
    game_id, message = pax_mail
    (first_label, first), (second_label, second) = buttons(message)[:2]
    browser = app.test_client()
    page = browser.get(path_of(first, cfg))
    browser.post(path_of(first, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    # the "choose" page of the same decision, from the same mail, is closed too
    choose = act_links(message)[-1]
    refused = browser.get(path_of(choose, cfg))
    assert refused.status_code in (403, 409)


def test_the_decision_page_lists_every_answer_and_takes_one(app, sessions, cfg, pax_mail):
    game_id, message = pax_mail
    choose = act_links(message)[-1]
    browser = app.test_client()
    page = browser.get(path_of(choose, cfg))
    offered = commands_on(page.data.decode())
    assert len(offered) == len(buttons(message))
    before = _events(sessions, game_id)
    bad = browser.post(path_of(choose, cfg), data={"csrf_token": csrf_from(page.data.decode()),
                                                    "command": '{"type": "keep_card", "args": {"card": "nope"}}'})
    assert bad.status_code == 422 and _events(sessions, game_id) == before, "a refused answer changes nothing"
    done = browser.post(path_of(choose, cfg), data={"csrf_token": csrf_from(page.data.decode()),
                                                     "command": offered[-1]})
    assert done.status_code == 200 and _events(sessions, game_id) > before


def test_one_click_unsubscribe_needs_no_cookie_and_stops_mail(app, sessions, cfg, smtp_sink, pax_mail):
    game_id, message = pax_mail
    url = unsubscribe_link(message)
    assert message["List-Unsubscribe"] == f"<{url}>"
    answer = app.test_client().post(path_of(url, cfg), data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    with sessions() as s:
        from service.plumbing.db import GameNotificationPreference

        row = s.get(GameNotificationPreference, (1, game_id)) or s.scalars(select(GameNotificationPreference)).one()
        assert (row.act_delivery, row.info_delivery) == ("off", "off")
    # the next decision of that game is not mailed
    _label, url = buttons(message)[0]
    browser = app.test_client()
    page = browser.get(path_of(url, cfg))
    browser.post(path_of(url, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    pump(sessions, cfg)
    assert len(smtp_sink.received()) == 1


def test_unsubscribing_from_everything(app, sessions, cfg, smtp_sink):
    game_id, users = new_game(sessions, cfg, players=("ann", "bob"))
    pump(sessions, cfg)
    message = next(m for m in smtp_sink.received() if m["To"] == "ann@example.org")
    link = action_links.unsubscribe_link(cfg, user_id=users["ann"], game_id=None)
    browser = app.test_client()
    page = browser.get(path_of(link, cfg))
    assert "Stop all notification mail" in page.data.decode()
    browser.post(path_of(link, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    with sessions() as s:
        assert s.get(NotificationPreference, users["ann"]).email_enabled is False
    assert message is not None


def test_invitations_are_accepted_and_declined_by_link(app, sessions, cfg, smtp_sink):
    from service.identity import auth
    from service.play import games

    with sessions() as s:
        boss = auth.get_or_create_user(s, "boss@example.org")
        game = games.create_game(s, cfg, creator=boss, game_type="count", options={"target": 6}, seats=3,
                                 invites=["ann@example.org", "bob@example.org"], creator_seat=0)
        s.commit()
        game_id = game.id
    pump(sessions, cfg)
    mails = {str(m["To"]): m for m in smtp_sink.received()}
    assert set(mails) == {"ann@example.org", "bob@example.org"}
    browser = app.test_client()
    decline = act_links(mails["bob@example.org"])[1]
    page = browser.get(path_of(decline, cfg))
    assert "Decline the invitation" in page.data.decode()
    browser.post(path_of(decline, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    pump(sessions, cfg)
    told = [m for m in smtp_sink.received() if m["To"] == "boss@example.org"]
    assert len(told) == 1 and "declined" in str(told[0]["Subject"])
    accept_bob = act_links(mails["bob@example.org"])[0]
    assert browser.get(path_of(accept_bob, cfg)).status_code == 403, "one answer per invitation"
    accept = act_links(mails["ann@example.org"])[0]
    page = browser.get(path_of(accept, cfg))
    browser.post(path_of(accept, cfg), data={"csrf_token": csrf_from(page.data.decode())})
    with sessions() as s:
        from service.plumbing.db import Seat

        seats = {r.seat: r for r in s.scalars(select(Seat).where(Seat.game_id == game_id))}
        assert seats[1].user_id is not None and seats[2].user_id is None and seats[2].invited_email is None


@pytest.mark.parametrize("lang,words", [("de", ["Du bist am Zug", "Antworte bis"]),
                                        ("ru", ["Ваш ход", "Срок ответа"]),
                                        ("en", ["Your move", "Answer by"])])
def test_mail_speaks_the_players_language_and_time_zone(app, sessions, cfg, smtp_sink, lang, words):
    from service.identity import settings
    from service.plumbing.db import User

    game_id, users = new_game(sessions, cfg, players=("ann", "bob"), options={"target": 1000})
    with sessions() as s:
        settings.update_preferences(s, s.get(User, users["bob"]), {"language": lang,
                                                                         "timezone": "Asia/Vladivostok"})
        s.commit()
    from service.play import games

    with sessions() as s:  # both answer: the next round opens a fresh decision for bob
        ann = s.get(User, users["ann"])
        bob = s.get(User, users["bob"])
        games.submit_command(s, cfg, game_id, ann, command_type="add", args={"n": 1}, expected_version=None)
        games.submit_command(s, cfg, game_id, bob, command_type="add", args={"n": 1}, expected_version=None)
        s.commit()
    pump(sessions, cfg)
    mine = [m for m in smtp_sink.received() if m["To"] == "bob@example.org"][-1]
    text = mine.get_body(preferencelist=("plain",)).get_content()
    for word in words:
        assert word in str(mine["Subject"]) + text
    assert "(Asia/Vladivostok)" in text


@pytest.mark.parametrize("command", ["[" * 50_000, '{"type": "x", "args": ' + "[" * 40 + "]" * 40 + "}",
                                     '{"type": "x\\u0000", "args": {}}', "{" * 300_000])
def test_an_answer_too_deep_or_unstorable_is_refused_clearly(app, sessions, cfg, pax_mail, command):
    game_id, message = pax_mail
    choose = act_links(message)[-1]
    browser = app.test_client()
    page = browser.get(path_of(choose, cfg))
    before = _events(sessions, game_id)
    bad = browser.post(path_of(choose, cfg), data={"csrf_token": csrf_from(page.data.decode()), "command": command})
    assert 400 <= bad.status_code < 500 and _events(sessions, game_id) == before


@pytest.mark.parametrize("lang, done_words", [("en", "This link has done its work"),
                                              ("de", "Dieser Link hat seinen Dienst getan"),
                                              ("ru", "Эта ссылка уже сработала")])
def test_a_used_link_tells_a_signed_in_player_it_did_its_work(app, sessions, cfg, smtp_sink, pax_mail, lang,
                                                             done_words):
    """Read as a person reads it: not "this link does not work" to the player who used it
    and is signed in, but that it did its work, with the way back to the game."""
    from service.identity import auth
    from tests.notify.support import sign_in
    from tests.web.support import read_text

    game_id, message = pax_mail
    with sessions() as s:
        auth.get_or_create_user(s, "ann@example.org").language = lang
        s.commit()
    browser = app.test_client()
    sign_in(app, browser, smtp_sink, "ann@example.org")
    _label, url = buttons(message)[0]
    page = browser.get(path_of(url, cfg))
    assert browser.post(path_of(url, cfg), data={"csrf_token": csrf_from(page.data.decode())}).status_code == 200
    again = browser.get(path_of(url, cfg))
    text = read_text(again.data)
    assert again.status_code == 403 and done_words in text, text
    assert "does not work" not in text and "funktioniert nicht" not in text and "не работает" not in text
    assert f'href="/games/{game_id}"' in again.data.decode()
    stranger = app.test_client().get(path_of(url, cfg))
    assert "This link does not work" in stranger.data.decode(), "a visitor who is not signed in learns nothing more"


@pytest.mark.parametrize("lang, bot, english", [("ru", "Бот B", "Bot B"), ("de", "Bot B", None)])
def test_mail_names_a_bot_in_the_players_language(app, sessions, cfg, smtp_sink, lang, bot, english):
    """A bot's seat is named in the reader's words, however the notification's payload
    (made once for every reader) spelled it."""
    from service.identity import settings
    from service.play import games
    from service.plumbing.db import User

    game_id, users = new_game(sessions, cfg, players=("ann",), bots=("b",), game_type="pax")
    with sessions() as s:
        settings.update_preferences(s, s.get(User, users["ann"]), {"language": lang})
        ann = s.get(User, users["ann"])
        decision = games.decisions_for(s, game_id, ann)[0]
        option = decision["options"][0] if decision.get("options") else decision["default"]
        games.submit_command(s, cfg, game_id, ann, command_type=option["type"], args=option["args"],
                             expected_version=None)
        s.commit()
    pump(sessions, cfg)
    text = "".join(m.get_body(preferencelist=("plain",)).get_content()
                   for m in smtp_sink.received() if m["To"] == "ann@example.org")
    assert bot in text
    if english:
        assert english not in text


def test_a_new_address_is_invited_in_the_language_of_the_player_who_invites_it(app, sessions, cfg, smtp_sink):
    from service.identity import auth
    from service.play import games

    with sessions() as s:
        known = auth.get_or_create_user(s, "known@example.org")  # plays here already, at the default
        boss = auth.get_or_create_user(s, "boss@example.org")
        boss.language = "de"
        game = games.create_game(s, cfg, creator=boss, game_type="count", options={"target": 6}, seats=3,
                                 invites=["neu@example.org", known.email], creator_seat=0, title="Runde")
        s.commit()
    pump(sessions, cfg)
    mails = {str(m["To"]): str(m["Subject"]) for m in smtp_sink.received()}
    assert mails["neu@example.org"] == "Einladung zu Runde"
    assert mails["known@example.org"] == "Invitation to play Runde", "a known player's own setting"
    with sessions() as s:
        assert auth.get_or_create_user(s, "neu@example.org").language == "de"
