"""The Rom map: every province's name stays clear of the other provinces' markers and rings,
in every language (the ring of a province one may conquer once covered Etruria's name)."""

from __future__ import annotations

import pytest

from engine.rom.carddata import load_card_set
from service.web.boards import rom
from service.words.terms import rom as terms

#: As board_rom.html draws them: the ring of a conquerable province (r 12.5), a name in
#: 9 px type under its marker (first line 19 px below the centre, 9 px per line).
RING = 12.5
CHAR_WIDTH = 5.2  # a generous average for 9 px type, Latin and Cyrillic


def _label_boxes(cx: int, cy: int, name: str):
    for i, line in enumerate(name.split(" ", 1)):
        base = cy + 19 + 9 * i
        half = CHAR_WIDTH * len(line) / 2
        yield line, (cx - half, cx + half, base - 7, base + 2)


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_no_province_name_lies_under_another_provinces_ring(language):
    provinces = load_card_set("default").provinces
    for p in provinces:
        cx, cy = rom.PROVINCE_SPOTS[p.id]
        for line, (x0, x1, y0, y1) in _label_boxes(cx, cy, terms.card_name(p.id, language) or p.name):
            for q in provinces:
                if q.id == p.id:
                    continue
                qx, qy = rom.PROVINCE_SPOTS[q.id]
                nx, ny = min(max(qx, x0), x1), min(max(qy, y0), y1)
                assert (nx - qx) ** 2 + (ny - qy) ** 2 >= RING ** 2, f"{line!r} lies under the ring of {q.id}"
