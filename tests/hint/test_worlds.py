"""Sampled worlds carried along a game: cards turned over swapped in, detours cut out of lines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spider_vision.engine import (
    Column,
    Deal,
    Move,
    Position,
    SuitMode,
    TableauMove,
    apply_move,
    deal_position,
    legal_moves,
    parse_move,
)
from spider_vision.hint.worlds import (
    World,
    advance,
    game_progress,
    line_wins,
    play_line,
    shared_prefix,
    shows_card,
    without_loops,
)

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


@pytest.mark.parametrize(
    ("line", "column_b", "wins"),
    [((), 1, False), (("bc",), 0, False), (("bc", "cb"), 1, False), (("bc", "ca"), 0, True)],
)
def test_a_line_is_played_move_by_move(line: tuple[str, ...], column_b: int, wins: bool) -> None:
    start = Position.from_spn(ONE_FROM_WIN)
    after = play_line(start, line)
    assert after is not None and len(after.columns[1].cards()) == column_b
    assert after.is_won == wins == line_wins(start, line)


@pytest.mark.parametrize("line", [("jz",), ("bc", "bd"), ("nonsense",)])
def test_a_line_with_a_move_not_legal_on_the_way_gives_no_position(line: tuple[str, ...]) -> None:
    start = Position.from_spn(ONE_FROM_WIN)
    assert play_line(start, line) is None and not line_wins(start, line)


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


@pytest.mark.parametrize("deal", [3, 8])
def test_a_card_turned_over_is_taken_from_the_stock_when_it_holds_one(deal: int) -> None:
    """The world guessed one card under the column and the table shows another: the world takes the
    shown card from the last of its deals that holds one and keeps its face-down cards as they were."""
    world = deal_position(deal, SuitMode.ONE)
    move = next(
        move for move in legal_moves(world.observed()) if isinstance(move, TableauMove) and move.count == 1
    )
    moved = apply_move(world, move).after
    guess = moved.columns[move.source].up[-1]
    shown = next(card for card in moved.stock if card != guess)
    column = moved.columns[move.source]
    columns = list(moved.columns)
    columns[move.source] = Column(column.down, (*column.up[:-1], shown))
    observed = replace(moved, columns=tuple(columns)).observed()
    carried = advance(World(world), move, observed)
    assert carried is not None
    assert carried.position.columns[move.source].up[-1] == shown
    assert [c.down for c in carried.position.columns] == [c.down for c in moved.columns]
    last = max(index for index, card in enumerate(moved.stock) if card == shown)
    assert carried.position.stock == (*moved.stock[:last], guess, *moved.stock[last + 1 :])


@pytest.mark.parametrize("deal", [3, 7])
def test_a_move_shows_a_card_when_it_empties_a_columns_face_up_cards_or_deals(deal: int) -> None:
    start = apply_move(deal_position(deal, 4), Deal()).after  # two face-up cards on each column's face-down ones
    moves = legal_moves(start)
    assert any(isinstance(move, TableauMove) and move.count == 1 for move in moves)
    for move in moves:
        turns_over = isinstance(move, TableauMove) and move.count == len(start.columns[move.source].up)
        assert shows_card(start, apply_move(start, move).after) is (isinstance(move, Deal) or turns_over)


def _shows_a_card(position: Position, move: Move) -> bool:
    return shows_card(position, apply_move(position, move).after)


@pytest.mark.parametrize("deal", [7, 12, 30])
def test_a_shared_prefix_runs_to_the_first_card_shown_as_most_worlds_play_it(deal: int) -> None:
    start = apply_move(deal_position(deal, 4), Deal()).after  # two face-up cards a column: some moves show none
    pairs = []
    for first in legal_moves(start):
        if not _shows_a_card(start, first):
            after = apply_move(start, first).after
            pairs.append((first, [move for move in legal_moves(after) if _shows_a_card(after, move)]))
    first, showing = next((first, showing) for first, showing in pairs if len(showing) >= 2)
    common, rare = (str(first), str(showing[0])), (str(first), str(showing[1]))
    worlds = [
        World(start, {str(first): (*common, "deal")}),
        World(start, {str(first): (*rare, "deal")}),
        World(start, {str(first): common}),
        World(start, {"ab": ("ab",)}),
    ]
    assert shared_prefix(worlds, str(first)) == common
    assert shared_prefix(worlds, "hz") == ("hz",)


@pytest.mark.parametrize(
    ("spn", "progress"),
    [
        (deal_position(1, 1).spn(), (44, 50, 0)),
        ("|KsQsJsTs9s8s7s/|6s5s4s3s2s/|As/|/|/|/|/|/|/| - sssssss 1", (0, 0, 7)),
    ],
)
def test_game_progress_counts_face_down_cards_stock_and_runs_removed(spn: str, progress: tuple) -> None:
    assert game_progress(Position.from_spn(spn)) == progress
    if Position.from_spn(spn).stock:
        dealt = apply_move(Position.from_spn(spn), Deal()).after
        assert game_progress(dealt) == (progress[0], progress[1] - 10, progress[2])
