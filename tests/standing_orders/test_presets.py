"""Standing-order presets through the API (``POST /standing-orders/presets``), and what each
preset answers: only from what the table knows, with the decision's default."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import registry
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES as SPARTACUS
from engine.spartacus.game.state import Market
from service.play import presets, standing_orders
from tests.api.support import assert_error
from tests.notify import bell_game
from tests.spartacus_game.helpers import new_game, play
from tests.spartacus_game.test_rulebook_coverage import everyone


@pytest.fixture(autouse=True)
def bell(monkeypatch):
    monkeypatch.setitem(registry._GAMES, bell_game.NAME, "tests.notify.bell_game:RULES")


def _bell_game(ann, bob, rings=3) -> str:
    created = ann.post("games", json={"game_type": "bell", "seats": 2, "options": {"rings": rings},
                                      "invites": ["bob@example.org"]}, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    assert bob.post(f"games/{game_id}/join").status_code == 200
    return game_id


def _ring(ann, game_id) -> None:
    answer = ann.post(f"games/{game_id}/commands", json={"type": "ring", "args": {"loud": True}}, idempotent=True)
    assert answer.status_code == 200, answer.get_json()


def _window(bob, game_id):
    owed = [d for d in bob.get(f"games/{game_id}/decisions").get_json()["decisions"] if d["mode"] == "interrupt"]
    return owed[0] if owed else None


def test_a_preset_given_from_an_open_window_answers_it_and_the_windows_after_it(ann, bob):
    game_id = _bell_game(ann, bob)
    _ring(ann, game_id)
    window = _window(bob, game_id)
    given = bob.post("standing-orders/presets", json={"preset": "windows_like_this", "game_id": game_id,
                                                      "decision_id": window["id"]}, idempotent=True)
    assert given.status_code == 201, given.get_json()
    order = given.get_json()
    assert order["game_id"] == game_id and order["match"] == {"prompt_key": ["window"]}
    assert order["answer"] == [{"default": True}] and order["reads_hand"] is False and order["during"] is None
    assert _window(bob, game_id) is None, "the window it was given from is answered"
    _ring(ann, game_id)
    assert _window(bob, game_id) is None, "and the next one the moment it opens"
    assert bob.get(f"standing-orders/{order['id']}").get_json()["uses"] == 1
    unknown = bob.post("standing-orders/presets", json={"preset": "windows_like_this", "game_id": game_id,
                                                        "like": None}, idempotent=True)
    assert unknown.status_code == 422, "unknown fields are refused"
    assert ann.get("standing-orders").get_json()["standing_orders"] == [], "nobody else sees it"


def test_pass_this_phase_is_scoped_to_the_public_round_and_phase(ann, bob):
    game_id = _bell_game(ann, bob, rings=3)
    _ring(ann, game_id)
    given = bob.post("standing-orders/presets", json={"preset": "pass_this_phase", "game_id": game_id},
                     idempotent=True)
    assert given.status_code == 201 and given.get_json()["during"] == {"round": 1, "phase": "peal"}
    assert _window(bob, game_id) is None
    twice = bob.post("standing-orders/presets", json={"preset": "pass_this_phase", "game_id": game_id},
                     idempotent=True)
    assert twice.status_code == 201 and twice.get_json()["id"] == given.get_json()["id"], \
        "the same click twice gives one order"
    _ring(ann, game_id)
    assert _window(bob, game_id) is None  # ring 2: round 1 still
    _ring(ann, game_id)
    assert _window(bob, game_id) is not None  # ring 3: round 2, Bob is asked again


def test_presets_refuse_what_does_not_fit(ann, bob, make_client):
    game_id = _bell_game(ann, bob)
    _ring(ann, game_id)
    window = _window(bob, game_id)
    assert_error(bob.post("standing-orders/presets", json={"preset": "always", "game_id": game_id},
                          idempotent=True), 422)
    assert_error(bob.post("standing-orders/presets", json={"preset": "bid_zero_unless", "game_id": game_id,
                                                           "lot_types": ["chariot"]}, idempotent=True), 422)
    for spartacus_only in ("windows_not_about_me", "defend_me"):
        assert_error(bob.post("standing-orders/presets", json={"preset": spartacus_only, "game_id": game_id},
                              idempotent=True), 422, "invalid_preset")
    cat = make_client("cat")
    assert_error(cat.post("standing-orders/presets", json={"preset": "pass_this_phase", "game_id": game_id},
                          idempotent=True), 403, "not_seated")
    assert_error(bob.post("standing-orders/presets", json={"preset": "pass_this_phase", "game_id": "nope"},
                          idempotent=True), 404)
    bob.post(f"games/{game_id}/commands", json={"type": "pass", "args": {}}, idempotent=True)
    assert_error(bob.post("standing-orders/presets", json={"preset": "windows_like_this", "game_id": game_id,
                                                           "decision_id": window["id"]}, idempotent=True),
                 409, "decision_closed")
    assert bob.get("standing-orders").get_json()["standing_orders"] == []


def test_a_patch_keeps_the_phase_of_an_order(ann, bob):
    game_id = _bell_game(ann, bob)
    _ring(ann, game_id)
    order = bob.post("standing-orders/presets", json={"preset": "pass_this_phase", "game_id": game_id},
                     idempotent=True).get_json()
    patched = bob.request("PATCH", f"standing-orders/{order['id']}", json={"answer": {"type": "pass"}})
    assert patched.status_code == 200 and patched.get_json()["during"] == order["during"]


# --------------------------------------------------------------------------- what presets answer


def _auction():
    s = everyone(new_game(4), "market_open")
    s = start(replace(s, market=Market()))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    return s


def _bid_decision(s, seat=1):
    (d,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == seat]
    return d


def test_bid_zero_unless_bids_0_on_other_lots_and_leaves_the_wanted_ones_to_the_player():
    s = _auction()
    decision = _bid_decision(s)
    lot_type = decision.prompt_args["card_type"]
    assert lot_type == s.cards.market_card(s.market.auction.lot).kind, "the lot's type is public"
    others = [t for t in ("gladiator", "slave", "weapon") if t != lot_type]
    skip = standing_orders.check_rule(presets.rule_for("bid_zero_unless", None, None, others))
    keep = standing_orders.check_rule(presets.rule_for("bid_zero_unless", None, None, [lot_type]))
    assert standing_orders.answer_for(skip, decision).to_json() == {"seat": 1, "type": "place_bid", "args": {"amount": 0}}
    assert standing_orders.answer_for(keep, decision) is None
    everything = standing_orders.check_rule(presets.rule_for("bid_zero_unless", None, None, []))
    assert standing_orders.answer_for(everything, decision) is not None


def test_a_window_preset_answers_the_same_whatever_the_hand():
    """A window's options are the hand (private): the presets answer it from the table alone,
    so the same window with a foil in hand or without gets the same answer at the same moment."""
    from tests.spartacus_game.test_windows import JOHN, PETE, SALLY, answer, table

    decisions = []
    for johns_hand in (("labor_contract#3",), ("whispered_rumours#1",)):
        s = table(new_game(4), SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)), p2=dict(hand=johns_hand))
        s, _ = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
        (decision,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == JOHN]
        assert decision.private and decision.mode == "interrupt"
        decisions.append((s, decision))
    assert len(decisions[0][1].options) != len(decisions[1][1].options), "the hands differ in what they allow"
    for key in ("windows_like_this", "pass_this_phase"):
        answers = []
        for s, decision in decisions:
            phase = standing_orders.phase_key(SPARTACUS, s)
            rule = standing_orders.check_rule(presets.rule_for(key, presets.like_of(decision), phase))
            answers.append(standing_orders.answer_for(rule, decision, lambda: phase))
        assert answers[0] == answers[1] == decisions[0][1].default, key


def test_defend_me_answers_every_scheme_against_me_at_once_guard_else_foil_else_pass():
    """The second recommended order reads its owner's hand to choose what to play, but it
    answers every scheme that names its owner, whatever the hand: a guard first, else a foil,
    else a pass.  It leaves windows about somebody else to their player."""
    from tests.spartacus_game.helpers import assets
    from tests.spartacus_game.test_windows import JOHN, LIZ, PETE, SALLY, answer, table

    rule = standing_orders.check_rule(presets.rule_for("defend_me", None, None))
    assert rule["reads_hand"] is True
    hands = {"guard on the table": dict(hand=("labor_contract#3",), assets=assets(("guard#8", "guard"))),
             "guard in hand": dict(hand=("guard#9", "whispered_rumours#1")),
             "foil": dict(hand=("whispered_rumours#1",)),
             "nothing": dict(hand=("labor_contract#3",))}
    expected = {"guard on the table": ("use_guard", "guard#8"), "guard in hand": ("use_guard", "guard#9"),
                "foil": ("play_reaction", "whispered_rumours#1"), "nothing": ("pass_reaction", None)}
    for name, petes in hands.items():
        s = table(new_game(4), SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)), p0=petes)
        s, _ = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
        for seat in (JOHN, LIZ):
            (other,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == seat]
            assert standing_orders.answer_for(rule, other) is None, "a window about somebody else"
            s, _ = answer(s, seat)
        (mine,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == PETE]
        command = standing_orders.answer_for(rule, mine)
        assert command is not None, name
        assert (command.type, command.args.get("card")) == expected[name], name


def test_defend_me_is_offered_under_a_scheme_that_names_its_player_only(app):
    """The window's mail and the game page offer "Defend me" to the scheme's target (whom the
    scheme names aloud), and not to the others asked in the same window."""
    from service.notify.notifications import _presets_offered
    from service.web.pages import _decision_form
    from tests.spartacus_game.test_windows import JOHN, PETE, SALLY, answer, table

    s = table(new_game(4), SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)))
    s, _ = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    s, _ = answer(s, JOHN)
    s, _ = answer(s, 3)
    (petes,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == PETE]
    assert presets.about_me(petes) and presets.about_me(petes.to_json())
    phase = standing_orders.phase_key(SPARTACUS, s)
    assert _presets_offered(petes, lambda: phase)["keys"] == ["windows_like_this", "pass_this_phase", "defend_me"]
    with app.test_request_context():
        shown = _decision_form(petes.to_json(), "spartacus", {}, {}, "en", "UTC", phased=True)
    assert [p["key"] for p in shown["presets"]] == ["windows_like_this", "pass_this_phase", "defend_me"]
    assert shown["presets"][-1]["label"] == "Defend me when a scheme names me"

    s = table(new_game(4), SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)))
    s, _ = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    (johns,) = [d for d in SPARTACUS.pending(s).blocking if d.seat == JOHN]
    assert not presets.about_me(johns)
    assert "defend_me" not in _presets_offered(johns, lambda: phase)["keys"]
    assert presets.presets_for("interrupt", "react_reaction", True) == presets.WINDOW_PRESETS
