"""The arena duel's page: the hex board, both fighters and their dice, playing by clicking
the board (a hex, a die), and nothing of the other side's secrets."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Callable, Optional
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import registry
from engine.core.types import Command
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game, User
from tests.web.support import csrf_from, press_confirm, sign_in_with

ANN, BOB = "ann@example.org", "bob@example.org"
#: Fighter I has a trident (reach 2), a helmet (defence reroll) and a net; fighter II a sword
#: (attack reroll) and a javelin (speed attack): every kind of decision comes up.
OPTIONS = {"fighter_i": "dimachaerus", "weapon_i": "trident", "armour_i": "helmet", "special_i": "net",
           "fighter_ii": "crixus", "weapon_ii": "sword", "special_ii": "javelin"}


@pytest.fixture
def duel(web_sessions, web_config) -> Callable[..., str]:
    """``duel(options)`` creates a running duel: ann on seat 0 (fighter I), bob on seat 1."""
    def create(options=OPTIONS) -> str:
        with web_sessions() as s:
            ann = auth.get_or_create_user(s, ANN)
            game = games.create_game(s, web_config, creator=ann, game_type="spartacus_arena", options=options,
                                     seats=2, invites=[BOB])
            bob = auth.get_or_create_user(s, BOB)
            games.join_game(s, web_config, game.id, bob)
            s.commit()
            return game.id
    return create


@pytest.fixture
def players(app):
    """Signed-in browsers of ann (seat 0) and bob (seat 1)."""
    out = []
    for address in (ANN, BOB):
        client = app.test_client()
        sign_in_with(app, client, address)
        out.append(client)
    return out


def state_of(web_sessions, game_id):
    with web_sessions() as s:
        game = s.get(Game, game_id)
        return store.load_state(s, game, rules=store.rules_of(game)), game.version


def view_of(web_sessions, game_id, seat):
    state, _version = state_of(web_sessions, game_id)
    return registry.get("spartacus_arena").view(state, seat)


def open_decisions(web_sessions, game_id) -> list:
    """Every blocking decision of the fight now (fight plans are free decisions)."""
    state, _version = state_of(web_sessions, game_id)
    pending = registry.get("spartacus_arena").pending(state)
    return [d for d in pending.decisions if d.mode != "free"]


def submit(web_sessions, web_config, game_id, decision, command) -> None:
    with web_sessions() as s:
        email = (ANN, BOB)[decision.seat]
        user = s.get(User, auth.get_or_create_user(s, email).id)
        games.submit_command(s, web_config, game_id, user, command_type=command.type, args=dict(command.args),
                             expected_version=s.get(Game, game_id).version)
        s.commit()


def drive(web_sessions, web_config, game_id, until: Callable, rng: random.Random,
          pick: Optional[Callable] = None, limit: int = 400):
    """Answer the fight's decisions (a random legal option, or ``pick``'s) until ``until(decision)``
    holds for an open decision; return that decision (``None`` when the fight ended first)."""
    for _ in range(limit):
        decisions = open_decisions(web_sessions, game_id)
        if not decisions:
            return None
        for d in decisions:
            if until(d):
                return d
        d = decisions[0]
        if d.options is None:  # the duel's first question: fight blow by blow
            submit(web_sessions, web_config, game_id, d, Command(d.seat, "set_fight_plan", {"active": False}))
            continue
        choice = (pick(d) if pick else None) or rng.choice(d.options)
        submit(web_sessions, web_config, game_id, d, choice)
    raise AssertionError("the fight did not reach the wanted decision")


def reach(duel, web_sessions, web_config, until: Callable, seed: int, pick=None, options=OPTIONS):
    """A fresh duel driven until ``until(decision)``; the service rolls real dice, so a fight
    that ends before (rare: every wound forced) is simply fought again."""
    rng = random.Random(seed)
    for _ in range(8):
        game_id = duel(options)
        decision = drive(web_sessions, web_config, game_id, until, rng, pick)
        if decision is not None:
            return game_id, decision
    raise AssertionError("eight fights ended before the wanted decision")


def aggressive(decision):
    """Close in and strike: attacks first, then the move nearest the opponent (so wounds come)."""
    if decision.prompt_key != "spartacus_arena.turn":
        return None
    attacks = [o for o in decision.options if o.type == "attack"]
    if attacks:
        return attacks[0]
    moves = [o for o in decision.options if o.type == "move"]
    if moves and not decision.prompt_args.get("moved"):
        target = decision.prompt_args["opponent_position"]
        return min(moves, key=lambda o: _distance(o.args["to"], target))
    return next(o for o in decision.options if o.type == "end_turn")


def _distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def links(page: str, css_class: str) -> list[str]:
    """The hrefs of ``<a class="css_class" href=...>`` on a page, unescaped."""
    return [html.unescape(h) for h in re.findall(rf'<a class="{css_class}" href="([^"]+)"', page)]


def command_of(url: str) -> dict:
    return json.loads(parse_qs(urlsplit(url).query)["command"][0])


def confirm(client, url: str) -> int:
    """Open a board link's confirm page and press its button; the POST's status."""
    page = client.get(url)
    assert page.status_code == 200, page.data
    return press_confirm(client, page).status_code


def assert_fight_drawn(page: str, view: dict) -> None:
    assert page.count('class="hex') >= len(view["board"]["hexes"]), "every hex is drawn"
    assert page.count("<polygon") == len(view["board"]["hexes"])
    for fighter in view["fighters"]:
        assert fighter["name"] in page
        assert f'data-side="{("I", "II")[fighter["side"]]}"' in page
    for pool in ("attack", "defence", "speed"):
        assert page.count(f'class="pool pool-{pool}"') == 2, "both fighters' dice pools"
    lost = sum(f["printed"][p] - f["dice"][p] for f in view["fighters"] for p in f["dice"])
    assert page.count('class="die lost"') == lost, "lost dice are drawn as lost"
    assert 'role="img"' in page or 'role="group"' in page


# --------------------------------------------------------------------------- every phase, every viewer


def test_every_phase_is_drawn_for_both_seats_and_a_spectator(app, duel, players, web_sessions, web_config):
    game_id = duel()
    spectator = app.test_client()
    rng = random.Random(7)
    seen = set()
    for _ in range(60):
        decision = drive(web_sessions, web_config, game_id,
                         lambda d: view_of(web_sessions, game_id, None)["phase"] not in seen, rng, aggressive)
        if decision is None:
            break
        phase = view_of(web_sessions, game_id, None)["phase"]
        seen.add(phase)
        for seat, client in enumerate([*players, spectator]):
            page = client.get(f"/games/{game_id}")
            assert page.status_code == 200, (phase, seat)
            text = page.data.decode()
            assert_fight_drawn(text, view_of(web_sessions, game_id, seat if seat < 2 else None))
            mine = seat == decision.seat
            assert bool(links(text, "hex-target")) == (mine and phase == "turn"
                                                       and any(o.type == "move" for o in decision.options))
            if seat == 2:
                assert 'class="die-link"' not in text and 'class="arena-action"' not in text
    assert {"nets", "order", "turn", "wounds"} <= seen
    final = players[0].get(f"/games/{game_id}").data.decode()
    assert "won;" in final


# --------------------------------------------------------------------------- playing on the board


def test_a_move_link_confirms_and_moves_the_fighter(duel, players, web_sessions, web_config):
    game_id = duel()
    decision = drive(web_sessions, web_config, game_id,
                     lambda d: d.prompt_key == "spartacus_arena.turn", random.Random(3))
    client = players[decision.seat]
    page = client.get(f"/games/{game_id}").data.decode()
    targets = links(page, "hex-target")
    assert len(targets) == sum(o.type == "move" and "attack" not in o.args for o in decision.options)
    url = targets[-1]
    command = command_of(url)
    assert command["type"] == "move"
    confirm_page = client.get(url).data.decode()
    assert "Move to hex (%s, %s)" % tuple(command["args"]["to"]) in confirm_page
    side = decision.seat
    before = view_of(web_sessions, game_id, None)["fighters"][side]["position"]
    assert confirm(client, url) == 303
    after = view_of(web_sessions, game_id, None)["fighters"][side]["position"]
    assert after == command["args"]["to"] != before


def test_wounds_are_allocated_by_clicking_a_die(duel, players, web_sessions, web_config):
    game_id, decision = reach(duel, web_sessions, web_config,
                              lambda d: d.prompt_key == "spartacus_arena.allocate_wounds", 11, aggressive)
    client = players[decision.seat]
    page = client.get(f"/games/{game_id}").data.decode()
    legal = [dict(o.args) for o in decision.options]
    single_pool = [a for a in legal if sum(1 for v in a.values() if v) == 1]
    dice = links(page, "die-link")
    # the dice a single-pool loss would take are links: as many dice as it takes
    assert len(dice) == sum(sum(a.values()) for a in single_pool)
    choices = links(page, "arena-choice")
    assert sorted(json.dumps(command_of(u)["args"], sort_keys=True) for u in choices) == \
        sorted(json.dumps(a, sort_keys=True) for a in legal), "every allocation is offered as its dice"
    commands = [command_of(u) for u in dice + choices]
    assert all(c["type"] == "allocate_wounds" and c["args"] in legal for c in commands)
    url = (dice or choices)[0]
    chosen = command_of(url)["args"]
    before = view_of(web_sessions, game_id, None)["fighters"]
    side = next(f["side"] for f in before if f["seat"] == decision.seat)
    assert confirm(client, url) == 303
    after = view_of(web_sessions, game_id, None)["fighters"][side]["dice"]
    assert {p: before[side]["dice"][p] - after[p] for p in after} == chosen


def test_a_reroll_is_chosen_by_clicking_the_die(duel, players, web_sessions, web_config):
    game_id, decision = reach(duel, web_sessions, web_config,
                              lambda d: d.prompt_key == "spartacus_arena.reroll", 5, aggressive)
    client = players[decision.seat]
    other = players[1 - decision.seat]
    page = client.get(f"/games/{game_id}").data.decode()
    dice = links(page, "die-link")
    singles = [o for o in decision.options if len(o.args["dice"]) == 1]
    assert len(dice) == len(singles)
    commands = [command_of(u) for u in dice]
    assert all(c["type"] == "reroll" for c in commands)
    assert sorted(c["args"]["dice"] for c in commands) == sorted(list(o.args["dice"]) for o in singles)
    assert confirm(client, dice[0]) == 303
    if open_decisions(web_sessions, game_id) and any(d.prompt_key == "spartacus_arena.reroll"
                                                     for d in open_decisions(web_sessions, game_id)):
        # the other side still chooses: it learns that a choice was made, not which
        theirs = other.get(f"/games/{game_id}").data.decode()
        assert "has chosen its rerolls" in theirs and "you reroll" not in theirs
        mine = client.get(f"/games/{game_id}").data.decode()
        assert "you reroll" in mine


def test_net_order_and_end_of_turn_are_links(duel, players, web_sessions, web_config):
    game_id = duel()
    decision = drive(web_sessions, web_config, game_id, lambda d: d.prompt_key == "spartacus_arena.use_net",
                     random.Random(1))
    page = players[decision.seat].get(f"/games/{game_id}").data.decode()
    actions = [command_of(u) for u in links(page, "arena-action")]
    assert {"type": "use_net", "args": {"use": True}} in actions
    assert {"type": "use_net", "args": {"use": False}} in actions
    assert not links(players[1 - decision.seat].get(f"/games/{game_id}").data.decode(), "arena-action")
    decision = drive(web_sessions, web_config, game_id, lambda d: d.prompt_key == "spartacus_arena.choose_order",
                     random.Random(2))
    page = players[decision.seat].get(f"/games/{game_id}").data.decode()
    assert {"type": "choose_order", "args": {"first": False}} in [command_of(u) for u in links(page, "arena-action")]
    decision = drive(web_sessions, web_config, game_id, lambda d: d.prompt_key == "spartacus_arena.turn",
                     random.Random(2))
    page = players[decision.seat].get(f"/games/{game_id}").data.decode()
    end = [u for u in links(page, "arena-action") if command_of(u)["type"] == "end_turn"]
    assert len(end) == 1
    assert confirm(players[decision.seat], end[0]) == 303


def test_attacking_is_a_link_on_the_opponent(duel, players, web_sessions, web_config):
    game_id, decision = reach(duel, web_sessions, web_config,
                              lambda d: d.prompt_key == "spartacus_arena.turn"
                              and any(o.type == "attack" for o in d.options), 4, aggressive)
    page = players[decision.seat].get(f"/games/{game_id}").data.decode()
    attacks = [command_of(u) for u in links(page, "attack-target") + links(page, "attack-pill")]
    legal = [{"type": o.type, "args": dict(o.args)} for o in decision.options if o.type == "attack"]
    assert attacks and all(a in legal for a in attacks)
    assert {json.dumps(a, sort_keys=True) for a in attacks} == {json.dumps(a, sort_keys=True) for a in legal}


# --------------------------------------------------------------------------- secrets


def test_the_other_sides_plan_and_net_stay_hidden(duel, players, web_sessions, web_config):
    both_nets = {**OPTIONS, "special_ii": "net"}
    game_id = duel(both_nets)
    ann, bob = players
    decision = drive(web_sessions, web_config, game_id, lambda d: d.prompt_key == "spartacus_arena.use_net"
                     and d.seat == 0, random.Random(1))
    # ann throws her net; bob has not decided yet
    submit(web_sessions, web_config, game_id, decision, next(o for o in decision.options if o.args["use"]))
    assert "you throw the net this round" in ann.get(f"/games/{game_id}").data.decode()
    theirs = bob.get(f"/games/{game_id}").data.decode()
    assert "has decided about the net" in theirs and "throw the net this round" not in theirs
    # a fight plan is seen by its own player only
    with web_sessions() as s:
        user = s.get(User, auth.get_or_create_user(s, BOB).id)
        games.submit_command(s, web_config, game_id, user, command_type="set_fight_plan",
                             args={"wound_order": ["defence", "speed", "attack"]},
                             expected_version=s.get(Game, game_id).version)
        s.commit()
    assert "Your fight plan answers" in fighter_panel(bob.get(f"/games/{game_id}").data.decode(), "II")
    assert "No fight plan" in fighter_panel(ann.get(f"/games/{game_id}").data.decode(), "I")
    for page in (ann.get(f"/games/{game_id}").data.decode(), ann.application.test_client().get(
            f"/games/{game_id}").data.decode()):
        assert "fight plan" not in fighter_panel(page, "II")
    assert "fight plan" not in ann.application.test_client().get(f"/games/{game_id}").data.decode()


def fighter_panel(page: str, side: str) -> str:
    return re.search(rf'<section class="arena-panel arena-fighter" data-side="{side}">.*?</section>', page,
                     re.S).group(0)


# --------------------------------------------------------------------------- languages


@pytest.mark.parametrize("language, words", [
    ("de", ["Angriff", "Verteidigung", "Schnelligkeit", "Runde", "Reichweite"]),
    ("ru", ["Атака", "Защита", "Скорость", "Раунд", "Дальность"]),
])
def test_the_fight_speaks_german_and_russian(app, duel, web_sessions, web_config, language, words):
    game_id, decision = reach(duel, web_sessions, web_config,
                              lambda d: d.prompt_key == "spartacus_arena.allocate_wounds", 11, aggressive)
    email = (ANN, BOB)[decision.seat]
    with web_sessions() as s:
        user = s.get(User, auth.get_or_create_user(s, email).id)
        user.language = language
        s.commit()
    client = app.test_client()
    sign_in_with(app, client, email)
    page = client.get(f"/games/{game_id}").data.decode()
    for word in words:
        assert word in page, word
    lose = {"de": "Würfel abgeben:", "ru": "Сбросить кубики:"}[language]
    assert lose in page, "the dice to lose, translated"
    confirm_page = client.get(links(page, "arena-choice")[0]).data.decode()
    assert {"de": "Welche?", "ru": "Какие?"}[language] in confirm_page, "the arena's prompt, translated"
    assert lose in confirm_page
    for english in ("Attack <strong>", "Defence <strong>", "Distance in hexes", "The fight in words"):
        assert english not in page
    spectator = app.test_client().get(f"/games/{game_id}", headers={"Accept-Language": language}).data.decode()
    assert words[0] in spectator and "Attack <strong>" not in spectator


# --------------------------------------------------------------------------- the drawing itself


def test_one_wound_makes_the_last_die_of_every_pool_a_link(app):
    """A hand-made view: fighter I owes one wound, any pool may give it."""
    from engine.spartacus.arena.rules import RULES
    from service.web.boards import spartacus_arena

    view = RULES.view(RULES.initial_state(2, {}), 0)
    view["phase"], view["wounds_due"] = "wounds", [{"side": 0, "count": 1, "reason": "attack"}]
    options = [{"seat": 0, "type": "allocate_wounds", "args": {p: int(p == pool) for p in ("attack", "defence", "speed")}}
               for pool in ("attack", "defence", "speed")]
    decision = {"id": "duel:wounds:1", "version": 9, "prompt_key": "spartacus_arena.allocate_wounds",
                "options": options}
    with app.test_request_context():
        drawing = spartacus_arena.draw_fight(view, language="en", game_id="g1", seat=0, decisions=[decision])
        spectator = spartacus_arena.draw_fight(view, language="en", game_id="g1", seat=None, decisions=[])
    for pool in drawing["fighters"][0]["pools"]:
        urls = [d["url"] for d in pool["dice"]]
        assert urls[:-1] == [None] * (len(urls) - 1) and command_of(urls[-1])["args"][pool["key"]] == 1
    assert not any(d["url"] for f in drawing["fighters"][1:] for p in f["pools"] for d in p["dice"])
    assert not any(d["url"] for f in spectator["fighters"] for p in f["pools"] for d in p["dice"])
    assert len(drawing["hexes"]) == 65 and {h["start"] for h in drawing["hexes"]} == {None, "I", "II"}


def test_corners_are_drawn_outside_the_board(app):
    from engine.spartacus.arena.rules import RULES
    from service.web.boards import spartacus_arena

    view = RULES.view(RULES.initial_state(2, {}), None)
    corners = {"top_left": {"title": "Bets", "lines": ["Ann: 2 gold on I"]},
               "bottom_right": {"title": "Host", "lines": ["Bob"]}}
    with app.test_request_context():
        plain = spartacus_arena.draw_fight(view, language="en", game_id="g1", seat=None, decisions=[])
        boxed = spartacus_arena.draw_fight(view, language="en", game_id="g1", seat=None, decisions=[],
                                           corners=corners)
        from flask import render_template_string
        page = render_template_string('{% include "games/_arena_fight.html" %}', fight=boxed, game_id="g1")
    assert [c["key"] for c in boxed["corners"]] == ["top_left", "bottom_right"]
    top = min(h["cy"] for h in boxed["hexes"]) - 28
    assert boxed["corners"][0]["y"] + boxed["corners"][0]["h"] <= top
    assert float(boxed["view_box"].split()[3]) > float(plain["view_box"].split()[3])
    assert "Ann: 2 gold on I" in page and "corner-top_left" in page


def test_a_fight_of_the_spartacus_game_is_drawn_the_same_way(app):
    """``board["arena"]["fight"]`` of the Spartacus game has the duel's shape; its
    decisions (ids start with the fight's id) become links on the board."""
    from engine.core.playout import play_out
    from service.web.boards import spartacus_arena

    rules = registry.get("spartacus")
    reached = {}

    class Reached(Exception):
        pass

    def on_step(state, _command, _events):
        fight = (rules.view(state, None).get("arena") or {}).get("fight")
        if fight and fight["phase"] == "turn":
            reached["state"] = state
            raise Reached

    with pytest.raises(Reached):
        play_out(rules, rules.initial_state(3, {}), random.Random(2), on_step=on_step)
    state = reached["state"]
    turn = next(d for d in rules.pending(state).decisions if d.prompt_key == "spartacus_arena.turn")
    fight = rules.view(state, turn.seat)["arena"]["fight"]
    decisions = [{**d.to_json(), "version": 40} for d in rules.pending(state).for_seat(turn.seat)]
    with app.test_request_context():
        drawing = spartacus_arena.draw_fight(fight, language="en", game_id="g1", seat=turn.seat, decisions=decisions)
        other = spartacus_arena.draw_fight(rules.view(state, None)["arena"]["fight"], language="en", game_id="g1",
                                           seat=None, decisions=[])
    assert [t["name"] for t in drawing["tokens"]] == [f["name"] for f in fight["fighters"]]
    moves = [o for o in turn.options if o.type == "move"]
    assert len(drawing["moves"]) == len(moves)
    assert all(f"decision={turn.id}" in m["url"].replace("%3A", ":") for m in drawing["moves"])
    assert not other["moves"] and not other["actions"]


@pytest.mark.parametrize("lang,power,words", [
    ("en", {"kind": "reroll", "roll": "attack", "dice": 1, "uses": "once_per_fight"},
     "Reroll up to 1 attack die, once per fight"),
    ("en", {"kind": "reroll", "roll": "defence", "dice": 2, "uses": "every_roll"},
     "Reroll up to 2 defence dice, on every roll"),
    ("ru", {"kind": "reroll", "roll": "attack", "dice": 1}, "Перебросить до 1 кубика Атаки"),
    ("ru", {"kind": "reroll", "roll": "attack", "dice": 3}, "Перебросить до 3 кубиков Атаки"),
    ("en", {"kind": "range", "hexes": 1}, "Normal attacks reach 1 hex"),
    ("en", {"kind": "range", "hexes": 2}, "Normal attacks reach 2 hexes"),
    ("de", {"kind": "range", "hexes": 1}, "Normale Angriffe reichen 1 Hexfeld weit"),
    ("ru", {"kind": "range", "hexes": 2}, "Обычная Атака достаёт на 2 клетки"),
    ("en", {"kind": "extra_wound", "count": 1}, "1 extra wound"),
    ("de", {"kind": "ignore_wound", "count": 2}, "2 Wunden ignorieren"),
    ("ru", {"kind": "counter_wound", "count": 5}, "Атакующий получает 5 Ран"),
])
def test_a_power_says_its_numbers_in_the_readers_grammar(lang, power, words):
    from service.web.boards import spartacus_arena as board
    from service.words import i18n

    assert board._power_text(power, i18n.translator(lang)) == words
