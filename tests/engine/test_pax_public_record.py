"""What the table can work out: every player's aurei and hand size follow from public events.

Rulebook, Vorbereitung: "Alle Karten (Besitzkarten und Geld) werden auf der Hand gehalten, ohne
sie den anderen Spielern zu zeigen, oder Auskunft über die Anzahl zu geben."  Capua shows
neither, but every payment and income is fixed by the printed rules and by public cards, so an
attentive player -- or a spectator -- can count along, as at the table.  ``docs/pax.md`` says
so; this test keeps it true: a spectator's events alone rebuild every seat's aurei and hand
size after every step of whole games.
"""

from __future__ import annotations

import random

import pytest

from engine.core.playout import play_out
from engine.core.types import SPECTATOR
from engine.pax.rules import RULES

PEEK_AUREI = 2        # "Er erhält 2 Aurei" (Spielverlauf)
EMPTY_DECK_AUREI = 2  # "erhalten ... vor ihren Aktionen 2 Aurei aus der Bank" (Spielende)
BASE_INCOME = 2       # "erhält er 2 Aurei als Basiseinkommen" (Karten auslegen + Einkommen)
INTERRUPT_COST = 1    # "zum festen Preis von einem Aureus" (5-8 Spieler)


class CountingAlong:
    """A spectator counting aurei and hand cards from the public record, by the printed rules."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.gold: list[int] = []
        self.hand: list[int] = []
        self.tableau: list[list[dict]] = []
        self.laid_this_turn: list[dict] = []

    def wealth(self, seat: int) -> int:
        return sum(c["symbols"] for c in self.tableau[seat] if c["category"] == "wealth")

    def income(self, seat: int) -> int:
        """"so viele Aurei ..., wie Karten in seiner längsten Kategorie ausliegen, die er gerade
        verlängert hat (Ausnahme: Senator und Intrige)"; a senator adds 1; an intrigue: none."""
        laid = self.laid_this_turn
        if not laid:
            return BASE_INCOME
        if any(c["category"] == "intrigue" for c in laid):
            return 0
        rows = {c["category"] for c in laid} - {"senator", "intrigue"}
        longest = max((sum(1 for c in self.tableau[seat] if c["category"] == row) for row in rows), default=0)
        return longest + (1 if any(c["category"] == "senator" for c in laid) else 0)

    def see(self, event: dict) -> None:
        kind = event["type"]
        if kind == "GameSetUp":
            self.gold = [event["start_aurei"]] * self.seats
            self.hand = [0] * self.seats
            self.tableau = [[] for _ in range(self.seats)]
        elif kind == "StartCardsKept":
            for entry in event["entries"]:
                self.hand[entry["seat"]] = 1  # "behalten jeweils eine davon"
        elif kind == "TurnStarted":
            self.laid_this_turn = []
        elif kind == "RomePeeked":
            self.gold[event["seat"]] += PEEK_AUREI
        elif kind == "DeckExhaustedAureiTaken":
            self.gold[event["seat"]] += EMPTY_DECK_AUREI
        elif kind == "CardAssigned" and event["to"] == "hand":
            self.hand[event["seat"]] += 1
        elif kind == "LegionBought":
            # "Er zahlt den Preis dieser Karten (die Summe aller aufgedruckten Aurei)", less 1 per
            # 3 wealth symbols.
            seat = event["seat"]
            price = sum(c["price"] for c in event["cards"])
            self.gold[seat] -= max(0, price - self.wealth(seat) // 3)
            self.hand[seat] += len(event["cards"])
        elif kind == "CardLaid":
            seat, card = event["seat"], event["card"]
            if event["during"] == "turn":
                self.gold[seat] -= len(self.laid_this_turn)  # "die erste Karte ist kostenlos, die zweite 1 ..."
                self.laid_this_turn.append(card)
                self.hand[seat] -= 1
            elif event["during"] == "interrupt":
                self.gold[seat] -= INTERRUPT_COST
                self.hand[seat] -= 1
            self.tableau[seat].append(card)
        elif kind == "IncomeTaken":
            self.gold[event["seat"]] += self.income(event["seat"])


@pytest.mark.parametrize("seats,options,seed", [
    (2, {}, 0), (2, {}, 1), (3, {}, 2), (4, {}, 3), (4, {}, 4), (5, {}, 5), (6, {}, 6),
    (1, {"solo_level": 1}, 7), (1, {"solo_level": 4}, 8),
])
def test_a_spectator_can_count_every_players_aurei_and_hand_size(seats, options, seed):
    counter = CountingAlong(seats)
    checked = []

    def on_step(state, command, events):
        for event in events:
            seen = RULES.visible(event, SPECTATOR)
            if seen is not None:
                counter.see(seen)
        if counter.gold:
            assert counter.gold == list(state.gold), (command, events)
            assert counter.hand == [len(h) for h in state.hands], (command, events)
            checked.append(state.turn)

    play_out(RULES, RULES.initial_state(seats, options), random.Random(seed), on_step=on_step)
    assert len(checked) > 20


def test_the_spectator_view_shows_no_aurei_and_no_hand_size():
    """Counting along is the table's own work: the view itself shows neither."""
    state, _ = play_out(RULES, RULES.initial_state(3, {}), random.Random(11))
    players = RULES.view(state, SPECTATOR)["players"]
    assert all("gold" not in p and "hand" not in p and "hand_size" not in p for p in players)
    assert RULES.view(state, SPECTATOR)["me"] is None
