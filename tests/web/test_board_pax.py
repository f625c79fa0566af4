"""The PAX board on the game page: drawn from the viewer's view only, choices on the table
that lead to a confirm page, and the page in German and Russian."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from engine import registry
from engine.core import bots
from engine.core.game import step
from engine.core.playout import resolve_chance_command
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game, User
from service.web import boards
from service.words import telling
from service.words.terms import pax as pax_terms
from tests.engine.test_pax_playouts import card_ids_in
from tests.web.support import csrf_from, press_confirm

ANN = "ann@example.org"


# --------------------------------------------------------------------------- driving a game


@pytest.fixture
def new_game(web_sessions, web_config):
    """``new_game(seats)``: a running PAX game, ann in seat 0 and bots in every other seat."""
    def make(seats: int, options: dict | None = None) -> str:
        with web_sessions() as s:
            ann = auth.get_or_create_user(s, ANN)
            game = games.create_game(s, web_config, creator=ann, game_type="pax", options=options or {},
                                     seats=seats, bot_seats=list(range(1, seats)), creator_seat=0)
            s.commit()
            return game.id
    return make


def ann_decisions(web_sessions, game_id: str) -> list[dict]:
    with web_sessions() as s:
        return games.decisions_for(s, game_id, auth.get_or_create_user(s, ANN))


def play_ann(web_sessions, web_config, game_id: str, rng: random.Random, answers: int,
             until=None) -> bool:
    """Ann answers up to ``answers`` decisions at random (the bots answer theirs as the
    service does); stops early, returning ``True``, once ``until(decisions)`` holds."""
    for _ in range(answers):
        decisions = ann_decisions(web_sessions, game_id)
        if until is not None and until(decisions):
            return True
        if not decisions:
            return False
        decision = decisions[0]
        option = rng.choice(decision["options"])
        with web_sessions() as s:
            games.submit_command(s, web_config, game_id, auth.get_or_create_user(s, ANN), command_type=option["type"],
                                 args=option["args"], expected_version=decision["version"])
            s.commit()
    return until is not None and until(ann_decisions(web_sessions, game_id))


def offering(command_type: str, **args):
    """An ``until`` for :func:`play_ann`: ann may now answer with ``command_type`` (with these arguments)."""
    return lambda decisions: any(o["type"] == command_type and all(o["args"].get(k) == v for k, v in args.items())
                                 for d in decisions for o in d["options"])


def state_of(web_sessions, game_id: str):
    with web_sessions() as s:
        game = s.get(Game, game_id)
        return store.load_state(s, game, rules=store.rules_of(game))


def secret_ids(state, viewer) -> set[str]:
    """Cards the viewer must not see: every hand and draw but their own, Rome's hidden
    cards unless their view holds them (they looked, or the game is over)."""
    known = card_ids_in(registry.get("pax").view(state, viewer))
    secret = {c.id for pile in (*state.hands, *state.limbo, state.rome_hidden) for c in pile}
    return secret - known


def page_text(page: str) -> str:
    """The page with its CSRF tokens (random text) removed and links decoded, so that a card
    id anywhere -- an attribute, a link's query, a tooltip -- can be searched for."""
    return unquote(html.unescape(re.sub(r'name="csrf_token" value="[^"]*"', "", page)))


def mentions(page: str, card_id: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(card_id)}(?![A-Za-z0-9])", page) is not None


def drawn_ids(page: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', page))


def board_links(page: str) -> list[dict]:
    """Every choice link on the board: its decision, version and command."""
    out = []
    for href in re.findall(r'<a href="([^"]*/choose\?[^"]*)"', page):
        query = parse_qs(urlsplit(html.unescape(href)).query)
        out.append({"href": html.unescape(href), "decision": query["decision"][0],
                    "version": int(query["version"][0]), "command": json.loads(query["command"][0])})
    return out


# --------------------------------------------------------------------------- what the board shows


@pytest.mark.parametrize("seats, options", [(4, {}), (1, {}), (1, {"solo_level": 4})], ids=["4p", "solo", "solo4"])
def test_the_board_shows_the_table_and_never_a_hidden_card(app, client, sign_in, new_game, web_sessions,
                                                           web_config, seats, options):
    game_id = new_game(seats, options)
    sign_in(ANN)
    spectator = app.test_client()
    rules = registry.get("pax")
    rng = random.Random(seats * 7 + len(options))
    stages = 0
    for answers in (0, 3, 6, 20, 60, 400):
        play_ann(web_sessions, web_config, game_id, rng, answers)
        state = state_of(web_sessions, game_id)
        mine = rules.view(state, 0)
        page = client.get(f"/games/{game_id}").data.decode()
        assert 'class="pax-board pax-legions"' in page and "Legion I" in page
        text = page_text(page)
        shown = drawn_ids(page)
        for legion in mine["legions"]:
            assert {c["id"] for c in legion["cards"]} <= shown, "every legion's cards are drawn"
        assert {c["id"] for c in mine["me"]["hand"] + mine["me"]["drawn"]} <= shown, "my hand and draw are drawn"
        for player in mine["players"]:
            assert {c["id"] for row in player["tableau"].values() for c in row} <= shown
        assert {c["id"] for c in mine["rome"]["open"]} <= shown
        assert f"Deck: {mine['deck_size']}" in page and "Your hand" in page and page.count("Gold:") == 1
        assert f"Gold: <strong>{mine['me']['gold']}</strong>" in page
        leaked = {i for i in secret_ids(state, 0) if mentions(text, i)}
        assert not leaked, f"seat 0 sees {leaked}"
        if mine["rome"]["hidden"] is None:
            assert f"Rome's hidden cards: {mine['rome']['hidden_count']}" in page

        watching = spectator.get(f"/games/{game_id}").data.decode()
        assert "Your hand" not in watching and "Gold:" not in watching and "/choose?" not in watching
        leaked = {i for i in secret_ids(state, None) if mentions(page_text(watching), i)}
        assert not leaked, f"a spectator sees {leaked}"
        stages += 1
        if state.phase == "ended":
            assert {c.id for c in state.rome_hidden} <= drawn_ids(watching), "the end reveals Rome's cards"
            break
    assert stages >= 4 and state.phase == "ended", "the drawing is checked from the first move to the reveal"


def test_a_player_who_looked_at_rome_sees_its_hidden_cards_and_others_do_not(client, sign_in, new_game,
                                                                              web_sessions, web_config):
    game_id = new_game(4)
    sign_in(ANN)
    rng = random.Random(5)
    assert play_ann(web_sessions, web_config, game_id, rng, 20, until=offering("peek_rome"))
    (link,) = [lk for lk in board_links(client.get(f"/games/{game_id}").data.decode())
               if lk["command"]["type"] == "peek_rome"]
    confirm = client.get(link["href"]).data.decode()
    answer = press_confirm(client, confirm)
    assert answer.status_code == 303
    state = state_of(web_sessions, game_id)
    hidden = {c.id for c in state.rome_hidden}
    assert hidden <= drawn_ids(client.get(f"/games/{game_id}").data.decode())
    assert "you have looked at them" in client.get(f"/games/{game_id}").data.decode()
    assert not hidden & secret_ids(state, 0)


def test_legions_wrap_onto_two_rows_in_a_big_game_and_stay_inside_the_drawing():
    """Nine legions (8 seats) on a phone-wide drawing: two rows, nothing beyond 360 units."""
    rules = registry.get("pax")
    rng = random.Random(2)
    state = rules.initial_state(8, {})
    while state.phase in ("shuffle", "setup"):
        command = resolve_chance_command(rules, state, rng.randrange) \
            or bots.choose(bots.pick_decision(rules.pending(state), None, rng), rng)
        state, _ = step(rules, state, command)
    drawing = boards.prepare("pax", rules.view(state, None), language="en", game_id="g", version=1, seat=None,
                             decisions=[])
    columns = drawing["legions"]["columns"]
    assert len(columns) == 9 and sorted({c["y"] for c in columns}) == [0, columns[-1]["y"]] and columns[-1]["y"] > 0
    assert all(0 <= c["x"] and c["x"] + drawing["card"]["w"] <= drawing["width"] for c in columns)
    for player in drawing["players"]:
        assert all(m["x"] + m["w"] <= drawing["width"] for m in player["markers"])
        assert all(col["x"] + drawing["chip"]["w"] <= drawing["width"] for col in player["columns"])
    assert drawing["hand"] is None, "a spectator has no hand"


# --------------------------------------------------------------------------- choices on the board


def _confirm_and_post(client, game_id: str, link: dict):
    confirm = client.get(link["href"])
    assert confirm.status_code == 200
    body = confirm.data.decode()
    assert "Confirm" in body
    answer = press_confirm(client, body)
    assert answer.status_code == 303, answer.data.decode()
    return body


def _events_of(web_sessions, game_id: str, after: int) -> list:
    with web_sessions() as s:
        return [r.event for r in store.load_events(s, game_id, after=after)]


def test_clicking_a_legion_leads_to_a_confirm_page_whose_button_buys_it(client, sign_in, new_game, web_sessions,
                                                                         web_config):
    game_id = new_game(4)
    sign_in(ANN)
    assert play_ann(web_sessions, web_config, game_id, random.Random(1), 40, until=offering("buy_legion"))
    page = client.get(f"/games/{game_id}").data.decode()
    buys = [lk for lk in board_links(page) if lk["command"]["type"] == "buy_legion"]
    offered = {o["args"]["legion"] for d in ann_decisions(web_sessions, game_id) for o in d["options"]
               if o["type"] == "buy_legion"}
    assert {lk["command"]["args"]["legion"] for lk in buys} == offered, "every affordable legion is a link"
    link = buys[-1]
    legion = link["command"]["args"]["legion"]
    with web_sessions() as s:
        before = s.get(Game, game_id).version
    body = _confirm_and_post(client, game_id, link)
    assert f"Buy legion {telling.ROMAN[legion - 1]}" in body
    bought = [e for e in _events_of(web_sessions, game_id, before) if e.type == "LegionBought"]
    assert bought and bought[0].data["seat"] == 0 and bought[0].data["legion"] == legion


def test_a_drawn_card_is_placed_under_a_legion_and_a_hand_card_laid_from_the_board(client, sign_in, new_game,
                                                                                     web_sessions, web_config):
    game_id = new_game(4)
    sign_in(ANN)
    rng = random.Random(3)
    assert play_ann(web_sessions, web_config, game_id, rng, 30, until=offering("assign_card", to="legion"))
    page = client.get(f"/games/{game_id}").data.decode()
    places = [lk for lk in board_links(page) if lk["command"]["type"] == "assign_card"
              and lk["command"]["args"]["to"] == "legion"]
    assert places and {lk["command"]["args"]["legion"] for lk in places} == \
        set(range(1, len(state_of(web_sessions, game_id).legions) + 1))
    link = places[0]
    card = link["command"]["args"]["card"]
    with web_sessions() as s:
        before = s.get(Game, game_id).version
    _confirm_and_post(client, game_id, link)
    state = state_of(web_sessions, game_id)
    assert card in {c.id for c in state.legions[link["command"]["args"]["legion"] - 1]}
    assert any(e.type == "CardAssigned" and e.data["card"]["id"] == card for e in _events_of(web_sessions, game_id, before))

    assert play_ann(web_sessions, web_config, game_id, rng, 60, until=offering("lay_card"))
    page = client.get(f"/games/{game_id}").data.decode()
    lays = [lk for lk in board_links(page) if lk["command"]["type"] == "lay_card"]
    hand = {c.id for c in state_of(web_sessions, game_id).hands[0]}
    assert lays and {lk["command"]["args"]["card"] for lk in lays} <= hand
    link = lays[0]
    with web_sessions() as s:
        before = s.get(Game, game_id).version
    _confirm_and_post(client, game_id, link)
    laid = [e for e in _events_of(web_sessions, game_id, before) if e.type == "CardLaid"]
    assert laid and laid[0].data["card"]["id"] == link["command"]["args"]["card"] and laid[0].data["seat"] == 0


def test_a_start_card_is_kept_by_clicking_it(client, sign_in, new_game, web_sessions):
    game_id = new_game(4)
    sign_in(ANN)
    keeps = [lk for lk in board_links(client.get(f"/games/{game_id}").data.decode())
             if lk["command"]["type"] == "keep_card"]
    assert {lk["command"]["args"]["card"] for lk in keeps} == {c.id for c in state_of(web_sessions, game_id).limbo[0]}
    with web_sessions() as s:
        before = s.get(Game, game_id).version
    _confirm_and_post(client, game_id, keeps[-1])
    chosen = [e for e in _events_of(web_sessions, game_id, before) if e.type == "StartCardChosen"]
    assert chosen and chosen[0].data["seat"] == 0
    assert keeps[-1]["command"]["args"]["card"] in json.dumps(chosen[0].data)


def test_the_decision_forms_stay_above_the_board(client, sign_in, new_game, web_sessions):
    game_id = new_game(4)
    sign_in(ANN)
    page = client.get(f"/games/{game_id}").data.decode()
    assert 'name="command"' in page and page.index('name="command"') < page.index("pax-legions")


def test_a_stale_board_link_says_someone_moved_first(client, sign_in, new_game, web_sessions, web_config):
    game_id = new_game(4)
    sign_in(ANN)
    assert play_ann(web_sessions, web_config, game_id, random.Random(9), 20, until=offering("draw_cards"))
    (link,) = [lk for lk in board_links(client.get(f"/games/{game_id}").data.decode())
               if lk["command"]["type"] == "draw_cards"]
    _confirm_and_post(client, game_id, link)
    again = client.get(link["href"])
    assert again.status_code == 409 and "Someone moved first" in again.data.decode()


# --------------------------------------------------------------------------- languages


BOARD_WORDS = {
    "de": ("Legionen", "Deine Hand", "Gold:", "Rom", "Spieler", "Legende", "Der Tisch in Worten", "Karten im Stapel",
           "Roms verdeckte Karten: 3", "Wert ", "Startspieler", "Symbole: "),
    "ru": ("Легионы", "Ваша рука", "Золото:", "Рим", "Игроки", "Условные обозначения", "Стол словами",
           "Карт в колоде", "Скрытые карты Рима: 3", "цена ", "Первый игрок", "символов: "),
}


@pytest.mark.parametrize("language", ["de", "ru"])
def test_the_board_speaks_the_players_language(client, sign_in, new_game, web_sessions, language):
    game_id = new_game(4)
    sign_in(ANN)
    with web_sessions() as s:
        s.get(User, auth.get_or_create_user(s, ANN).id).language = language
        s.commit()
    page = html.unescape(client.get(f"/games/{game_id}").data.decode())
    for words in BOARD_WORDS[language]:
        assert words in page, words
    for category in pax_terms.CATEGORY_NAMES[language].values():
        assert category in page, category
    for english in (">Legions<", ">Your hand<", ">Legend<", "Wealth", "Intrigue", "Fleet", "worth "):
        assert english not in page, english
    state = state_of(web_sessions, game_id)
    for card in state.limbo[0] + state.hands[0]:
        assert pax_terms.card_name(card.id, language) in page


def test_a_spectator_reads_the_board_in_the_language_of_the_browser(app, new_game):
    game_id = new_game(4)
    page = html.unescape(app.test_client().get(f"/games/{game_id}", headers={"Accept-Language": "ru"}).data.decode())
    assert "Богатство" in page and "Интрига" in page and "Intrigue" not in page


# --------------------------------------------------------------------------- terms


def test_cards_are_named_by_category_and_latin_name_in_each_language():
    assert pax_terms.card_name("W01", "de") == "Wohlstand (in floribus)"
    assert pax_terms.card_name("bF03", "ru") == "Флот (navis longa)"
    assert pax_terms.card_name("I12", "en") == "Intrigue (conspiratio)"
    assert pax_terms.card_name("S01", "de") == "Senator"
    assert pax_terms.card_name("L02", "fr") == "Land (praedium)"
    assert pax_terms.card_name("X99", "de") is None


def test_buying_a_legion_and_looking_at_rome_ask_for_confirmation():
    from engine.pax.rules import _HANDLERS

    assert pax_terms.CONFIRM == {"buy_legion", "peek_rome"} and pax_terms.CONFIRM <= set(_HANDLERS)
