"""Lines carried in sampled worlds: detours cut out."""

from __future__ import annotations

import pytest

from spider_vision.engine import Position, apply_move, parse_move
from spider_vision.hint.worlds import line_wins, without_loops

# Seven runs removed; As alone in column b finishes the last one on column a.
ONE_FROM_WIN = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (("ba",), ("ba",)),
        (("bc", "cb", "ba"), ("ba",)),
        (("bc", "cd", "db", "ba"), ("ba",)),
        (("bc", "cd", "dc", "ca"), ("bc", "ca")),
        (("bc", "ca"), ("bc", "ca")),
        (("bc", "cb", "bd", "db", "ba"), ("ba",)),
    ],
)
def test_a_line_loses_its_detours_and_still_wins(line: tuple[str, ...], expected: tuple[str, ...]) -> None:
    start = Position.from_spn(ONE_FROM_WIN)
    assert line_wins(start, line)
    assert without_loops(start, line) == expected
    assert line_wins(start, expected)


def test_a_line_that_is_not_this_positions_is_left_as_it_is_from_where_it_fails() -> None:
    start = Position.from_spn(ONE_FROM_WIN)
    assert without_loops(start, ("bc", "cb", "jz", "ba")) == ("jz", "ba")


def test_the_cut_line_passes_the_same_positions_after_the_detour() -> None:
    start = Position.from_spn(ONE_FROM_WIN)
    position = start
    for text in ("bc", "cd", "dc", "ca"):
        position = apply_move(position, parse_move(text)[0]).after
    shortcut = start
    for text in without_loops(start, ("bc", "cd", "dc", "ca")):
        shortcut = apply_move(shortcut, parse_move(text)[0]).after
    assert shortcut == position
