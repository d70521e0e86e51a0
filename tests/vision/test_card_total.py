"""A card total Spider cannot make: weak peaks that are likely no card (a pip, a card found twice) leave their columns."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.card_total import LEAST_CHANCE, drop_for_whole_total, no_card_chance, suspect_peaks
from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import group_columns
from spider_vision.vision.rules import DEALT_DOWN

WIDTH, HEIGHT, PITCH, STEP = 50.0, 70.0, 1.2, 0.25
SEVEN, SIX, FIVE = 6, 5, 4
WEAK, UNREAD = 0.2, 0.4
"""A detector's score and a reader's chance that make a peak a suspect at a column's end."""


def _table(extra: dict[int, list[tuple[int, float, float]]]) -> tuple[Detections, np.ndarray]:
    """A fresh deal (a Seven face up on each column), with ``extra`` peaks below the Sevens: per column,
    (rank, detector score, reader's chance) for each; the reader's beliefs (n, 52)."""
    origins, ranks, scores, sure = [], [], [], []
    for c in range(10):
        for k, (rank, score, chance) in enumerate([(SEVEN, 0.9, 0.98), *extra.get(c, [])]):
            origins.append([c * PITCH * WIDTH, k * STEP * HEIGHT])
            ranks.append(rank)
            scores.append(score)
            sure.append(chance)
    n = len(origins)
    points = np.array(origins) + [100.0, 80.0]
    detections = Detections(np.array(scores), points + 5, points, np.tile([WIDTH, 0.0], (n, 1)),
                            np.tile([0.0, HEIGHT], (n, 1)), np.tile([8.0, 20.0], (n, 1)))
    probabilities = np.array([np.full(52, (1 - p) / 51) for p in sure])
    probabilities[np.arange(n), ranks] = sure
    return detections, probabilities


def _counter(detections: Detections, counts: dict[int, int]) -> dict[int, np.ndarray]:
    """The counter's beliefs above each detection: sure of ``counts[i]`` where given, else of what the
    column was dealt (the columns lie one pitch apart, column a first)."""
    beliefs = {}
    for i, origin in enumerate(detections.origins):
        column = round((origin[0] - 100.0) / (PITCH * WIDTH))
        belief = np.full(7, 0.01 / 6)
        belief[counts.get(i, DEALT_DOWN[column])] = 0.99
        beliefs[i] = belief
    return beliefs


def _run(extra: dict[int, list[tuple[int, float, float]]], counts: dict[int, int] | None = None):
    detections, probabilities = _table(extra)
    layout = group_columns(detections)
    assert layout.full
    beliefs = _counter(detections, counts or {})
    return layout, drop_for_whole_total(layout, detections.scores, probabilities, lambda indices: np.array([beliefs[i] for i in indices]))


@pytest.mark.parametrize(("extra", "dropped"), [
    # A weak peak the reader cannot name below column c's Seven (a pip): one card too many.
    ({2: [(SIX, WEAK, UNREAD)]}, True),
    # The detector is sure of it: a card, and the count stays as it is (the position is withheld).
    ({2: [(SIX, 0.9, UNREAD)]}, False),
    # The reader names it: a card.
    ({2: [(SIX, WEAK, 0.95)]}, False),
    # The Seven found twice, the second peak weak: one card, read twice.
    ({2: [(SEVEN, WEAK, 0.95)]}, True),
])
def test_a_weak_peak_that_makes_the_total_whole_leaves_the_column(
        extra: dict[int, list[tuple[int, float, float]]], dropped: bool) -> None:
    before, after = _run(extra)
    assert (after is not before) is dropped
    if dropped:
        assert [len(column) for column in after.columns] == [1] * 10
        assert len(after.loose) == len(before.loose) + 1


def test_three_peaks_too_many_leave_together() -> None:
    # Column a's Seven found twice, a pip below column c's Seven and the edge of a face-down card
    # above column e's: 57 cards, three too many for a fresh deal.
    before, after = _run({0: [(SEVEN, WEAK, 0.95)], 2: [(SIX, WEAK, UNREAD)], 4: [(FIVE, WEAK, UNREAD)]})
    assert [len(column) for column in after.columns] == [1] * 10
    assert len(after.loose) == len(before.loose) + 3


def test_of_two_ways_to_a_whole_total_the_likelier_peak_leaves() -> None:
    # One card too many (the counter sees one face-down card fewer in columns a and b than a deal
    # leaves): column c's Seven is found twice, the second time weakly, and column e holds a weak,
    # unreadable peak between two cards. A card found twice is far likelier than such a middle peak
    # being no card.
    before, after = _run({2: [(SEVEN, WEAK, 0.95)], 4: [(FIVE, WEAK, UNREAD), (SIX, 0.9, 0.98)]},
                         counts={0: 4, 1: 4})
    assert [len(column) for column in after.columns] == [1, 1, 1, 1, 3, 1, 1, 1, 1, 1]


@pytest.mark.parametrize(("kind", "score", "read", "suspect"), [
    ("twin", 0.3, 0.95, True),
    ("twin", 0.6, 0.5, True),
    ("twin", 0.6, 0.95, False),
    ("end", 0.3, 0.4, True),
    ("end", 0.5, 0.4, True),
    ("end", 0.3, 0.8, True),
    ("end", 0.3, 0.95, False),
    ("end", 0.7, 0.3, False),
    ("middle", 0.3, 0.4, True),
    ("middle", 0.3, 0.8, False),
    ("middle", 0.5, 0.4, False),
])
def test_which_peaks_are_suspects(kind: str, score: float, read: float, suspect: bool) -> None:
    assert (no_card_chance(kind, score, read) >= LEAST_CHANCE) is suspect


def test_a_whole_total_keeps_every_peak() -> None:
    # A weak peak below column c, and the counter sees one face-down card fewer in column a than a
    # deal leaves: the total is whole as read, so nothing is dropped.
    before, after = _run({2: [(SIX, WEAK, UNREAD)]}, counts={0: 4})
    assert after is before


def test_a_weak_first_peak_on_the_face_down_cards_leaves_and_the_count_moves_below_it() -> None:
    # Column a shows a weak peak on its face-down cards above the Seven; the counter sees two cards
    # above that peak, and all five above the Seven.
    detections, probabilities = _table({0: [(SEVEN, 0.9, 0.98)]})
    phantom, seven = 0, 1
    probabilities[phantom] = np.full(52, 1 / 52)
    scores = detections.scores.copy()
    scores[phantom] = WEAK
    layout = group_columns(detections)
    beliefs = _counter(detections, {phantom: 2})
    assert list(suspect_peaks(layout, scores, probabilities)) == [(0, 0)]
    after = drop_for_whole_total(layout, scores, probabilities, lambda indices: np.array([beliefs[i] for i in indices]))
    assert after.columns[0] == (seven,)
    assert phantom in after.loose


def test_nothing_is_dropped_from_a_layout_that_is_no_tableau() -> None:
    detections, probabilities = _table({2: [(SIX, WEAK, UNREAD)]})
    keep = np.array([i for i, origin in enumerate(detections.origins) if origin[0] < 100 + 8 * PITCH * WIDTH])
    detections, probabilities = detections.subset(keep), probabilities[keep]
    layout = group_columns(detections)
    assert not layout.full
    beliefs = _counter(detections, {})
    assert drop_for_whole_total(layout, detections.scores, probabilities, lambda indices: np.array([beliefs[i] for i in indices])) is layout
