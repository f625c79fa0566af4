"""How a seat is marked wherever Capua shows it: a colour and a letter.

Boards, the history and the games' own words (a Rom card aimed at "player B") all name a
seat the same way, so the marks live here, below the pages and the game terms alike.
"""

from __future__ import annotations

from typing import Optional

#: Seat colours from the Okabe–Ito palette, distinguishable with every common colour-vision
#: deficiency; each seat also has a letter so that colour is never the only cue.
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")
#: Text colour that reads on each seat colour.
SEAT_INK = ("#000000", "#000000", "#000000", "#000000", "#FFFFFF", "#000000", "#000000", "#000000")
SEAT_MARKS = ("A", "B", "C", "D", "E", "F", "G", "H")


def seat_style(seat: Optional[int]) -> dict[str, str]:
    """Fill, ink and letter of ``seat``; neutral grey for no seat (Rome, the bank, nobody)."""
    if not isinstance(seat, int) or seat < 0:
        return {"fill": "#d9d2c5", "ink": "#000000", "mark": "·"}
    i = seat % len(SEAT_COLOURS)
    return {"fill": SEAT_COLOURS[i], "ink": SEAT_INK[i], "mark": SEAT_MARKS[i]}


def seat_letter(seat: object) -> str:
    """The letter that names ``seat`` in every sentence Capua writes (``A`` for the engine's
    seat 0): the boards draw it, so prompts, lists and mail never count seats from 0 or 1."""
    try:
        n = int(seat)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(seat)
    return seat_style(n)["mark"] if n >= 0 else str(seat)


def unnamed_player(seat: object) -> str:
    """What the API and the stored table talk call a player without a display name
    (``Player B``); pages and mail say it in the reader's words instead
    (:func:`is_unnamed_player`)."""
    return f"Player {seat_letter(seat)}"


def is_unnamed_player(name: object, seat: object) -> bool:
    """``name`` is :func:`unnamed_player`'s for ``seat``: a player with no name of their own."""
    return isinstance(seat, int) and name == unnamed_player(seat)
