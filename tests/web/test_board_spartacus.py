"""The Spartacus board page: houses, influence, property, market, arena bets and my hand,
drawn from the viewer's view only, with choices on the board that act after a confirm.

Games are real: one human (Ann, seat 0) against three service bots, driven through the
service layer; the page is rendered through the Flask client at every step.
"""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from engine.core import bots as kernel_bots
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game, User
from service.words import i18n, telling
from service.words.terms import spartacus as spartacus_terms
from tests.web.support import answer_or_default, csrf_from, decision_of, press_confirm

ANN = "ann@example.org"
OTHERS = ["bob@example.org", "cy@example.org", "dee@example.org"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def spartacus_game(web_sessions, web_config):
    """A running Spartacus game: Ann in seat 0, the others played by the test as humans
    (so that every state between two moves can be looked at) or by service bots."""

    def create(seats: int = 4, language: str = "en", bots: bool = False) -> str:
        with web_sessions() as s:
            ann = s.get(User, auth.get_or_create_user(s, ANN).id)
            ann.language = language
            others = OTHERS[:seats - 1]
            game = games.create_game(s, web_config, creator=ann, game_type="spartacus", options={"max_rounds": 2},
                                     seats=seats, invites=[] if bots else others,
                                     bot_seats=list(range(1, seats)) if bots else [])
            s.commit()
            if not bots:
                for address in others:
                    games.join_game(s, web_config, game.id, s.get(User, auth.get_or_create_user(s, address).id))
                    s.commit()
            return game.id

    return create


def _move(web_sessions, web_config, game_id: str, rng: random.Random, only_ann: bool = False) -> bool:
    """Someone who owes an answer gives one like a casual player (invitations are always
    accepted, so the arena fills and has bets); False when the game is over."""
    with web_sessions() as s:
        game = s.get(Game, game_id)
        if game.status == "finished":
            return False
        owing = []
        for address in [ANN] + ([] if only_ann else OTHERS[:game.seat_count - 1]):
            user = s.get(User, auth.get_or_create_user(s, address).id)
            owing += [(user, d) for d in games.decisions_for(s, game_id, user) if d["mode"] != "free"]
        assert owing, "someone owes an answer"
        user, chosen = rng.choice(owing)
        decision = decision_of(chosen)
        command = kernel_bots.choose(decision, rng)
        if chosen.get("prompt_key") == "invitation" and len(decision.options) > 1:
            command = decision.options[1]
        answer_or_default(s, web_config, game_id, user, chosen, command)
        s.commit()
        return True


def _secrets(web_sessions, game_id: str, viewer) -> tuple[set[str], dict[int, int]]:
    """What ``viewer`` must not see: card ids in other hands, and gold hidden from them."""
    with web_sessions() as s:
        game = s.get(Game, game_id)
        rules = store.rules_of(game)
        state = store.load_state(s, game, rules=rules)
        shown = json.dumps(rules.view(state, viewer))
        hands = {c for p in state.players if p.seat != viewer for c in p.hand}
        gold = {p.seat: p.gold for p in state.players if p.gold_hidden and p.seat != viewer}
        return {c for c in hands if f'"{c}"' not in shown}, gold


def _house_svg(page: str, seat: int) -> str:
    match = re.search(rf'<svg[^>]*data-seat="{seat}".*?</svg>', page, re.S)
    assert match, f"house of seat {seat} is drawn"
    return match.group(0)


def _gold_text(house_svg: str) -> str:
    match = re.search(r'<g class="sp-gold[^"]*">(.*?)</g>', house_svg, re.S)
    assert match
    return re.sub(r"<[^>]+>", " ", match.group(1))


def _assert_nothing_hidden_shows(page: str, hidden_cards: set[str], hidden_gold: dict[int, int]) -> None:
    for card in hidden_cards:
        assert card not in page and quote(card, safe="") not in page, f"{card} of another hand leaks"
    for seat, gold in hidden_gold.items():
        text = _gold_text(_house_svg(page, seat))
        assert "?" in text and not re.search(r"\d", text), f"hidden gold of seat {seat} shows: {text}"


def _view(web_sessions, game_id: str, viewer) -> dict:
    with web_sessions() as s:
        game = s.get(Game, game_id)
        rules = store.rules_of(game)
        return rules.view(store.load_state(s, game, rules=rules), viewer)


def _play_through(client, spectator, web_sessions, web_config, game_id: str, seed: int):
    """Plays the game to its end, checking every page Ann and a spectator see; returns the
    stages seen and one page per stage kind."""
    rng = random.Random(seed)
    seen: dict[str, str] = {}
    for _ in range(2_000):
        view = _view(web_sessions, game_id, 0)
        page = client.get(f"/games/{game_id}").data.decode()
        watcher = spectator.get(f"/games/{game_id}").data.decode()
        cards, gold = _secrets(web_sessions, game_id, 0)
        _assert_nothing_hidden_shows(page, cards, gold)
        every_hand, all_gold = _secrets(web_sessions, game_id, None)
        _assert_nothing_hidden_shows(watcher, every_hand, all_gold)
        assert "Your hand" not in watcher
        stage = view["stage"]
        kind = stage.split("_")[0]
        if kind == "market" and (view.get("market") or {}).get("auction"):
            kind = "auction"
        if kind == "arena" and any(amount for bets in ((view.get("arena") or {}).get("bets") or {}).values()
                                   for amount in bets.values()):
            kind = "bets"
        seen.setdefault(kind, page)
        seen.setdefault("spectator_" + kind, watcher)
        if not _move(web_sessions, web_config, game_id, rng):
            break
    return seen


@pytest.mark.parametrize("seats,seed", [(4, 7), (3, 11)])
def test_every_page_of_a_game_draws_the_board_and_hides_what_is_hidden(
        app, client, sign_in, spartacus_game, web_sessions, web_config, seats, seed):
    sign_in(ANN)
    spectator = app.test_client()
    seen: dict[str, str] = {}
    # The service rolls its dice with the CSPRNG, so a short game need not reach a placed
    # bet: play more games (each scanned whole for leaks) until every stage has been seen.
    for attempt in range(6):
        game_id = spartacus_game(seats)
        for kind, page in _play_through(client, spectator, web_sessions, web_config, game_id, seed + attempt).items():
            seen.setdefault(kind, page)
        if all(kind in seen for kind in ("intrigue", "auction", "bets")):
            break
    for kind in ("intrigue", "auction", "bets"):
        assert kind in seen, f"the game passed through {kind}"

    intrigue = seen["intrigue"]
    assert intrigue.count('class="sp-house') >= seats and "Influence: " in intrigue
    assert re.search(r'class="sp-track sp-marked"', intrigue), "the influence marker is on the track"
    assert "Your hand" in intrigue and "needs " in intrigue and " influence" in intrigue
    assert re.search(r'class="sp-prop[^"]*" data-card="[^"]+#\d+"', intrigue), "property cards are drawn"
    assert re.search(r'class="sp-state">(ready|exhausted|injured)', intrigue)

    auction = seen["auction"]
    assert "Up for auction" in auction and "Bidding round" in auction
    assert "Gold hidden" in auction and "?</text>" in auction, "others' gold is a hidden coin"

    bets = seen["bets"]
    for corner in ("top_left", "top_right", "bottom_left", "bottom_right"):
        assert f'data-corner="{corner}"' in bets
    assert "Winner I" in bets and "Winner II" in bets and "Injury" in bets and "Decapitation" in bets
    assert re.search(r"\(House of \w+\): [123] gold", bets), "a placed bet is in its corner"
    assert "Host" in bets

    for kind in ("intrigue", "auction", "bets"):
        watcher = seen["spectator_" + kind]
        assert "Your hand" not in watcher and "sp-chip" not in watcher and "Influence: " in watcher


def test_prepare_hands_the_bet_corners_to_the_fight_drawing(app):
    from service.web.boards import spartacus as board_module

    board = {"game": "spartacus", "round": 1, "stage": "arena", "host": 1, "players": [
        {"seat": 0, "house": "batiatus", "influence": 4, "hand_size": 2, "gold_hidden": False, "gold": 5,
         "property": [{"card": "crixus#1", "name": "Crixus", "kind": "gladiator", "exhausted": False,
                       "injured": False, "favour": 2, "champion": False}]},
        {"seat": 1, "house": "glaber", "influence": 6, "hand_size": 1, "gold_hidden": False, "gold": 2,
         "property": [{"card": "barca#1", "name": "Barca", "kind": "gladiator", "exhausted": False,
                       "injured": False, "favour": 0, "champion": True}]}],
        "arena": {"invited": [0, 1], "declined": [], "awaiting": -1, "result": None,
                  "entries": [{"seat": 0, "fighter": "crixus#1", "weapon": "sword#1", "armour": "", "special": ""},
                              {"seat": 1, "fighter": "barca#1", "weapon": "", "armour": "", "special": ""}],
                  "bets": {"0": {"winner_i": 3}, "1": {"injury": 2, "decapitation": 1}}}}
    with app.test_request_context():
        drawing = board_module.prepare(board, language="en", game_id="g", version=1, seat=None, decisions=[])
        german = board_module.prepare(board, language="de", game_id="g", version=1, seat=None, decisions=[])
    corners = drawing["corners"]
    assert set(corners) == {"top_left", "top_right", "bottom_left", "bottom_right"}
    assert corners["top_left"] == {"title": "Winner I: Crixus", "lines": ["A (House of Batiatus): 3 gold"]}
    assert corners["top_right"] == {"title": "Winner II: Barca", "lines": []}
    assert corners["bottom_left"]["lines"] == ["B (House of Glaber): 2 gold"]
    assert corners["bottom_right"] == {"title": "Decapitation", "lines": ["B (House of Glaber): 1 gold"]}
    assert german["arena"]["entries"][0]["kit"] == "Schwert"
    assert german["houses"][1]["property"][0]["tokens"] and german["houses"][0]["host"] is False


def test_upkeep_bill_and_property_choices_sit_on_the_cards(app):
    """Releasing a gladiator for the upkeep bill and choosing a card to injure are clicks on
    those cards; exhausted and injured cards say so in words."""
    from service.web.boards import spartacus as board_module

    gladiator = {"card": "crixus#1", "name": "Crixus", "kind": "gladiator", "exhausted": True, "injured": True,
                 "favour": 0, "champion": False}
    slave = {"card": "medicus#1", "name": "Medicus", "kind": "slave", "exhausted": False, "injured": False,
             "favour": 0, "champion": False}
    board = {"game": "spartacus", "round": 2, "stage": "upkeep_accounts", "host": 0, "players": [
        {"seat": 0, "house": "tullius", "influence": 3, "hand_size": 0, "gold_hidden": False, "gold": 0,
         "hand": [], "hand_limit": 3, "property": [gladiator, slave]}]}
    decisions = [
        {"id": "accounts:2:0", "version": 40, "prompt_key": "accounts", "schema": {"properties": {"release": {
            "type": "array", "minItems": 1, "maxItems": 1, "items": {"enum": ["crixus#1"]}}}}},
        {"id": "choose:1:1", "version": 40, "prompt_key": "choose_injure",
         "options": [{"type": "choose_card", "args": {"card": "medicus#1"}}]},
    ]
    with app.test_request_context():
        drawing = board_module.prepare(board, language="en", game_id="g", version=40, seat=0, decisions=decisions)
    crixus, medicus = drawing["houses"][0]["property"]
    assert crixus["states"] == ["exhausted", "injured"] and medicus["states"] == ["ready"]
    assert [c["short"] for c in crixus["chips"]] == ["Release"]
    assert "settle_accounts" in crixus["chips"][0]["url"] and "crixus%231" in crixus["chips"][0]["url"]
    assert medicus["link"]["label"] == "Choose Medicus" and drawing["houses"][0]["links"]
    assert drawing["general"] == [], "releasing nobody is not offered when one must go"


def _board_choices(page: str) -> list[tuple[str, str, dict]]:
    """(address, label, command) of every choice drawn on the board."""
    out = []
    for href, label in re.findall(r'<a (?:class="sp-chip" )?href="(/games/[^"]+/choose\?[^"]+)" aria-label="([^"]+)"',
                                  page):
        href = html.unescape(href)
        command = json.loads(parse_qs(urlsplit(href).query)["command"][0])
        out.append((href, html.unescape(label), command))
    return out


def test_a_choice_on_the_board_leads_to_a_confirm_page_whose_post_acts(
        client, sign_in, spartacus_game, web_sessions, web_config):
    game_id = spartacus_game()
    sign_in(ANN)
    rng = random.Random(3)
    # one choice of each group: the house, a bid, a property card, a hand card.  The house is
    # chosen in die-roll order: whoever comes last has one house left, which the server gives
    # at once (a lone answer anyone can work out), so the board offers it only to the others.
    groups = [{"choose_house"}, {"place_bid"}, {"sell_to_bank"}, {"play_scheme", "sell_intrigue_card", "place_guard"}]
    clicked: set = set()
    for _ in range(1_500):
        page = client.get(f"/games/{game_id}").data.decode()
        choice = next(((url, label, cmd) for url, label, cmd in _board_choices(page)
                       if any(cmd["type"] in g and not g & clicked for g in groups)), None)
        if choice is None:
            if not _move(web_sessions, web_config, game_id, rng):
                break
            continue
        url, label, command = choice
        confirm = client.get(url)
        assert confirm.status_code == 200
        text = confirm.data.decode()
        assert html.escape(label, quote=False) in text
        version = re.search(r'name="version" value="(\d+)"', text).group(1)
        posted = html.unescape(re.search(r'name="command" value="([^"]+)"', text).group(1))
        assert json.loads(posted) == command
        answer = press_confirm(client, text)
        assert answer.status_code == 303, answer.data.decode()[:500]
        with web_sessions() as s:
            assert s.get(Game, game_id).version > int(version), "the POST acted"
        clicked.add(command["type"])
        if all(g & clicked for g in groups):
            break
    ann_chose_last = _house_was_given(web_sessions, game_id, 0)
    required = [g for g in groups if not (ann_chose_last and g == {"choose_house"})]
    assert all(g & clicked for g in required), f"choices made on the board: {clicked}"
    assert _view(web_sessions, game_id, 0)["players"][0]["house"], "Ann has her house"


def _house_was_given(web_sessions, game_id: str, seat: int) -> bool:
    """Whether ``seat`` chose its house last, when a single house was left to it."""
    with web_sessions() as s:
        seats = s.get(Game, game_id).seat_count
        chosen = [r.event.data.get("seat") for r in store.load_events(s, game_id) if r.event.type == "HouseChosen"]
    return len(chosen) == seats and chosen[-1] == seat


def test_a_stale_board_choice_changes_nothing(client, sign_in, spartacus_game, web_sessions, web_config):
    game_id = spartacus_game()
    sign_in(ANN)
    rng = random.Random(5)
    for _ in range(200):
        page = client.get(f"/games/{game_id}").data.decode()
        if _board_choices(page):
            break
        _move(web_sessions, web_config, game_id, rng)
    url, _label, _command = _board_choices(page)[0]
    _move(web_sessions, web_config, game_id, rng)  # the game moves on before the click
    with web_sessions() as s:
        before = s.get(Game, game_id).version
    answer = client.get(url)
    assert answer.status_code in (200, 409)
    with web_sessions() as s:
        assert s.get(Game, game_id).version == before


@pytest.mark.parametrize("language,words", [
    ("de", ["Einfluss", "Gold", "Häuser", "Deine Hand", "Markt", "bereit"]),
    ("ru", ["Влияние", "Золото", "Дома", "Ваши карточки", "Рынок", "Готов"]),
])
def test_german_and_russian_pages_use_the_rulebook_terms(
        client, sign_in, spartacus_game, web_sessions, web_config, language, words):
    game_id = spartacus_game(language=language)
    sign_in(ANN)
    rng = random.Random(9)
    pages, confirms = [], []
    for _ in range(600):
        pages.append(client.get(f"/games/{game_id}").data.decode())
        for url, _label, _command in _board_choices(pages[-1])[:1]:
            confirms.append(client.get(url).data.decode())  # while the link is fresh
        view = _view(web_sessions, game_id, 0)
        if view["stage"] == "arena" and (view.get("arena") or {}).get("bets"):
            break
        if not _move(web_sessions, web_config, game_id, rng):
            break
    every = "\n".join(pages)
    assert confirms, "the board offered choices"
    asked = [html.unescape(m) for c in confirms for m in re.findall(r'<section class="decision">\s*<h2>(.*?)</h2>', c, re.S)]
    assert len(asked) == len(confirms), "every board choice opened its confirm page"
    patterns = [re.compile(re.sub(r"%\\\(\w+\\\)s", ".+", re.escape(i18n.gettext(language, sentence))))
                for sentence in spartacus_terms.PROMPTS.values()]
    for question in asked:
        assert any(p.fullmatch(question) for p in patterns), f"the confirm page asks in the reader's language: {question}"
    for word in words:
        assert word in every, word
    if language == "de":
        assert "Veranstalter" in every and "Sieger I" in every and "Enthauptung" in every
        assert "Runde" in every and "Einfluss: " in every
    else:
        assert "Распорядитель" in every and "Победа I" in every and "Обезглавливание" in every
        assert "Раунд" in every and "Влияние: " in every
    assert "Influence: " not in every and "Your hand" not in every


@pytest.mark.parametrize("language,expected", [
    ("de", ["Gib deine Wetten", "Daumen runter"]),
    ("ru", ["ставки", "Палец вниз"]),
])
def test_prompts_and_buttons_are_translated(app, language, expected):
    from service.words.terms import spartacus as terms

    with app.test_request_context():
        prompt = telling.decision_prompt(language, {"prompt_key": "bets", "prompt": "Place your bets."}, "spartacus")
        thumb = telling.command_label(language, {"type": "show_thumb", "args": {"thumb": "down"}}, {}, "spartacus")
        support = telling.decision_prompt(language, {"prompt_key": "support", "prompt_args": {"asker": 2}}, "spartacus")
    assert expected[0] in prompt and expected[1] in thumb
    assert re.search(r"\bC\b", support) and not re.search(r"[0-9]", support), "seat C, never a number"
    for key in terms.PROMPTS:
        translated = telling.decision_prompt(language, {"prompt_key": key, "prompt_args": {
            "bill": 1, "asker": 1, "limit": 4, "remaining": 1, "round": 1, "stake": 0, "offer": 1, "partner": 1,
            "host": 1, "by": 1, "target": 2, "claim": "robbery"}}, "spartacus")
        assert translated != terms.PROMPTS[key] % {"bill": 1, "asker": 1, "limit": 4, "remaining": 1, "round": 1,
                                                   "stake": 0, "offer": 1, "partner": 1, "host": 1, "by": 1,
                                                   "target": 2, "claim": "robbery"}, key


def test_card_names_follow_the_rulebooks():
    from service.words.terms import spartacus as terms

    assert terms.card_name("incite_rebellion#2", "ru") == "Мятежник"
    assert terms.card_name("destitute#1", "ru") == "Бедняк"
    assert terms.card_name("guard#7", "de") == "Wache"
    assert terms.card_name("murmillo#1", "en") == "Murmillo" and terms.card_name("no_such_card#1", "en") is None
    from engine.spartacus.game.cards import load_set

    for card in load_set("default").intrigue:
        assert terms.card_name(card.id, "de") == card.name_de, card.id
        assert terms.card_name(card.id, "ru"), card.id
    for card in load_set("default").market:
        assert terms.card_name(card.id, "ru"), card.id


def test_every_spartacus_prompt_key_and_command_has_words():
    from engine.spartacus.game import flow
    from service.words.terms import spartacus as terms

    source = "\n".join(p.read_text() for p in (ROOT / "engine" / "spartacus" / "game").glob("*.py"))
    keys = set(re.findall(r'prompt_key="([a-z_]+)"', source))
    keys |= {f"choose_{k}" for k in re.findall(r'^    "([a-z_]+)": "Choose', source, re.M)}
    keys |= {f"react_{m}" for m in ("scheme", "reaction", "gold_emptied", "scheme_succeeded", "bets_placed",
                                    "fighter_died")}
    keys |= {"accept_trade", "reject_trade"}
    assert keys - set(terms.PROMPTS) == set()
    assert set(flow.HANDLERS) - set(terms.COMMANDS) == set()
    assert terms.CONFIRM <= set(terms.COMMANDS)


def test_the_fight_under_way_is_drawn_on_the_hex_board_with_the_bets_in_its_corners(
        app, client, sign_in, spartacus_game, web_sessions, web_config):
    sign_in(ANN)
    fight = None
    for attempt in range(6):  # the service's dice decide whether a fight comes about
        game_id = spartacus_game(4)
        rng = random.Random(40 + attempt)
        for _ in range(2_000):
            arena = _view(web_sessions, game_id, 0).get("arena") or {}
            if arena.get("fight") and any(amount for bets in (arena.get("bets") or {}).values()
                                          for amount in bets.values()):
                fight = arena["fight"]
                break
            if not _move(web_sessions, web_config, game_id, rng):
                break
        if fight:
            break
    assert fight, "a fight with bets came about"
    for page in (client.get(f"/games/{game_id}").data.decode(), app.test_client().get(f"/games/{game_id}").data.decode()):
        drawn = page[page.index('<figure class="arena"'):]
        drawn = drawn[:drawn.index("</figure>")]
        assert drawn.count("<polygon") == len(fight["board"]["hexes"]), "every hex of the arena is drawn"
        for fighter in fight["fighters"]:
            assert html.escape(fighter["name"]) in drawn or fighter["name"] in drawn
        corners = re.findall(r'class="corner corner-(\w+)"', drawn)
        assert sorted(corners) == ["bottom_left", "bottom_right", "top_left", "top_right"], "the bets sit in the corners"
        assert re.search(r"[123] gold", drawn), "a placed bet is written in its corner"
