"""Count: a tiny game with every feature of the kernel the service relies on.

Setup deals each seat a secret number (a chance step).  Each round a die is rolled into
the total (chance again), then every seat secretly adds 1 to 3 (a simultaneous decision);
the additions are revealed together once all are in.  Adding 3 in the first round is
refused by ``decide`` (a rule the schema cannot express, so bots sometimes break it).
Any seat may wave at any time (a free action).  When the total reaches the target the
holder of the highest secret wins.  Secrets are rendered as ``"S<seat>:<value>"`` so a
test can grep any output for another seat's secret.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional

from engine.core.chance import RESOLVE_CHANCE, ChanceRequest, Dice, Pick, check_outcome
from engine.core.errors import BadArguments, IllegalCommand
from engine.core.types import Command, Decision, Event, Outcome, Pending, Viewer

NAME = "count"


@dataclass(frozen=True)
class CountState:
    seats: int
    target: int
    secrets: Optional[tuple[int, ...]] = None
    round: int = 1
    rolled: bool = False
    choices: tuple[Optional[int], ...] = ()
    total: int = 0
    waves: int = 0
    winner: Optional[int] = None


def secret_token(seat: int, value: int) -> str:
    return f"S{seat}:{value}"


class CountRules:
    name = NAME
    title = "Count to N"
    rules_version = "1"

    def options_schema(self) -> Mapping[str, Any]:
        return {
            "type": "object",
            "properties": {"target": {"type": "integer", "minimum": 1, "maximum": 1_000_000, "default": 10}},
            "additionalProperties": False,
        }

    def seat_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (1, 2, 3, 4)

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> CountState:
        return CountState(seats=seats, target=options.get("target", 10), choices=(None,) * seats)

    def pending(self, state: CountState) -> Pending:
        if state.winner is not None:
            return Pending()
        if state.secrets is None:
            return Pending(chance=ChanceRequest("deal", {f"seat{s}": Pick(1000) for s in range(state.seats)},
                                                "deal the secrets"))
        if not state.rolled:
            return Pending(chance=ChanceRequest(f"roll:{state.round}", {"die": Dice(1)}, "roll the die"))
        decisions = []
        for s in range(state.seats):
            if state.choices[s] is None:
                decisions.append(Decision(
                    id=f"add:{state.round}:{s}", seat=s, mode="simultaneous", prompt="How much do you add?",
                    default=Command(s, "add", {"n": 1}), command_type="add",
                    schema={"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 3}},
                            "required": ["n"], "additionalProperties": False},
                    group=f"add:{state.round}",
                ))
            decisions.append(Decision(id=f"wave:{s}", seat=s, mode="free", prompt="Wave at the table",
                                      default=Command(s, "wave", {}), options=(Command(s, "wave", {}),)))
        return Pending(decisions=tuple(decisions))

    def decide(self, state: CountState, command: Command) -> list[Event]:
        if command.type == RESOLVE_CHANCE:
            request = self.pending(state).chance
            if command.args.get("id") != request.id:
                raise BadArguments(f"chance {command.args.get('id')!r} is not pending")
            outcome = check_outcome(request, command.args.get("outcome"))
            if request.id == "deal":
                return [Event("SecretsDealt", {"secrets": [outcome[f"seat{s}"] for s in range(state.seats)]})]
            return [Event("DieRolled", {"round": state.round, "value": outcome["die"][0]})]
        if command.type == "wave":
            return [Event("Waved", {"seat": command.seat})]
        if command.type == "add":
            n = command.args["n"]
            if state.round == 1 and n == 3:
                raise IllegalCommand("nobody adds 3 in the first round", code="no_three_first")
            events = [Event("AmountChosen", {"seat": command.seat, "round": state.round, "n": n})]
            choices = list(state.choices)
            choices[command.seat] = n
            if all(c is not None for c in choices):
                total = state.total + sum(choices)
                events.append(Event("RoundScored", {"round": state.round, "choices": choices, "total": total}))
                if total >= state.target:
                    best = max(range(state.seats), key=lambda s: (state.secrets[s], -s))
                    events.append(Event("GameEnded", {"winner": best}))
            return events
        raise IllegalCommand(f"unknown command {command.type}")

    def apply(self, state: CountState, event: Event) -> CountState:
        d = event.data
        if event.type == "SecretsDealt":
            return replace(state, secrets=tuple(d["secrets"]))
        if event.type == "DieRolled":
            return replace(state, rolled=True, total=state.total + d["value"])
        if event.type == "Waved":
            return replace(state, waves=state.waves + 1)
        if event.type == "AmountChosen":
            choices = list(state.choices)
            choices[d["seat"]] = d["n"]
            return replace(state, choices=tuple(choices))
        if event.type == "RoundScored":
            return replace(state, total=d["total"], round=state.round + 1, rolled=False,
                           choices=(None,) * state.seats)
        if event.type == "GameEnded":
            return replace(state, winner=d["winner"])
        return state

    def view(self, state: CountState, viewer: Viewer) -> dict:
        seated = viewer is not None and 0 <= viewer < state.seats
        return {
            "round": state.round,
            "target": state.target,
            "total": state.total,
            "waves": state.waves,
            "chosen": [c is not None for c in state.choices],
            "my_secret": secret_token(viewer, state.secrets[viewer]) if seated and state.secrets else None,
            "my_choice": state.choices[viewer] if seated else None,
            "winner": state.winner,
        }

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        d = event.data
        if event.type == "SecretsDealt":
            if viewer is None:
                return {}
            return {"my_secret": secret_token(viewer, d["secrets"][viewer])}
        if event.type == "AmountChosen":
            shown = {"seat": d["seat"], "round": d["round"]}
            if viewer == d["seat"]:
                shown["n"] = d["n"]
            return shown
        if event.type == "Waved" and viewer is None:
            return None  # spectators do not see the table chatter
        return dict(d)

    def outcome(self, state: CountState) -> Optional[Outcome]:
        if state.winner is None:
            return None
        ranking = tuple(sorted(range(state.seats), key=lambda s: (-state.secrets[s], s)))
        return Outcome(winners=(state.winner,), ranking=ranking)


RULES = CountRules()
