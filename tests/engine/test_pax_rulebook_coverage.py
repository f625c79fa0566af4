"""Rules of the PAX rulebook that no other test covered (see docs/rules-coverage-pax.md)."""

from __future__ import annotations

from engine.core.types import SYSTEM_SEAT, Command
from engine.pax.rules import RULES
from pax_builders import card, cmd, only, play, table, types


def _set_up(seats, start):
    state = RULES.initial_state(seats, {})
    request = RULES.pending(state).chance
    outcome = {"deck": list(range(request.draws["deck"].n)), "start": start}
    state, _ = play(state, Command(SYSTEM_SEAT, "resolve_chance", {"id": request.id, "outcome": outcome}))
    return state


def test_after_the_start_hands_a_card_lies_face_up_under_every_legion_and_the_start_player_begins():
    """Vorbereitung: "Unterhalb jeder Legionskarte wird eine vom Stapel gezogene Besitzkarte
    offen abgelegt. Der Startspieler beginnt das Spiel." """
    state = _set_up(3, start=2)
    assert all(legion == () for legion in state.legions)
    events = []
    for decision in RULES.pending(state).decisions:
        state, more = play(state, decision.default)
        events += more
    refilled = only(events, "LegionsRefilled")[0]
    assert [len(legion) for legion in state.legions] == [1, 1, 1, 1]
    assert [entry["legion"] for entry in refilled.data["cards"]] == [1, 2, 3, 4]
    # face up: every viewer, spectators too, sees the cards
    assert RULES.visible(refilled, None)["cards"] == refilled.data["cards"]
    assert types(events)[-4:] == ["StartCardsKept", "RoundStarted", "LegionsRefilled", "TurnStarted"]
    assert only(events, "TurnStarted")[0].data["seat"] == 2 and state.active_seat == 2


def test_the_bank_never_runs_out_of_aurei():
    """Vorbereitung: "Die Aurei werden nach Werten sortiert als Bank bereitgelegt." The box holds
    35 aurei, but the rulebook makes no rule of running short: Capua's bank pays every income."""
    state = table(2, step="lay", gold=(40, 40), hands=[(card("wealth"),), ()])
    state, events = play(state, cmd(0, "take_income"))
    assert only(events, "IncomeTaken")[0].data["aurei"] == 2 and state.gold[0] == 42
