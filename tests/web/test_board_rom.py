"""The Rom board on the game page: drawn from the viewer's view only, with the viewer's
die placements (and conquests, senate picks, purchases) clickable through confirm pages,
and Rom's words in German and Russian.

Games are real: Ann plays seat 0 through the service, bots play the other seats.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from engine.rom.carddata import load_card_set
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game
from service.words.seat_marks import seat_style
from service.words.terms import rom as rom_terms
from tests.web.support import csrf_from, press_confirm, sign_in_with

ANN = "ann@example.org"
BOB = "bob@example.org"
CARDS = load_card_set("default")


@pytest.fixture
def ann(app):
    client = app.test_client()
    sign_in_with(app, client, ANN)
    return client


def new_game(web_sessions, web_config, seats: int, **options) -> str:
    """A running game: Ann in seat 0, bots in every other seat (they have moved already)."""
    with web_sessions() as s:
        user = auth.get_or_create_user(s, ANN)
        game = games.create_game(s, web_config, creator=user, game_type="rom", options=options, seats=seats,
                                 bot_seats=list(range(1, seats)), creator_seat=0, title="Rom")
        s.commit()
        return game.id


def state_of(web_sessions, game_id):
    with web_sessions() as s:
        game = s.get(Game, game_id)
        return store.load_state(s, game), game.version


def decisions(web_sessions, game_id) -> list[dict]:
    with web_sessions() as s:
        return games.decisions_for(s, game_id, auth.get_or_create_user(s, ANN))


def play_until(web_sessions, web_config, game_id, done, limit: int = 400, prefer=None):
    """Ann answers each of her decisions with its default (as a deadline would), or with
    what ``prefer(decision)`` picks, until ``done(state, decisions)``; returns the state."""
    for _ in range(limit):
        state, _version = state_of(web_sessions, game_id)
        mine = decisions(web_sessions, game_id)
        if done(state, mine):
            return state
        assert mine, "Ann has nothing to answer but the condition is not met"
        d = mine[0]
        command = (prefer(d) if prefer else None) or d["default"]
        with web_sessions() as s:
            games.submit_command(s, web_config, game_id, auth.get_or_create_user(s, ANN),
                                 command_type=command["type"], args=command["args"],
                                 expected_version=d["version"])
            s.commit()
    raise AssertionError("the game did not reach the wanted stage")


def page_of(client, game_id, language: str = "en") -> str:
    answer = client.get(f"/games/{game_id}", headers={"Accept-Language": language})
    assert answer.status_code == 200
    return answer.data.decode()


def my_panel(page: str) -> str:
    match = re.search(r'<section class="panel rom-player rom-you".*?</section>', page, re.S)
    assert match, "the viewer's own panel"
    return match.group(0)


def senator(decision: dict):
    """Ann sends her first two dice of a round to the senate and the others to the legion."""
    options = decision.get("options") or []
    first = "senate" if len((decision.get("context") or {}).get("dice") or ()) > 2 else "military"
    for track in (first, "senate", "military"):
        places = [o for o in options if o["type"] == "place_die" and o["args"]["track"] == track]
        if places:
            return places[0]
    return None


def svg_block(page: str, cls: str) -> str:
    match = re.search(rf'<svg class="{cls}".*?</svg>', page, re.S)
    assert match, cls
    return match.group(0)


def track_block(page: str, track: str) -> str:
    match = re.search(rf'<section class="panel rom-track" id="rom-track-{track}">.*?</section>', page, re.S)
    assert match, track
    return match.group(0)


def choice_links(page: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="(/games/[^"]+/choose\?[^"]+)"', page)]


def command_of(link: str) -> dict:
    return json.loads(parse_qs(urlparse(link).query)["command"][0])


# --------------------------------------------------------------------------- what is drawn


def test_the_board_shows_the_map_tracks_and_my_cards_and_nothing_hidden(app, ann, web_sessions, web_config):
    game_id = new_game(web_sessions, web_config, 3)
    page = page_of(ann, game_id)
    state, _ = state_of(web_sessions, game_id)
    mine = state.players[0]

    themap = svg_block(page, "rom-map")
    assert 'role="group"' in themap and "<title" in themap
    for region, name in CARDS.regions:
        assert f">{name}</text>" in themap, region
    assert "out of play" not in themap, "3 players use every region"
    for track in ("military", "senate", "black_market"):
        block = track_block(page, track)
        for group in state.tracks[("military", "senate", "black_market").index(track)]:
            style = seat_style(group.seat)
            assert f">{style['mark']}</text>" in block and style["fill"] in block, "each group shows its owner"
    for pid in state.province_row:
        assert f'title="{pid}"' in track_block(page, "military")
    for cid in state.senate_row:
        assert f'title="{cid}"' in track_block(page, "senate")
    for aid in state.arena_row:
        assert f'title="{aid}"' in track_block(page, "black_market")
    assert svg_block(page, "rom-forum") and svg_block(page, "rom-vp")
    assert f'aria-label="{", ".join(map(str, mine.unplaced))}"' in my_panel(page), "my dice in hand"

    # later: Ann holds senate cards and provinces, the others hold arena cards
    state = play_until(web_sessions, web_config, game_id,
                       lambda st, ds: st.round >= 3 and st.phase == "placement" and ds and st.players[0].senate
                       and st.players[0].provinces and any(p.arena for p in st.players[1:]), prefer=senator)
    page = page_of(ann, game_id)
    panel = my_panel(page)
    for cid in state.players[0].senate:
        assert f'title="{cid}"' in panel, "my senate cards"
    for pid in state.players[0].provinces:
        assert f'title="{pid}"' in panel, "my provinces"
    exhausted = [c for c in state.players[0].senate if c in state.exhausted_senate]
    assert ("rom-exhausted" in panel) == bool(exhausted or set(state.players[0].provinces) & state.exhausted_provinces)
    for seat, player in enumerate(state.players):
        for cid in player.senate:
            assert f'title="{cid}"' in page, "every senate card lies face up"
        for pid in player.provinces:
            assert f'title="{pid}"' in page
            style = seat_style(seat)
            assert style["fill"] in svg_block(page, "rom-map")
    for aid in state.players[0].arena:
        assert f'title="{aid}"' in page, "my arena hand is shown to me"
    others = {a for p in state.players[1:] for a in p.arena}
    mine_or_open = set(state.players[0].arena) | set(state.arena_row)
    for aid in others - mine_or_open:
        assert aid not in page, "no other hand leaks"
    for aid in state.arena_deck:
        assert f'title="{aid}"' not in page


def test_a_two_player_map_shows_hispania_and_asia_out_of_play(ann, web_sessions, web_config):
    game_id = new_game(web_sessions, web_config, 2)
    themap = svg_block(page_of(ann, game_id), "rom-map")
    assert themap.count("out of play") == 2
    assert "url(#rom-out)" in themap


def shopper(decision: dict):
    """Ann goes to the black market with every die and buys what she can."""
    options = decision.get("options") or []
    for wanted in ("buy_arena_card", "buy_hidden_arena_card"):
        for option in options:
            if option["type"] == wanted:
                return option
    market = [o for o in options if o["type"] == "place_die" and o["args"]["track"] == "black_market"]
    return market[0] if market else None


def test_a_hidden_arena_set_stays_hidden_until_the_reveal(app, ann, web_sessions, web_config):
    """Bob (a second human) lays his set face down while Ann still chooses: neither Ann's
    page nor a spectator's shows his cards; both see only that he has answered."""
    with web_sessions() as s:
        user = auth.get_or_create_user(s, ANN)
        game = games.create_game(s, web_config, creator=user, game_type="rom", options={}, seats=4,
                                 bot_seats=[2, 3], creator_seat=0, invites=[BOB], title="Rom")
        games.join_game(s, web_config, game.id, auth.get_or_create_user(s, BOB))
        s.commit()
        game_id = game.id
    for _ in range(800):
        with web_sessions() as s:
            open_for = {email: games.decisions_for(s, game_id, auth.get_or_create_user(s, email))
                        for email in (ANN, BOB)}
        bob_arena = [d for d in open_for[BOB] if d["id"].startswith("arena:")]
        ann_arena = [d for d in open_for[ANN] if d["id"].startswith("arena:")]
        if bob_arena and ann_arena and bob_arena[0]["default"]["args"]["cards"]:
            break
        email, d = next((e, ds[0]) for e, ds in open_for.items() if ds)
        command = shopper(d) or d["default"]
        with web_sessions() as s:
            games.submit_command(s, web_config, game_id, auth.get_or_create_user(s, email),
                                 command_type=command["type"], args=command["args"], expected_version=d["version"])
            s.commit()
    else:
        raise AssertionError("no arena scoring with sets for both")
    laid = bob_arena[0]["default"]["args"]["cards"]
    with web_sessions() as s:
        games.submit_command(s, web_config, game_id, auth.get_or_create_user(s, BOB), command_type="submit_arena_set",
                             args={"cards": laid}, expected_version=bob_arena[0]["version"])
        s.commit()
    state, _ = state_of(web_sessions, game_id)
    assert state.phase == "arena" and state.players[1].arena_set == tuple(laid)
    for client in (ann, app.test_client()):
        page = page_of(client, game_id)
        assert not [a for a in laid if a in page], "a face-down set stays face down"
        assert "Has answered for the arena." in page and "Still choosing an arena set." in page
    bob = app.test_client()
    sign_in_with(app, bob, BOB)
    assert all(f'title="{a}"' in page_of(bob, game_id) for a in state.players[1].arena), "Bob sees his own hand"


def test_a_game_still_waiting_for_players_draws_its_empty_board(ann, web_sessions, web_config):
    with web_sessions() as s:
        user = auth.get_or_create_user(s, ANN)
        game = games.create_game(s, web_config, creator=user, game_type="rom", options={}, seats=3,
                                 invites=["bob@example.org", "cy@example.org"])
        s.commit()
        game_id = game.id
    page = page_of(ann, game_id)
    assert svg_block(page, "rom-map") and track_block(page, "military") and not choice_links(page)


def test_a_spectator_sees_the_board_but_no_hand_and_no_choices(app, web_sessions, web_config):
    game_id = new_game(web_sessions, web_config, 3)
    state, _ = state_of(web_sessions, game_id)
    page = page_of(app.test_client(), game_id)
    assert svg_block(page, "rom-map") and track_block(page, "senate")
    assert not choice_links(page)
    assert "Your arena cards" not in page


# --------------------------------------------------------------------------- clicking on the board


def test_a_die_on_the_board_opens_a_confirm_page_whose_post_places_it(ann, web_sessions, web_config):
    game_id = new_game(web_sessions, web_config, 3)
    state = play_until(web_sessions, web_config, game_id,
                       lambda st, ds: any(o["type"] == "place_die" for d in ds for o in d.get("options") or ()))
    before, version = state_of(web_sessions, game_id)
    page = page_of(ann, game_id)
    links = [link for link in choice_links(page) if command_of(link)["type"] == "place_die"]
    (decision,) = [d for d in decisions(web_sessions, game_id) if d["id"].startswith("place:")]
    wanted = [o for o in decision["options"] if o["type"] == "place_die"]
    assert sorted(map(json.dumps, map(command_of, links))) == sorted(json.dumps(o, sort_keys=True) for o in wanted)

    link = next(link for link in links if "card" not in command_of(link)["args"])
    command = command_of(link)
    track = command["args"]["track"]
    assert link in [html.unescape(h) for h in re.findall(r'href="([^"]+)"', track_block(page, track))], \
        "the link sits on its own track"
    confirm = ann.get(link)
    assert confirm.status_code == 200
    text = confirm.data.decode()
    label = rom_terms.command_label("en", command, {})
    assert html.escape(label) in text and "Confirm" in text
    hidden = re.search(r'name="command" value="([^"]+)"', text).group(1)
    assert json.loads(html.unescape(hidden)) == command
    answer = press_confirm(ann, text)
    assert answer.status_code == 303
    after, new_version = state_of(web_sessions, game_id)
    assert new_version > version
    t = ("military", "senate", "black_market").index(track)
    placed_before = [g.dice for g in before.tracks[t] if g.seat == 0]
    placed = [g.dice for g in after.tracks[t] if g.seat == 0]
    assert placed and command["args"]["value"] in placed[0]
    assert len(placed[0]) == (len(placed_before[0]) if placed_before else 0) + 1
    page = page_of(ann, game_id)
    block = track_block(page, track)
    assert f">{seat_style(0)['mark']}</text>" in block, "Ann's die appears on the track"


def test_conquering_and_taking_cards_are_clickable_cards(ann, web_sessions, web_config):
    game_id = new_game(web_sessions, web_config, 3)
    state = play_until(web_sessions, web_config, game_id,
                       lambda st, ds: any(d["id"].startswith(("conquer:", "senate:", "market:")) for d in ds),
                       limit=600)
    (decision,) = decisions(web_sessions, game_id)
    page = page_of(ann, game_id)
    links = {json.dumps(command_of(link), sort_keys=True) for link in choice_links(page)}
    singles = [o for o in decision["options"]
               if len(o["args"].get("provinces", o["args"].get("cards", [o["args"].get("card")]))) == 1
               and o["type"] in ("conquer_provinces", "take_senate_cards", "buy_arena_card")]
    assert singles, decision["id"]
    for option in singles:
        assert json.dumps(option, sort_keys=True) in links, option


# --------------------------------------------------------------------------- words


def test_every_prompt_key_and_command_of_rom_has_words():
    source = "".join(p.read_text() for p in (Path(__file__).resolve().parents[2] / "engine" / "rom").glob("*.py"))
    keys = set(re.findall(r'prompt_key="([a-z_]+)"', source))
    assert keys and keys <= set(rom_terms.PROMPTS)
    handled = set(re.findall(r'"([a-z_]+)": _on_', source))
    assert handled and handled <= set(rom_terms.COMMANDS)
    assert rom_terms.CONFIRM <= set(rom_terms.COMMANDS)


def test_card_names_in_german_and_russian():
    assert rom_terms.card_name("magister_equitum", "de") == "Magister Equitum"
    assert rom_terms.card_name("magister_equitum", "ru") == "Начальник конницы"
    assert rom_terms.card_name("lion_2", "de") == "Löwe" and rom_terms.card_name("lion_1", "ru") == "Лев"
    assert rom_terms.card_name("latium", "en") == "Latium" and rom_terms.card_name("no_such_card", "en") is None
    for group in (CARDS.provinces, CARDS.senate, CARDS.arena):
        for card in group:
            assert rom_terms.card_name(card.id, "de") and rom_terms.card_name(card.id, "ru"), card.id


def test_command_labels_tell_the_arguments():
    place = {"type": "place_die", "args": {"value": 3, "track": "senate"}}
    assert rom_terms.command_label("en", place, {}) == "Place a 3 on the senate track"
    legatus = {"type": "place_die", "args": {"value": 5, "track": "military", "card": "legatus",
                                             "provinces": ["numidia"]}}
    assert rom_terms.command_label("en", legatus, {}) == "Place a 5 on the military track with Legatus"
    conquer = {"type": "conquer_provinces", "args": {"provinces": ["latium", "etruria"]}}
    assert rom_terms.command_label("en", conquer, {}) == "Conquer Latium, Etruria"
    assert rom_terms.command_label("en", {"type": "conquer_provinces", "args": {"provinces": []}}, {}) == \
        "Conquer nothing"
    vicarius = {"type": "activate_card", "args": {"card": "vicarius", "provinces": ["etruria"], "value": 6,
                                                  "delta": 1}}
    assert rom_terms.command_label("en", vicarius, {}) == "Activate Vicarius on Etruria: die 6 becomes 1"
    assert rom_terms.command_label("en", {"type": "end_turn", "args": {}}, {}) is None


# --------------------------------------------------------------------------- German and Russian pages


@pytest.mark.parametrize("language,track,prompt,button,province", [
    ("de", "Militärleiste", "Setze einen deiner Machtwürfel", "auf die", "Etrurien"),
    ("ru", "Военная шкала", "Поставьте один из своих кубиков власти", "Поставить", "Этрурия"),
])
def test_german_and_russian_pages_speak_rom(ann, web_sessions, web_config, language, track, prompt,
                                            button, province):
    game_id = new_game(web_sessions, web_config, 3)
    play_until(web_sessions, web_config, game_id,
               lambda st, ds: any(o["type"] == "place_die" for d in ds for o in d.get("options") or ()))
    with web_sessions() as s:
        auth.get_or_create_user(s, ANN).language = language  # a player's own choice beats the browser's
        s.commit()
    page = page_of(ann, game_id, language)
    assert track in page and province in svg_block(page, "rom-map")
    link = next(link for link in choice_links(page) if command_of(link)["type"] == "place_die")
    confirm = ann.get(link, headers={"Accept-Language": language}).data.decode()
    assert prompt in confirm, "the prompt is Rom's, translated"
    assert button in confirm, "the answer names die and track in the page's language"
    assert "Place a" not in confirm


def test_every_senate_card_has_its_ability_in_german_and_russian():
    for card in CARDS.senate:
        assert rom_terms.card_text(card.id, "de") and rom_terms.card_text(card.id, "ru"), card.id
    assert rom_terms.card_text("censor", "en") is None
