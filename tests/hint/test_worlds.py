"""Sampled worlds carried along a game: cards turned over swapped in fairly, detours cut out of lines."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from spider_vision.engine import (
    Column,
    Position,
    SuitMode,
    TableauMove,
    apply_move,
    deal_position,
    legal_moves,
    parse_move,
)
from spider_vision.hint.worlds import World, advance, line_wins, without_loops

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


def _hidden(position: Position) -> list[object]:
    """The face-down cards column by column, then the stock."""
    return [card for column in position.columns for card in column.down] + list(position.stock)


@pytest.mark.parametrize("deal", [3, 8])
def test_a_card_turned_over_is_taken_from_any_of_the_worlds_places_that_hold_it(deal: int) -> None:
    """The world guessed Y under the column; the table shows X. X comes from one of the world's hidden
    places holding it, drawn at random, and Y goes there: always the last such place would move every
    world's guesses to the same few places."""
    world = deal_position(deal, SuitMode.ONE)
    move = next(
        move for move in legal_moves(world.observed()) if isinstance(move, TableauMove) and move.count == 1
    )
    moved = apply_move(world, move).after
    guess = moved.columns[move.source].up[-1]
    shown = next(card for card in _hidden(moved) if card != guess)
    column = moved.columns[move.source]
    columns = list(moved.columns)
    columns[move.source] = Column(column.down, (*column.up[:-1], shown))
    observed = replace(moved, columns=tuple(columns)).observed()
    places = [index for index, card in enumerate(_hidden(moved)) if card == shown]
    chosen: Counter[int] = Counter()
    for seed in range(40 * len(places)):
        carried = advance(World(world), move, observed, random.Random(seed))
        assert carried is not None
        assert carried.position.columns[move.source].up[-1] == shown
        assert Counter(_hidden(carried.position)) == Counter(_hidden(moved)) - Counter([shown]) + Counter([guess])
        after = _hidden(carried.position)
        (place,) = [index for index, (old, new) in enumerate(zip(_hidden(moved), after)) if old != new]
        assert place in places
        chosen[place] += 1
    assert set(chosen) == set(places)
    assert min(chosen.values()) >= 15
