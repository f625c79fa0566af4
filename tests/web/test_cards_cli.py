"""``capua cards list GAME``: every card of a game's set, as a table or JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from service.cli import cli


@pytest.mark.parametrize("game,total", [("pax", 74), ("spartacus", 4 + 62 + 80)])
def test_cards_list_prints_every_card(game, total):
    result = CliRunner().invoke(cli, ["cards", "list", game, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert sum(row.get("count", 1) for row in rows) == total
    assert all(row["name"] and row["text"] for row in rows)


def test_rom_lists_its_provinces_senate_and_arena_cards():
    rows = json.loads(CliRunner().invoke(cli, ["cards", "list", "rom", "--json"]).output)
    decks = {deck: sum(1 for r in rows if r["deck"] == deck) for deck in ("province", "senate", "arena")}
    assert decks == {"province": 20, "senate": 25, "arena": 31}


def test_the_table_names_the_cards_the_rulebook_names():
    out = CliRunner().invoke(cli, ["cards", "list", "spartacus"]).output
    for name in ("Insider Information", "Whispered Rumours", "Pietros", "Agron", "House of Batiatus"):
        assert name in out


def test_unknown_games_and_sets_are_clear_errors():
    unknown = CliRunner().invoke(cli, ["cards", "list", "chess"])
    assert unknown.exit_code == 2 and "choose one of" in unknown.output
    bad_set = CliRunner().invoke(cli, ["cards", "list", "pax", "--set", "nope"])
    assert bad_set.exit_code == 1 and "no card set 'nope'" in bad_set.output
