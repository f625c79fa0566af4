"""Rom rules and readings that no other test covered (see docs/rules-coverage-rom.md)."""

from __future__ import annotations

from dataclasses import replace

from rom_support import RED, Group, act, placement_state, settle

from engine.rom.rules import RULES


def test_a_ninth_province_still_gets_its_arch():
    """Spielmaterial: "32 Säulenbogen Spielsteine: 8 pro Spielerfarbe" -- a component count,
    not a rule: "Nachdem er eine Provinz erobert hat, setzt der Spieler einen seiner Säulenbögen
    in die entsprechende Provinz" (Militärleiste).  Capua sets no limit of 8, so a ninth
    conquest is marked on the map like any other."""
    eight = ("latium", "sicilia", "gallia_cisalpina", "gallia_narbonensis", "gallia_comata", "epirus",
             "macedonia", "thracia")
    state = placement_state(seats=4, p0={"provinces": eight})
    players = tuple(replace(p, unplaced=()) for p in state.players)
    state = replace(state, players=players, phase="resolution", turn_seat=None,
                    province_row=("numidia", "mauretania"),
                    tracks=((Group(RED, (6, 6)),), (), (Group(3, (6,)),)), arena_row=("wolf_2",))
    state = settle(state)
    state, _ = act(state, RED, "conquer_provinces", provinces=["numidia"])
    assert len(state.player(RED).provinces) == 9
    assert RULES.view(state, None)["map"]["numidia"] == RED
