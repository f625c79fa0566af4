"""The server answers a human's decision by itself only when anyone could work the answer out.

A toll booth: each round the keeper (seat 0) must collect the toll -- one option that follows
from the table -- and then the traveller (seat 1) shows a coin from a purse only he sees.
With one coin left he has one option, but it follows from his purse: the decision is
private and must still be asked, or the table would learn that his purse holds one coin.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional

from engine.core.types import Command, Decision, Event, Outcome, Pending, Viewer
from service.play import bots


@dataclass(frozen=True)
class TollState:
    purse: tuple[int, ...]
    collected: bool = False
    shown: tuple[int, ...] = ()


class TollRules:
    name = "toll"
    title = "Toll booth"
    rules_version = "1"

    def options_schema(self) -> Mapping[str, Any]:
        return {"type": "object"}

    def seat_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (2,)

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> TollState:
        return TollState(purse=tuple(options["purse"]))

    def pending(self, state: TollState) -> Pending:
        if not state.purse:
            return Pending()
        if not state.collected:
            collect = Command(0, "collect", {})
            return Pending(decisions=(Decision(id=f"collect:{len(state.shown)}", seat=0, mode="turn",
                                               prompt="Collect the toll", default=collect, options=(collect,)),))
        coins = tuple(Command(1, "show", {"coin": c}) for c in sorted(set(state.purse)))
        return Pending(decisions=(Decision(id=f"show:{len(state.shown)}", seat=1, mode="turn",
                                           prompt="Show a coin", default=coins[0], options=coins, private=True),))

    def decide(self, state: TollState, command: Command) -> list[Event]:
        if command.type == "collect":
            return [Event("TollCollected")]
        return [Event("CoinShown", {"coin": command.args["coin"]})]

    def apply(self, state: TollState, event: Event) -> TollState:
        if event.type == "TollCollected":
            return replace(state, collected=True)
        purse = list(state.purse)
        purse.remove(event.data["coin"])
        return replace(state, purse=tuple(purse), collected=False, shown=state.shown + (event.data["coin"],))

    def view(self, state: TollState, viewer: Viewer) -> dict:
        return {"shown": list(state.shown)}

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        return dict(event.data)

    def outcome(self, state: TollState) -> Optional[Outcome]:
        return None if state.purse else Outcome(winners=(0,))


RULES = TollRules()


def test_a_single_answer_that_follows_from_the_table_is_given_at_once():
    state, events = bots.autoplay(RULES, RULES.initial_state(2, {"purse": [5, 7]}), set())
    assert [e.type for e in events] == ["TollCollected"]
    assert [d.id for d in RULES.pending(state).blocking] == ["show:0"]


def test_a_private_decision_with_one_option_is_still_asked():
    state, events = bots.autoplay(RULES, RULES.initial_state(2, {"purse": [5]}), set())
    assert [e.type for e in events] == ["TollCollected"]
    (asked,) = RULES.pending(state).blocking
    assert asked.private and len(asked.options) == 1


def test_what_the_server_does_by_itself_does_not_depend_on_the_purse():
    one = bots.autoplay(RULES, RULES.initial_state(2, {"purse": [5]}), set())
    two = bots.autoplay(RULES, RULES.initial_state(2, {"purse": [5, 7]}), set())
    assert [e.to_json() for e in one[1]] == [e.to_json() for e in two[1]]
    assert [(d.id, d.seat) for d in RULES.pending(one[0]).blocking] == [
        (d.id, d.seat) for d in RULES.pending(two[0]).blocking]
