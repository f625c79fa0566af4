"""The standing-order rule format: what is refused, and which decisions a rule answers."""

from __future__ import annotations

import pytest

from engine.core.types import Command, Decision
from service.play.standing_orders import answer_for, check_rule
from service.plumbing.errors import InvalidInput


def react(seat: int, target: int | None, *, guard: bool = False) -> Decision:
    """A Spartacus-like reaction window on a scheme against ``target``."""
    passing = Command(seat, "pass_reaction", {})
    options = [passing, Command(seat, "play_reaction", {"card": "spy", "target": 2})]
    if guard:
        options.append(Command(seat, "use_guard", {"card": "guard1"}))
    args = {"window": "w1", "moment": "scheme"}
    if target is not None:
        args["target"] = target
    return Decision(id=f"react:w1:{seat}", seat=seat, mode="interrupt", prompt="React or pass.", default=passing,
                    options=tuple(options), prompt_key="react_scheme", prompt_args=args)


def support(seat: int) -> Decision:
    refuse = Command(seat, "refuse_support", {})
    return Decision(id=f"support:{seat}", seat=seat, mode="interrupt", prompt="Support?", default=refuse,
                    options=(Command(seat, "grant_support", {}), refuse), prompt_key="support",
                    prompt_args={"asker": 0})


def bid(seat: int, room: int) -> Decision:
    return Decision(id=f"bid:{seat}", seat=seat, mode="simultaneous", prompt="Bid in secret.",
                    default=Command(seat, "place_bid", {"amount": 0}), command_type="place_bid",
                    schema={"type": "object", "additionalProperties": False, "required": ["amount"],
                            "properties": {"amount": {"type": "integer", "minimum": 0, "maximum": room}}},
                    prompt_key="bid", prompt_args={"card": "m7", "round": 1})


PASS_UNLESS_TARGET = check_rule({"match": {"prompt_key": ["react_scheme", "react_reaction"]},
                                 "unless": [{"path": "prompt_args.target", "eq": "$me"}],
                                 "answer": {"type": "pass_reaction"}})


def test_pass_on_reactions_unless_i_am_the_target():
    assert answer_for(PASS_UNLESS_TARGET, react(1, target=2)) == Command(1, "pass_reaction", {})
    assert answer_for(PASS_UNLESS_TARGET, react(2, target=2)) is None
    # A window that does not say who is targeted cannot be judged: the player decides.
    assert answer_for(PASS_UNLESS_TARGET, react(1, target=None)) is None


def test_never_support_schemes_and_bid_zero():
    never = check_rule({"match": {"prompt_key": "support"}, "answer": {"type": "refuse_support"}})
    assert answer_for(never, support(3)) == Command(3, "refuse_support", {})
    zero = check_rule({"match": {"command_type": "place_bid", "mode": "simultaneous"},
                       "answer": {"type": "place_bid", "args": {"amount": 0}}})
    assert answer_for(zero, bid(1, room=9)) == Command(1, "place_bid", {"amount": 0})
    assert answer_for(zero, react(1, target=2)) is None


def test_answers_are_tried_in_order_and_must_be_legal():
    rule = check_rule({"match": {"mode": "interrupt"},
                       "answer": [{"type": "use_guard"}, {"type": "play_reaction", "args": {"target": "$me"}},
                                  {"default": True}]})
    assert answer_for(rule, react(2, target=2, guard=True)) == Command(2, "use_guard", {"card": "guard1"})
    assert answer_for(rule, react(2, target=2)) == Command(2, "play_reaction", {"card": "spy", "target": 2})
    assert answer_for(rule, react(1, target=1)) == Command(1, "pass_reaction", {})
    too_much = check_rule({"match": {"prompt_key": "bid"}, "answer": {"type": "place_bid", "args": {"amount": 5}}})
    assert answer_for(too_much, bid(0, room=9)) == Command(0, "place_bid", {"amount": 5})
    assert answer_for(too_much, bid(0, room=3)) is None


def test_conditions():
    rule = check_rule({"match": {"prompt_key": "bid"},
                       "if": [{"path": "prompt_args.round", "lte": 2}, {"path": "prompt_args.card", "in": ["m7", "m8"]},
                              {"has_option": "place_bid"}, {"path": "context.missing", "exists": False}],
                       "answer": {"default": True}})
    assert answer_for(rule, bid(0, 4)) == Command(0, "place_bid", {"amount": 0})
    guarded = check_rule({"match": {"mode": "interrupt"}, "if": [{"has_option": "use_guard"}],
                          "answer": {"type": "use_guard"}})
    assert answer_for(guarded, react(2, 2, guard=True)) is not None
    assert answer_for(guarded, react(2, 2)) is None


@pytest.mark.parametrize("rule, where", [
    ("pass", "rule"),
    ({"answer": {"default": True}}, "match"),
    ({"match": {}, "answer": {"default": True}}, "match"),
    ({"match": {"mode": "free"}, "answer": {"default": True}}, "match.mode"),
    ({"match": {"colour": "red"}, "answer": {"default": True}}, "match.colour"),
    ({"match": {"prompt_key": "bid"}}, "answer"),
    ({"match": {"prompt_key": "bid"}, "answer": []}, "answer"),
    ({"match": {"prompt_key": "bid"}, "answer": {"default": False}}, "answer[0]"),
    ({"match": {"prompt_key": "bid"}, "answer": {"type": 3}}, "answer[0].type"),
    ({"match": {"prompt_key": "bid"}, "answer": {"type": "x", "args": [1]}}, "answer[0].args"),
    ({"match": {"prompt_key": "bid"}, "if": [{"path": "state.gold", "eq": 1}], "answer": {"default": True}},
     "if[0].path"),
    ({"match": {"prompt_key": "bid"}, "if": [{"path": "prompt_args.x", "like": 1}], "answer": {"default": True}},
     "if[0]"),
    ({"match": {"prompt_key": "bid"}, "unless": [{"path": "prompt_args.x", "gt": "ten"}], "answer": {"default": True}},
     "unless[0].gt"),
    ({"match": {"prompt_key": "bid"}, "when": "always", "answer": {"default": True}}, "when"),
])
def test_malformed_rules_are_refused_with_details(rule, where):
    with pytest.raises(InvalidInput) as refused:
        check_rule(rule)
    assert refused.value.status == 422 and refused.value.code == "invalid_standing_order"
    assert where in refused.value.details["fields"], refused.value.details


def window(seat: int, target: int, *, guard: bool) -> Decision:
    """A reaction window as the games ask it: private, since its options are the cards one holds."""
    from dataclasses import replace

    return replace(react(seat, target, guard=guard), private=True)


GUARD_OR_PASS = {"match": {"mode": "interrupt"}, "answer": [{"type": "use_guard"}, {"type": "pass_reaction"}]}


def test_an_order_that_does_not_read_the_hand_answers_a_window_the_same_whatever_it_holds():
    rule = check_rule(GUARD_OR_PASS)
    assert answer_for(rule, window(2, 2, guard=True)) is None, "its first answer needs a card: left to the player"
    assert answer_for(rule, window(2, 2, guard=False)) is None, "...whether or not the player holds one"
    passing = check_rule({"match": {"mode": "interrupt"}, "answer": {"type": "pass_reaction"}})
    assert answer_for(passing, window(2, 2, guard=True)) == answer_for(passing, window(2, 2, guard=False)) \
        == Command(2, "pass_reaction", {})
    assert answer_for(PASS_UNLESS_TARGET, window(1, 2, guard=True)) == Command(1, "pass_reaction", {})


@pytest.mark.parametrize("condition", [{"has_option": "use_guard"}, {"path": "context.hand", "exists": True}])
def test_conditions_on_the_hand_keep_a_blind_order_quiet(condition):
    rule = check_rule({"match": {"mode": "interrupt"}, "unless": [condition], "answer": {"type": "pass_reaction"}})
    assert answer_for(rule, window(1, 2, guard=False)) is None
    assert answer_for(rule, react(1, 2, guard=False)) == Command(1, "pass_reaction", {}), \
        "a decision whose options are public may be judged by them"


def test_an_order_that_asks_to_read_the_hand_may():
    rule = check_rule({**GUARD_OR_PASS, "reads_hand": True})
    assert rule["reads_hand"] is True
    assert answer_for(rule, window(2, 2, guard=True)) == Command(2, "use_guard", {"card": "guard1"})
    assert answer_for(rule, window(2, 2, guard=False)) == Command(2, "pass_reaction", {})
    with pytest.raises(InvalidInput) as err:
        check_rule({**GUARD_OR_PASS, "reads_hand": "yes"})
    assert "reads_hand" in err.value.details["fields"]
