"""Completed runs laid beside the row of columns: a pile of Aces or Kings at one end is not a column."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.completed import BARE, SURE_RANK, drop_completed_runs, runs_in_sight
from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import group_columns

WIDTH, HEIGHT, PITCH = 50.0, 70.0, 1.2
ACE, TWO, SEVEN, KING = 0, 1, 6, 12


def _table(columns: list[int], pile: list[int]) -> tuple[Detections, np.ndarray, set[int]]:
    """Columns of face-up Sevens (0: an empty column) and, one pitch past the last, a pile of the given
    ranks fanned down; the reader's beliefs (n, 52), sure of every card; the pile's detection numbers."""
    origins, ranks = [], []
    for c, count in enumerate(columns):
        for k in range(count):
            origins.append([c * PITCH * WIDTH, k * 0.25 * HEIGHT])
            ranks.append(SEVEN)
    first = len(origins)
    for k, rank in enumerate(pile):
        origins.append([len(columns) * PITCH * WIDTH, 0.4 * HEIGHT + k * 0.3 * HEIGHT])
        ranks.append(rank)
    n = len(origins)
    points = np.array(origins) + [100.0, 80.0]
    detections = Detections(np.ones(n), points + 5, points, np.tile([WIDTH, 0.0], (n, 1)),
                            np.tile([0.0, HEIGHT], (n, 1)), np.tile([8.0, 20.0], (n, 1)))
    probabilities = np.full((n, 52), 0.02 / 51)
    probabilities[np.arange(n), ranks] = 0.98
    return detections, probabilities, set(range(first, n))


@pytest.mark.parametrize(("columns", "empty"), [([1] * 10, ()), ([2, 1, 1, 0, 3, 1, 1, 1, 1, 1], (3,))])
@pytest.mark.parametrize("top", [ACE, KING])
def test_runs_beside_the_last_column_leave_the_row_and_the_columns_make_a_tableau(
        columns: list[int], empty: tuple[int, ...], top: int) -> None:
    detections, probabilities, pile = _table(columns, [top] * 3)
    before = group_columns(detections)
    assert not before.full or len(before.columns) == 10 - len(empty)
    layout = drop_completed_runs(before, detections, probabilities, lambda i: 0.0)
    assert layout.full
    assert layout.empty == empty
    assert pile <= set(layout.loose)
    assert not pile & {i for column in layout.columns for i in column}


@pytest.mark.parametrize(("columns", "pile", "bare", "dropped"), [
    (10, [ACE, ACE], BARE + 0.1, True),      # nothing face down above two Aces: runs laid aside
    (10, [ACE, ACE], BARE - 0.1, False),     # face-down cards above: a deal put an Ace on an Ace
    (10, [ACE, ACE, TWO], 1.0, False),       # not all one rank
    (10, [SEVEN, SEVEN, SEVEN], 1.0, False),  # one rank, but no run shows a Seven on top
    (9, [ACE], 1.0, False),                  # one Ace alone may well be a column
])
def test_only_a_pile_that_looks_like_runs_laid_aside_leaves(columns: int, pile: list[int], bare: float,
                                                           dropped: bool) -> None:
    detections, probabilities, indices = _table([1] * columns, pile)
    layout = drop_completed_runs(group_columns(detections), detections, probabilities, lambda i: bare)
    assert layout.full
    assert (indices <= set(layout.loose)) is dropped
    # Kept beside ten columns, the pile outweighs column a's one card and takes the last letter.
    assert (indices <= {i for column in layout.columns for i in column}) is not dropped


def test_an_unsure_read_keeps_the_pile() -> None:
    detections, probabilities, pile = _table([1] * 10, [ACE] * 3)
    for i in pile:
        probabilities[i, ACE] = SURE_RANK - 0.1
    layout = drop_completed_runs(group_columns(detections), detections, probabilities, lambda i: 0.0)
    assert not pile & set(layout.loose)


def test_an_ace_pile_inside_the_row_stays_a_column() -> None:
    detections, probabilities, _ = _table([1, 1, 1, 1, 3, 1, 1, 1, 1, 1], [])
    column_e = [4, 5, 6]
    probabilities[column_e] = probabilities[column_e][:, [ACE if k == SEVEN else SEVEN if k == ACE else k
                                                          for k in range(52)]]
    assert (probabilities[column_e].argmax(axis=1) == ACE).all()
    layout = drop_completed_runs(group_columns(detections), detections, probabilities, lambda i: 1.0)
    assert layout.full
    assert not layout.loose


@pytest.mark.parametrize(("ranks", "sure", "expected"), [
    ([ACE, KING, SEVEN], 0.98, 2),
    ([ACE, ACE], SURE_RANK - 0.1, 0),
    ([], 0.98, 0),
])
def test_runs_in_sight_are_the_loose_cards_read_as_aces_or_kings(ranks: list[int], sure: float,
                                                                  expected: int) -> None:
    probabilities = np.full((len(ranks) + 1, 52), (1 - sure) / 51)
    for i, rank in enumerate(ranks):
        probabilities[i + 1, rank] = sure
    assert runs_in_sight(tuple(range(1, len(ranks) + 1)), probabilities) == expected
