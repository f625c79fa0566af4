"""How the table is laid out for a number of seats (Vorbereitung; 5-8 players; Solospiel)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_SEATS = 8
SOLO_LEVELS = (1, 2, 3, 4, 5)
START_AUREI = 5


@dataclass(frozen=True)
class TableConfig:
    """Counts that depend on the number of seats (and, solo, on the level)."""

    legions: int
    set_aside: int
    extra_cards: int
    rome_open: int
    rome_hidden: int
    #: cards drawn at the start, by position clockwise from the start player
    start_draws: tuple[int, ...]
    #: solo levels 3-5: start cards laid at once (limits ignored)
    start_lays: int = 0


def table_config(seats: int, solo_level: int = 1) -> TableConfig:
    """The set-up counts.

    Rulebook, Preparation: "With 2 players 20 cards, with 3 players 10 cards are set aside
    unseen. One legion card more than there are players [...] the start player draws 2, the
    second 3, the third 4, the fourth 5."  5-8 players: "one full deck + 15/30/45/60 random
    cards of the second deck [...] the 5th to 8th player draw 5 each [...] 6 cards for Rome:
    3 open, 3 hidden."  Solo game: "3 legion cards [...] 30 cards set aside unseen [...] 2
    cards" (levels 3/4/5: 3/4/5 cards, of which 1/2/3 are laid at once).
    """
    if seats == 1:
        dealt = {1: 2, 2: 2, 3: 3, 4: 4, 5: 5}[solo_level]
        return TableConfig(legions=3, set_aside=30, extra_cards=0, rome_open=0, rome_hidden=3,
                           start_draws=(dealt,), start_lays=max(0, dealt - 2))
    if seats <= 4:
        return TableConfig(legions=seats + 1, set_aside={2: 20, 3: 10, 4: 0}[seats], extra_cards=0,
                           rome_open=0, rome_hidden=3, start_draws=(2, 3, 4, 5)[:seats])
    return TableConfig(legions=seats + 1, set_aside=0, extra_cards=15 * (seats - 4), rome_open=3,
                       rome_hidden=3, start_draws=(2, 3, 4, 5, 5, 5, 5, 5)[:seats])
