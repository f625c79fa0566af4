"""The arena board: hexes, start hexes I and II, distances and paths."""

from __future__ import annotations

from engine.spartacus.arena.board import ARENA, DIRECTIONS, distance


def test_the_board_is_an_oval_of_65_hexes_with_start_hexes_six_apart():
    assert len(ARENA.hexes) == 65
    assert ARENA.starts == ((-3, 0), (3, 0)) and distance(*ARENA.starts) == 6
    assert all(start in ARENA for start in ARENA.starts)
    widths = [len(row) for row in ARENA.rows()]
    assert widths == [8, 9, 10, 11, 10, 9, 8]


def test_distance_is_the_number_of_hex_steps():
    assert distance((0, 0), (0, 0)) == 0
    assert all(distance((0, 0), d) == 1 for d in DIRECTIONS)
    assert distance((0, 0), (2, -1)) == 2 and distance((-3, 0), (3, 0)) == 6
    assert distance((1, 2), (-2, 0)) == distance((-2, 0), (1, 2))


def test_neighbours_stay_on_the_board():
    assert len(ARENA.neighbours((0, 0))) == 6
    edge = ARENA.neighbours((-5, 0))
    assert 0 < len(edge) < 6 and all(h in ARENA for h in edge)


def test_reachable_hexes_come_with_a_shortest_path_around_the_blocked_hex():
    paths = ARENA.reachable((0, 0), 2, blocked=[(1, 0)])
    assert (0, 0) not in paths and (1, 0) not in paths
    assert (2, 0) not in paths  # straight behind the opponent: going round takes three steps
    assert len(ARENA.reachable((0, 0), 3, blocked=[(1, 0)])[(2, 0)]) == 3
    for dest, path in paths.items():
        assert path[-1] == dest and len(path) <= 2 and (1, 0) not in path
        assert all(distance(a, b) == 1 for a, b in zip(((0, 0),) + path, path))
    assert set(paths) == set(ARENA.within((0, 0), 2)) - {(1, 0), (2, 0)}


def test_the_drawing_marks_the_start_hexes():
    text = ARENA.drawing({ARENA.starts[0]: "I", ARENA.starts[1]: "II"})
    assert len(text.splitlines()) == 7 and "I" in text and "II" in text
