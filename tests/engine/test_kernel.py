"""The kernel: matching commands to decisions, chance as data, the schema subset."""

from __future__ import annotations

import random

import pytest

from engine.core import schema
from engine.core.chance import ChanceRequest, Dice, Pick, Shuffle, check_outcome, draw_outcome
from engine.core.errors import BadArguments, IllegalCommand, NoSuchDecision, NotYourDecision
from engine.core.game import forced_answer, match_decision
from engine.core.types import SYSTEM_SEAT, Command, Decision, Pending


def _choice(seat=0):
    options = (Command(seat, "pick", {"n": 1}), Command(seat, "pick", {"n": 2}))
    return Decision(id=f"d:{seat}", seat=seat, mode="turn", prompt="pick", options=options, default=options[0])


def _bid(seat=1):
    return Decision(id=f"bid:{seat}", seat=seat, mode="simultaneous", prompt="bid", command_type="bid",
                    schema={"type": "object", "required": ["amount"], "additionalProperties": False,
                            "properties": {"amount": {"type": "integer", "minimum": 0, "maximum": 9}}},
                    default=Command(seat, "bid", {"amount": 0}), group="auction")


class TestMatchDecision:
    def test_an_enumerated_option_matches_exactly(self):
        pending = Pending(decisions=(_choice(),))
        assert match_decision(pending, Command(0, "pick", {"n": 2})).id == "d:0"

    def test_an_answer_outside_the_options_is_illegal(self):
        with pytest.raises(IllegalCommand):
            match_decision(Pending(decisions=(_choice(),)), Command(0, "pick", {"n": 3}))

    def test_another_seats_decision_is_not_yours(self):
        with pytest.raises(NotYourDecision):
            match_decision(Pending(decisions=(_choice(0),)), Command(1, "pick", {"n": 1}))

    def test_an_unknown_command_type_has_no_decision(self):
        with pytest.raises(NoSuchDecision):
            match_decision(Pending(decisions=(_choice(),)), Command(0, "jump", {}))

    def test_schema_decisions_validate_their_arguments(self):
        pending = Pending(decisions=(_bid(),))
        assert match_decision(pending, Command(1, "bid", {"amount": 4})).id == "bid:1"
        with pytest.raises(BadArguments):
            match_decision(pending, Command(1, "bid", {"amount": 12}))
        with pytest.raises(BadArguments):
            match_decision(pending, Command(1, "bid", {"amount": 1, "extra": True}))

    def test_chance_blocks_players_and_only_the_system_resolves_it(self):
        pending = Pending(chance=ChanceRequest("c", {"deck": Shuffle(3)}))
        with pytest.raises(NotYourDecision):
            match_decision(pending, Command(0, "pick", {"n": 1}))
        assert match_decision(pending, Command(SYSTEM_SEAT, "resolve_chance", {})) is None
        with pytest.raises(NoSuchDecision):
            match_decision(Pending(), Command(SYSTEM_SEAT, "resolve_chance", {}))


class TestForcedAnswer:
    @staticmethod
    def _single(private):
        only = Command(0, "end_turn", {})
        return Decision(id="end:0", seat=0, mode="turn", prompt="end", options=(only,), default=only,
                        private=private)

    def test_a_single_public_option_is_the_forced_answer(self):
        assert forced_answer(self._single(private=False)) == Command(0, "end_turn", {})

    def test_a_single_private_option_is_still_asked(self):
        assert forced_answer(self._single(private=True)) is None

    def test_a_real_choice_is_asked(self):
        assert forced_answer(_choice()) is None

    def test_a_free_action_is_never_taken_for_anyone(self):
        withdraw = Command(0, "withdraw_trade", {"offer": 1})
        free = Decision(id="withdraw:1", seat=0, mode="free", prompt="withdraw", options=(withdraw,),
                        default=withdraw)
        assert forced_answer(free) is None

    def test_a_schema_decision_is_asked(self):
        assert forced_answer(_bid()) is None

    @staticmethod
    def _free(seat, private, options):
        return Decision(id=f"sell:{seat}", seat=seat, mode="free", prompt="sell", options=options,
                        default=options[0] if options else None, private=private)

    def test_a_lone_done_waits_while_its_seat_may_still_act_in_public(self):
        """An open market's "done" is the player's to say after selling or trading (a public
        free action of the same seat), not the server's at once."""
        sell = (Command(0, "sell_to_bank", {"card": "c1"}),)
        single = self._single(private=False)
        assert forced_answer(single, [single, self._free(0, False, sell)]) is None
        assert forced_answer(single, [single, self._free(1, False, sell)]) == Command(0, "end_turn", {})

    def test_a_private_free_action_does_not_hold_the_answer_back(self):
        """Whether a guard could be laid is the seat's secret: it must not decide the timing."""
        guard = (Command(0, "place_guard", {"card": "g1"}),)
        single = self._single(private=False)
        assert forced_answer(single, [single, self._free(0, True, guard)]) == Command(0, "end_turn", {})

    def test_everyone_may_see_whether_a_decision_is_private(self):
        decision = self._single(private=True)
        assert decision.to_json(with_options=False)["private"] is True
        assert _choice().to_json()["private"] is False


class TestChance:
    request = ChanceRequest("r", {"deck": Shuffle(6), "dice": Dice(3, 6), "who": Pick(4)})

    def test_draw_outcome_uses_only_the_given_randbelow(self):
        rng = random.Random(7)
        outcome = draw_outcome(self.request, rng.randrange)
        assert sorted(outcome["deck"]) == list(range(6))
        assert len(outcome["dice"]) == 3 and all(1 <= d <= 6 for d in outcome["dice"])
        assert 0 <= outcome["who"] < 4
        assert draw_outcome(self.request, random.Random(7).randrange) == outcome

    def test_check_outcome_accepts_a_true_outcome(self):
        outcome = {"deck": [5, 4, 3, 2, 1, 0], "dice": [1, 6, 3], "who": 3}
        assert check_outcome(self.request, outcome) == outcome

    @pytest.mark.parametrize("bad", [
        {"deck": [0, 1, 2, 3, 4, 4], "dice": [1, 1, 1], "who": 0},
        {"deck": [0, 1, 2, 3, 4, 5], "dice": [0, 1, 1], "who": 0},
        {"deck": [0, 1, 2, 3, 4, 5], "dice": [1, 1], "who": 0},
        {"deck": [0, 1, 2, 3, 4, 5], "dice": [1, 1, 1], "who": 4},
        {"deck": [0, 1, 2, 3, 4, 5], "dice": [1, 1, 1]},
        {"deck": [0, 1, 2, 3, 4, 5], "dice": [1, 1, 1], "who": True},
        "not a mapping",
    ])
    def test_check_outcome_refuses_forged_or_garbled_outcomes(self, bad):
        with pytest.raises(BadArguments):
            check_outcome(self.request, bad)

    def test_request_to_json_names_every_draw(self):
        data = self.request.to_json()
        assert data["draws"]["deck"] == {"kind": "shuffle", "n": 6}
        assert data["draws"]["who"] == {"kind": "pick", "n": 4}


class TestSchema:
    SCHEMA = {
        "type": "object", "additionalProperties": False, "required": ["n", "flag"],
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 5},
            "flag": {"type": "boolean"},
            "name": {"type": "string", "enum": ["a", "b"]},
            "cards": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True,
                      "items": {"type": "string", "enum": ["x", "y", "z"]}},
        },
    }

    def test_valid_values_pass(self):
        schema.validate(self.SCHEMA, {"n": 3, "flag": False, "name": "a", "cards": ["x", "z"]})

    @pytest.mark.parametrize("value", [
        {"flag": True},
        {"n": 0, "flag": True},
        {"n": 6, "flag": True},
        {"n": "3", "flag": True},
        {"n": True, "flag": True},
        {"n": 3, "flag": 1},
        {"n": 3, "flag": True, "name": "c"},
        {"n": 3, "flag": True, "cards": []},
        {"n": 3, "flag": True, "cards": ["x", "x"]},
        {"n": 3, "flag": True, "cards": ["x", "y", "z"]},
        {"n": 3, "flag": True, "other": 1},
        [1, 2],
    ])
    def test_invalid_values_are_refused(self, value):
        with pytest.raises(BadArguments):
            schema.validate(self.SCHEMA, value)

    def test_unsupported_keywords_are_a_programming_error(self):
        with pytest.raises(ValueError):
            schema.validate({"type": "integer", "multipleOf": 2}, 4)

    def test_samples_always_validate(self):
        rng = random.Random(3)
        for _ in range(200):
            schema.validate(self.SCHEMA, schema.sample(self.SCHEMA, rng))
