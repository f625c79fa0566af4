"""Every kind of decision form on the game page round-trips to the command it shows:
enumerated options (buttons), bounded numbers, booleans, selects, multi-selects with
their limits, ordered arrays (one select per position) and nested choices; driven on
real decisions of the arena duel, Rom and Spartacus against bots."""

from __future__ import annotations

import html
import json
import random
from collections import Counter

import pytest
from werkzeug.datastructures import MultiDict

from service.identity import auth
from service.play import games
from service.web import pages, schema_forms
from service.words import telling, terms
from tests.web.pages_play import (
    CommandLog,
    bot_game,
    decision_form,
    drive_until,
    hidden_value,
    option_buttons,
    user,
)
from tests.web.support import csrf_from, press_confirm, sign_in_with, through_confirm


@pytest.fixture
def ann(app):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    return client


def _decision(web_sessions, game_id, decision_id):
    with web_sessions() as s:
        me = auth.get_or_create_user(s, "ann@example.org")
        return next(d for d in games.decisions_for(s, game_id, me) if d["id"] == decision_id)


def _post_form(client, game_id, page, decision, fields):
    data = MultiDict([("csrf_token", csrf_from(page)), ("version", str(decision["version"])),
                      ("decision_id", decision["id"]), *fields])
    return through_confirm(client, client.post(f"/games/{game_id}/act", data=data))


# --------------------------------------------------------------------------- the arena duel


@pytest.mark.parametrize("confirm_every_option", [False, True])
def test_options_are_buttons_that_post_their_command(ann, app, web_sessions, web_config, monkeypatch,
                                                     confirm_every_option):
    game_id = bot_game(web_sessions, web_config, "spartacus_arena", 2)
    # the duel's first question: ann fights blow by blow, so the fight's decisions are hers to answer
    order = drive_until(web_sessions, web_config, game_id, lambda d: d.get("options") and d["mode"] != "free",
                        choose=lambda d: {"type": "set_fight_plan", "args": {"active": False}}
                        if d["prompt_key"] == "spartacus_arena.prepare" else d["default"])
    if confirm_every_option:  # both ways a button may answer: at once, or through its confirm page
        arena_terms = terms.module("spartacus_arena")
        monkeypatch.setattr(arena_terms, "CONFIRM", {o["type"] for o in order["options"]})
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)
    shown = {json.dumps(b["command"], sort_keys=True): b for b in option_buttons(page)}
    buttons = [shown.get(json.dumps({"type": o["type"], "args": o["args"]}, sort_keys=True))
               for o in order["options"]]
    assert all(buttons), "every option of the decision is a button or a choice in a list"
    kinds = Counter(o["type"] for o in order["options"])
    assert [b["label"] for b in buttons] == [
        telling.command_label("en", o, {}, "spartacus_arena")
        + (" (asks to confirm)" if terms.needs_confirmation("spartacus_arena", o["type"])
           and kinds[o["type"]] <= pages.MAX_BUTTONS_OF_A_KIND else "")
        for o in order["options"]]
    assert all(bool(b.get("listed")) == (kinds[b["command"]["type"]] > pages.MAX_BUTTONS_OF_A_KIND) for b in buttons), \
        "many options of one kind are one choice list, a few are buttons"
    log = CommandLog(monkeypatch)
    chosen = buttons[-1]
    if terms.needs_confirmation("spartacus_arena", chosen["command"]["type"]):
        # the button opens the confirm page (a GET form); its own button then sends the answer
        assert chosen["method"] == "get"
        query = {name: hidden_value(chosen["form"], name) for name in ("decision", "version")}
        query["command"] = json.dumps(chosen["command"])
        confirm = ann.get(chosen["action"], query_string=query)
        assert log.commands == [], "a choice the game asks to confirm waits for its confirm page"
        answer = press_confirm(ann, confirm)
    else:
        answer = ann.post(chosen["action"], data={"csrf_token": csrf_from(page), "version": str(order["version"]),
                                                  "command": json.dumps(chosen["command"])})
    assert answer.status_code == 303
    assert log.commands == [chosen["command"]]


def test_the_fight_plan_form_reads_back_selects_booleans_and_an_ordered_array(ann, web_sessions, web_config,
                                                                               monkeypatch):
    game_id = bot_game(web_sessions, web_config, "spartacus_arena", 2)
    plan = drive_until(web_sessions, web_config, game_id, lambda d: "schema" in d and d.get("command_type") == "set_fight_plan")
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)
    form = decision_form(page, plan["id"])
    assert 'type="checkbox" name="arg.active"' in form and 'type="checkbox" name="arg.spread"' in form
    assert 'name="arg.approach"' in form and '<option value="&#34;keep_distance&#34;"' in form
    for position in range(3):
        assert f'name="arg.wound_order.{position}"' in form, "one select per position of the order"
    assert "in order, each once" in form

    log = CommandLog(monkeypatch)
    answer = _post_form(ann, game_id, page, plan, [
        ("arg.active", "1"), ("arg.approach", '"keep_distance"'), ("arg.reroll", '"lowest"'),
        ("arg.wound_order.0", '"attack"'), ("arg.wound_order.1", '"speed"'), ("arg.wound_order.2", '"defence"')])
    assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    assert log.commands == [{"type": "set_fight_plan", "args": {
        "active": True, "approach": "keep_distance", "reroll": "lowest",
        "wound_order": ["attack", "speed", "defence"], "spread": False}}]


# --------------------------------------------------------------------------- Rom: an arena set


def _rom_arena_decision(web_sessions, web_config):
    """A Rom game in which ann may lay an arena set (buying arena cards on the way)."""
    for seed in range(12):
        rng = random.Random(seed)

        def choose(decision):
            options = decision.get("options") or []
            arena = [o for o in options if o["type"] in ("buy_arena_card", "buy_hidden_arena_card")]
            return arena[0] if arena else rng.choice(options) if options else decision["default"]

        game_id = bot_game(web_sessions, web_config, "rom", 3)
        found = drive_until(web_sessions, web_config, game_id, lambda d: d.get("command_type") == "submit_arena_set",
                            choose=choose)
        if found is not None:
            return game_id, found
    pytest.fail("no Rom game of twelve reached an arena set for seat 0")


def test_a_multi_select_with_limits_posts_the_cards_ticked(ann, web_sessions, web_config, monkeypatch):
    game_id, arena = _rom_arena_decision(web_sessions, web_config)
    hand = arena["schema"]["properties"]["cards"]["items"]["enum"]
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)
    form = decision_form(page, arena["id"])
    assert "<dt>Your hand</dt>" in page and "<dt>Suggested</dt>" in page, "the decision's context, in words"
    for card in hand:
        assert f'type="checkbox" name="arg.cards" value="&#34;{card}&#34;"' in form
    limits = arena["schema"]["properties"]["cards"]
    assert f"choose {limits['minItems']} to {limits['maxItems']}" in form
    log = CommandLog(monkeypatch)
    answer = _post_form(ann, game_id, page, arena, [("arg.cards", json.dumps(c)) for c in hand[:3]])
    assert answer.status_code in (303, 409), "laid, or refused by the rules with the reason"
    assert log.commands == [{"type": "submit_arena_set", "args": {"cards": hand[:3]}}]


# --------------------------------------------------------------------------- Spartacus: releases, gold, seats


def _spartacus_upkeep(web_sessions, web_config):
    """A Spartacus game in which ann settles her accounts (with gladiators to release)
    and may give gold; houses and answers are drawn at random until one gets there."""
    for seed in range(12):
        rng = random.Random(seed)
        game_id = bot_game(web_sessions, web_config, "spartacus", 3)
        found = drive_until(
            web_sessions, web_config, game_id,
            lambda d: d.get("command_type") == "settle_accounts"
            and any(d["schema"]["properties"]["release"]["items"]["enum"]),
            choose=lambda d: rng.choice(d["options"]) if d.get("options") else d["default"])
        give = [d for d in _all(web_sessions, game_id) if d.get("prompt_key") == "give_gold"] if found else []
        if give:
            return game_id, found, give[0]
    pytest.fail("no Spartacus game of twelve reached an upkeep with gladiators and gold")


def test_releases_gold_and_seat_choices_of_spartacus(ann, web_sessions, web_config, monkeypatch):
    game_id, accounts, give = _spartacus_upkeep(web_sessions, web_config)
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)

    release = decision_form(page, accounts["id"])
    schema = accounts["schema"]["properties"]["release"]
    for card in schema["items"]["enum"]:
        assert f'name="arg.release" value="&#34;{card}&#34;"' in release
    assert f"choose {schema['minItems']} to {schema['maxItems']}" in release

    gold = decision_form(page, give["id"])
    bounds = give["schema"]["properties"]["amount"]
    assert f'min="{bounds["minimum"]}"' in gold and f'max="{bounds["maximum"]}"' in gold
    assert f"from {bounds['minimum']} to {bounds['maximum']}" in gold, "the bounds are said, not only enforced"
    assert html.escape("Bot B") in gold, "a seat is chosen by its player's name"

    log = CommandLog(monkeypatch)
    _post_form(ann, game_id, page, give, [("arg.to", "1"), ("arg.amount", str(bounds["minimum"]))])
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)
    accounts = _decision(web_sessions, game_id, accounts["id"])
    _post_form(ann, game_id, page, accounts, [("arg.release", json.dumps(schema["items"]["enum"][0]))])
    assert log.commands == [
        {"type": "give_gold", "args": {"to": 1, "amount": bounds["minimum"]}},
        {"type": "settle_accounts", "args": {"release": [schema["items"]["enum"][0]]}},
    ]


def _all(web_sessions, game_id):
    with web_sessions() as s:
        return games.decisions_for(s, game_id, auth.get_or_create_user(s, "ann@example.org"))


# --------------------------------------------------------------------------- nested choices


NESTED = {
    "type": "object",
    "properties": {
        "bid": {"type": "object", "title": "Bid", "required": ["gold"], "properties": {
            "gold": {"type": "integer", "minimum": 0, "maximum": 9},
            "on": {"type": "string", "enum": ["i", "ii"]},
            "order": {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": True, "minItems": 2,
                      "maxItems": 2},
        }},
        "names": {"type": "array", "items": {"type": "string"}},
    },
}


def test_nested_choices_are_fieldsets_and_read_back_nested():
    fields = schema_forms.schema_fields(NESTED, {"bid": {"gold": 3, "order": ["b", "a"]}})
    bid = fields[0]
    assert bid["kind"] == "object" and [f["name"] for f in bid["fields"]] == ["bid.gold", "bid.on", "bid.order"]
    assert bid["fields"][0]["value"] == 3 and bid["fields"][2]["positions"] == ['"b"', '"a"']
    assert fields[1]["kind"] == "lines"
    form = MultiDict([("arg.bid.gold", "4"), ("arg.bid.on", '"ii"'), ("arg.bid.order.0", '"a"'),
                      ("arg.bid.order.1", '"b"'), ("arg.names", "Crixus\n  \nNaevia\n")])
    assert schema_forms.values_from_form(fields, form) == {
        "bid": {"gold": 4, "on": "ii", "order": ["a", "b"]}, "names": ["Crixus", "Naevia"]}
    shown = schema_forms.refill(fields, form)
    assert shown[0]["fields"][2]["positions"] == ['"a"', '"b"'] and shown[1]["value"] == "Crixus\n  \nNaevia\n"


# --------------------------------------------------------------------------- Spartacus: a trade between two players


def test_a_trade_offer_posts_partner_cards_and_gold(app, ann, web_sessions, web_config, monkeypatch):
    with web_sessions() as s:
        game = games.create_game(s, web_config, creator=user(s, "ann@example.org"), game_type="spartacus",
                                 options={}, seats=3, invites=["bob@example.org"], bot_seats=[2])
        games.join_game(s, web_config, game.id, user(s, "bob@example.org"))
        s.commit()
        game_id = game.id
    trade = None
    for _ in range(300):
        with web_sessions() as s:
            players = [auth.get_or_create_user(s, e) for e in ("ann@example.org", "bob@example.org")]
            trade = next((d for d in games.decisions_for(s, game_id, players[0])
                          if d.get("command_type") == "propose_trade"), None)
            if trade is not None:
                break
            # One answer at a time, so bob never hides his gold before ann may trade with him.
            owing = [(p, d) for p in players for d in games.decisions_for(s, game_id, p) if d["mode"] != "free"]
            assert owing, "the game waits for one of its players"
            player, decision = owing[0]
            games.submit_command(s, web_config, game_id, player, command_type=decision["default"]["type"],
                                 args=decision["default"]["args"], expected_version=None)
            s.commit()
    assert trade is not None, "the market opened with both players' gold on the table"
    props = trade["schema"]["properties"]
    page = ann.get(f"/games/{game_id}").get_data(as_text=True)
    form = decision_form(page, trade["id"])
    # by name and letter, or (a player without a name) by the seat's letter
    assert '<option value="1"' in form and (html.escape("(seat B)") in form or ">Seat B<" in form), \
        "the partner by name"
    mine = [c for c in props["give"]["items"]["enum"] if c]
    theirs = [c for c in props["take"]["items"]["enum"] if c]
    for card in mine:
        assert f'name="arg.give" value="&#34;{card}&#34;"' in form
    for card in theirs:
        assert f'name="arg.take" value="&#34;{card}&#34;"' in form
    assert 'name="arg.give" value="&#34;&#34;"' not in form, "no empty choice when there is nothing to give"
    assert f'min="{props["gold"]["minimum"]}"' in form and f'max="{props["gold"]["maximum"]}"' in form
    log = CommandLog(monkeypatch)
    fields = [("arg.to", "1"), ("arg.gold", "1")] + [("arg.give", json.dumps(c)) for c in mine[:1]] \
        + [("arg.take", json.dumps(c)) for c in theirs[:1]]
    _post_form(ann, game_id, page, trade, fields)
    assert log.commands == [{"type": "propose_trade", "args": {"to": 1, "give": mine[:1], "take": theirs[:1],
                                                              "gold": 1}}]


def test_a_decisions_context_shows_what_has_words_and_leaves_machine_tables_to_the_board(app):
    from service.web import pages

    context = {"dice": [2, 6], "placements": [{"track": "senate", "value": 6, "joins": False}],
               "suggested": {"type": "place_die", "args": {"value": 6, "track": "senate"}},
               "cards": [{"id": "R01", "name": "religio"}], "prices": {"1": 3}, "unnamed_key": 5,
               "default_plan": {"approach": "close"}}
    with app.test_request_context("/"):
        shown = dict(pages._context(context, "rom", {"R01": "Religion (religio)"}, "en"))
    assert shown == {"Dice": [2, 6], "Suggested": "Place a 6 on the senate track", "Cards": ["Religion (religio)"]}
