"""Standing orders with one click: a window's mail and the game page offer "always pass in
windows like this" and "pass on everything this phase", an auction's "bid 0 unless ..."; the mailed link shows a confirm page
(GET never acts), the POST gives the order and answers the open window, and later windows
it matches are answered at once, without a mail."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from engine import registry
from service.play import games
from service.plumbing.db import StandingOrder, StoredEvent, User
from tests.notify import bell_game
from tests.notify.helpers import new_game
from tests.notify.support import buttons, csrf_from, html_of, path_of, pump, sign_in, text_of

_ORDER_LINE = re.compile(r"^\s+- (?P<label>.+): (?P<url>https?://\S+/act/\S+)$", re.M)


@pytest.fixture(autouse=True)
def bell(monkeypatch):
    monkeypatch.setitem(registry._GAMES, bell_game.NAME, "tests.notify.bell_game:RULES")


def _order_links(message) -> dict[str, str]:
    return {m.group("label"): m.group("url") for m in _ORDER_LINE.finditer(text_of(message))}


def _ring(sessions, cfg, game_id) -> None:
    with sessions() as s:
        ann = s.scalars(select(User).where(User.email == "ann@example.org")).one()
        games.submit_command(s, cfg, game_id, ann, command_type="ring", args={"loud": True}, expected_version=None)
        s.commit()


def _bobs_answers(sessions, game_id) -> list[str]:
    with sessions() as s:
        bob = s.scalars(select(User).where(User.email == "bob@example.org")).one()
        return [e.type for e in s.scalars(select(StoredEvent).where(
            StoredEvent.game_id == game_id, StoredEvent.actor_user_id == bob.id).order_by(StoredEvent.seq))]


def _window_mail(sessions, cfg, smtp_sink, game_id, *, language="en"):
    with sessions() as s:
        s.scalars(select(User).where(User.email == "bob@example.org")).one().language = language
        s.commit()
    pump(sessions, cfg)
    seen = len(smtp_sink.received())
    _ring(sessions, cfg, game_id)
    pump(sessions, cfg)
    (message,) = [m for m in smtp_sink.received()[seen:] if m["To"] == "bob@example.org"]
    return message


def test_a_window_mail_offers_the_presets_and_the_link_gives_the_order(app, sessions, cfg, smtp_sink):
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 3})
    message = _window_mail(sessions, cfg, smtp_sink, game_id)
    offered = _order_links(message)
    assert set(offered) == {"Always pass in windows like this", "Pass on everything this phase"}
    assert len(buttons(message)) == 2, "the window's own two answers stay the buttons"
    assert "gives nothing away" in text_of(message) and "Always pass in windows like this" in html_of(message)

    browser = app.test_client()
    url = path_of(offered["Always pass in windows like this"], cfg)
    for _ in range(2):  # a mail scanner opening the link gives nothing
        page = browser.get(url)
        assert page.status_code == 200 and "Give the order" in page.data.decode()
    with sessions() as s:
        assert s.scalars(select(StandingOrder)).all() == []
    assert _bobs_answers(sessions, game_id) == []

    done = browser.post(url, data={"csrf_token": csrf_from(page.data.decode())})
    assert done.status_code == 200, re.findall(r'data-code="[^"]*"|<main.*?</main>', done.data.decode(), re.S)
    assert done.status_code == 200 and "Standing order given: Always pass in windows like this" in done.data.decode()
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        assert order.game_id == game_id and order.rule["match"] == {"prompt_key": ["window"]}
    assert _bobs_answers(sessions, game_id) == ["Passed"], "the open window is answered at once"
    again = browser.post(url, data={"csrf_token": csrf_from(page.data.decode())})
    assert again.status_code == 403 and 'data-code="link_used"' in again.data.decode()

    # The next window is answered by the order the moment it opens: no mail asks Bob.
    seen = len(smtp_sink.received())
    _ring(sessions, cfg, game_id)
    pump(sessions, cfg)
    assert _bobs_answers(sessions, game_id) == ["Passed", "Passed"]
    assert not [m for m in smtp_sink.received()[seen:] if m["To"] == "bob@example.org"
                and "What you are asked" in text_of(m)]


def test_pass_on_everything_this_phase_ends_with_the_phase(app, sessions, cfg, smtp_sink):
    # Two rings make a round of the bell game: rings 1 and 2 are round 1, ring 3 round 2.
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 3})
    message = _window_mail(sessions, cfg, smtp_sink, game_id)
    url = path_of(_order_links(message)["Pass on everything this phase"], cfg)
    browser = app.test_client()
    page = browser.get(url)
    assert "Until this phase of this round ends" in page.data.decode()
    assert browser.post(url, data={"csrf_token": csrf_from(page.data.decode())}).status_code == 200
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        assert order.rule["during"] == {"round": 1, "phase": "peal"}
    assert _bobs_answers(sessions, game_id) == ["Passed"]
    _ring(sessions, cfg, game_id)  # ring 2, still round 1: answered by the order
    assert _bobs_answers(sessions, game_id) == ["Passed", "Passed"]
    pump(sessions, cfg)
    seen = len(smtp_sink.received())
    _ring(sessions, cfg, game_id)  # ring 3, round 2: Bob is asked again
    assert _bobs_answers(sessions, game_id) == ["Passed", "Passed"]
    pump(sessions, cfg)
    (asked,) = [m for m in smtp_sink.received()[seen:] if m["To"] == "bob@example.org"]
    assert "What you are asked" in text_of(asked)
    # The same click in round 2 gives the order for round 2, and withdraws round 1's, spent.
    url = path_of(_order_links(asked)["Pass on everything this phase"], cfg)
    page = browser.get(url)
    assert browser.post(url, data={"csrf_token": csrf_from(page.data.decode())}).status_code == 200
    with sessions() as s:
        assert [o.rule["during"] for o in s.scalars(select(StandingOrder))] == [{"round": 2, "phase": "peal"}]


def test_a_phase_link_used_after_its_phase_is_refused_and_changes_nothing(app, sessions, cfg, smtp_sink):
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 4})
    message = _window_mail(sessions, cfg, smtp_sink, game_id)
    url = path_of(_order_links(message)["Pass on everything this phase"], cfg)
    browser = app.test_client()
    page = browser.get(url)
    with sessions() as s:  # Bob passes by hand; ring 2 and its window; then ring 3 starts round 2
        bob = s.scalars(select(User).where(User.email == "bob@example.org")).one()
        for command in ("pass", None, "pass", None):
            if command is None:
                ann = s.scalars(select(User).where(User.email == "ann@example.org")).one()
                games.submit_command(s, cfg, game_id, ann, command_type="ring", args={"loud": False},
                                     expected_version=None)
            else:
                games.submit_command(s, cfg, game_id, bob, command_type=command, args={}, expected_version=None)
        s.commit()
    refused = browser.post(url, data={"csrf_token": csrf_from(page.data.decode())})
    assert refused.status_code == 409 and "phase of the game is over" in refused.data.decode()
    with sessions() as s:
        assert s.scalars(select(StandingOrder)).all() == []


@pytest.mark.parametrize("language, words", [
    ("de", ("Bei Fenstern wie diesem immer passen", "In dieser Phase bei allem passen")),
    ("ru", ("Всегда пасовать в таких окнах", "Пасовать во всём до конца этой фазы")),
])
def test_the_presets_speak_the_players_language(app, sessions, cfg, smtp_sink, language, words):
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 2})
    message = _window_mail(sessions, cfg, smtp_sink, game_id, language=language)
    assert set(_order_links(message)) == set(words)
    page = app.test_client().get(path_of(_order_links(message)[words[0]], cfg)).data.decode()
    assert words[0] in page


def test_the_game_page_offers_the_presets_for_an_open_window(app, sessions, cfg, smtp_sink):
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 3})
    _ring(sessions, cfg, game_id)
    browser = app.test_client()
    sign_in(app, browser, smtp_sink, "bob@example.org")
    page = browser.get(f"/games/{game_id}").data.decode()
    assert "Answer questions like this in advance" in page
    assert 'name="preset" value="windows_like_this"' in page and 'name="preset" value="pass_this_phase"' in page
    decision_id = re.search(r'name="decision_id" value="(window:[^"]+)"', page).group(1)
    done = browser.post(f"/games/{game_id}/standing-order",
                        data={"preset": "pass_this_phase", "decision_id": decision_id,
                              "csrf_token": csrf_from(page)})
    assert done.status_code == 303
    assert _bobs_answers(sessions, game_id) == ["Passed"]
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        assert order.name == "Pass on everything this phase" and order.rule["during"]["round"] == 1
    bad = browser.post(f"/games/{game_id}/standing-order",
                       data={"preset": "everything", "csrf_token": csrf_from(page)})
    assert bad.status_code == 422 and "Presets are" in bad.data.decode()


def test_the_game_page_offers_bid_zero_unless_at_an_auction(app, sessions, cfg, smtp_sink):
    from tests.notify.test_fight_plan_mail import PLAYERS, play_until_asked

    game_id, _users = new_game(sessions, cfg, players=PLAYERS, game_type="spartacus", options={})
    bidder = play_until_asked(sessions, cfg, game_id, "bid")
    browser = app.test_client()
    sign_in(app, browser, smtp_sink, f"{bidder}@example.org")
    page = browser.get(f"/games/{game_id}").data.decode()
    assert 'name="preset" value="bid_zero_unless"' in page and 'name="lot_types" value="gladiator"' in page
    assert 'value="pass_this_phase"' not in page, "window presets sit under windows only"
    with sessions() as s:
        user = s.scalars(select(User).where(User.email == f"{bidder}@example.org")).one()
        (bid,) = [d for d in games.decisions_for(s, game_id, user) if d["prompt_key"] == "bid"]
    lot_type = bid["prompt_args"]["card_type"]
    wanted = [t for t in ("gladiator", "slave", "weapon", "armour", "special") if t != lot_type]
    done = browser.post(f"/games/{game_id}/standing-order",
                        data={"preset": "bid_zero_unless", "decision_id": bid["id"], "lot_types": wanted,
                              "csrf_token": csrf_from(page)})
    assert done.status_code == 303
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        assert order.rule["unless"] == [{"path": "prompt_args.card_type", "in": wanted}]
        assert order.name.startswith("Bid 0 unless the lot is: ")
        still = [d for d in games.decisions_for(s, game_id, user) if d["id"] == bid["id"]]
    assert still == [], "the bidder does not want this lot: the order bid 0 on it at once"


@pytest.mark.parametrize("language, label", [
    ("en", "Bid 0 unless the lot is: a gladiator, a slave, the host marker"),
    ("de", None), ("ru", None),
])
def test_an_auction_mail_offers_bid_zero_unless_in_one_click(app, sessions, cfg, smtp_sink, language, label):
    """The auction's mail offers "bid 0 unless the lot is a gladiator, a slave or the host
    marker" as a link; its confirm page names the order, the POST gives it and bids 0 on the
    open lot at once when the lot is none of those."""
    from service.play import presets
    from tests.notify.test_fight_plan_mail import PLAYERS, play_until_asked

    game_id, _users = new_game(sessions, cfg, players=PLAYERS, game_type="spartacus", options={})
    with sessions() as s:
        for user in s.scalars(select(User)):
            user.language = language
        s.commit()
    bidder = play_until_asked(sessions, cfg, game_id, "bid")
    pump(sessions, cfg)
    expected = label or presets.name_of("bid_zero_unless", presets.MAIL_LOT_TYPES, language)
    assert expected != presets.name_of("bid_zero_unless", presets.MAIL_LOT_TYPES, "en") or language == "en"
    offered = {}
    for message in smtp_sink.received():
        if message["To"] == f"{bidder}@example.org":
            offered.update(_order_links(message))
    assert expected in offered, offered
    browser = app.test_client()
    url = path_of(offered[expected], cfg)
    page = browser.get(url)
    assert page.status_code == 200 and expected in page.data.decode()
    with sessions() as s:
        user = s.scalars(select(User).where(User.email == f"{bidder}@example.org")).one()
        (bid,) = [d for d in games.decisions_for(s, game_id, user) if d["prompt_key"] == "bid"]
    done = browser.post(url, data={"csrf_token": csrf_from(page.data.decode())})
    assert done.status_code == 200, done.data.decode()[-600:]
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        assert order.rule["unless"] == [{"path": "prompt_args.card_type", "in": ["gladiator", "slave", "host"]}]
        assert order.name == expected and order.game_id == game_id
        still = [d for d in games.decisions_for(s, game_id, user) if d["id"] == bid["id"]]
    wanted = bid["prompt_args"]["card_type"] in presets.MAIL_LOT_TYPES
    assert bool(still) == wanted, "a lot of a named type is left to the player; any other is bid 0 at once"


def test_the_game_page_lists_the_orders_that_may_answer_there_and_withdraws_them(app, sessions, cfg, smtp_sink):
    """A player who gave presets sees them on the game page (this game's, then those for all
    their games), pauses or withdraws one there and comes back to the game; the other
    player's page lists nothing of theirs."""
    game_id, _users = new_game(sessions, cfg, game_type="bell", options={"rings": 3})
    _ring(sessions, cfg, game_id)
    browser = app.test_client()
    sign_in(app, browser, smtp_sink, "bob@example.org")
    page = browser.get(f"/games/{game_id}").data.decode()
    assert "Your standing orders in this game" not in page
    decision_id = re.search(r'name="decision_id" value="(window:[^"]+)"', page).group(1)
    browser.post(f"/games/{game_id}/standing-order", data={"preset": "windows_like_this", "decision_id": decision_id,
                                                           "csrf_token": csrf_from(page)})
    page = browser.get(f"/games/{game_id}").data.decode()
    listed = page[page.index('id="my-orders"'):]
    listed = listed[:listed.index("</section>")]
    assert "Always pass in windows like this" in listed and "this game" in listed
    with sessions() as s:
        (order,) = s.scalars(select(StandingOrder)).all()
        order_id = order.id
    paused = browser.post(f"/settings/standing-orders/{order_id}/pause", data={"back": game_id, "csrf_token": csrf_from(page)})
    assert paused.status_code == 303 and paused.headers["Location"].endswith(f"/games/{game_id}#my-orders")
    page = browser.get(f"/games/{game_id}").data.decode()
    assert "paused" in page[page.index('id="my-orders"'):]
    odd = browser.post(f"/settings/standing-orders/{order_id}/resume", data={"back": "https://evil.example/x",
                                                                    "csrf_token": csrf_from(page)})
    assert odd.status_code == 303 and odd.headers["Location"].endswith("/settings/standing-orders"), "only a game id leads back"
    gone = browser.post(f"/settings/standing-orders/{order_id}/delete", data={"back": game_id, "csrf_token": csrf_from(page)})
    assert gone.status_code == 303 and gone.headers["Location"].endswith(f"/games/{game_id}#my-orders")
    with sessions() as s:
        assert s.scalars(select(StandingOrder)).all() == []
    assert 'id="my-orders"' not in browser.get(f"/games/{game_id}").data.decode()

    ann = app.test_client()
    sign_in(app, ann, smtp_sink, "ann@example.org")
    assert 'id="my-orders"' not in ann.get(f"/games/{game_id}").data.decode()
