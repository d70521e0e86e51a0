"""Column repair from the cascade's regular step: missed cards between two found ones, peaks found twice."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.cascade import (BACK_READ, BACK_SCORE, PHANTOM_READ, PHANTOM_SCORE, PIP_READ, PIP_SCORE,
                                         TWIN_GAP, drop_phantom_peaks, repair_columns)
from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import group_columns

WIDTH, HEIGHT, STEP = 50.0, 70.0, 0.25


def _detections(cards: list[tuple[float, float]], scores: list[float] | None = None) -> Detections:
    """Upright cards with top-left corners at (x, y)."""
    origins = np.array(cards, float) + [300, 200]
    n = len(origins)
    return Detections(np.array(scores or [0.8] * n), origins + [6, 10], origins, np.tile([WIDTH, 0.0], (n, 1)),
                      np.tile([0.0, HEIGHT], (n, 1)), np.tile([8.0, 20.0], (n, 1)))


def _table(counts: list[int], missing: set[tuple[int, int]] = frozenset(),
           twice: set[tuple[int, int]] = frozenset()) -> tuple[list[tuple[float, float]], list[float]]:
    cards, scores = [], []
    for column, count in enumerate(counts):
        for k in range(count):
            if (column, k) in missing:
                continue
            cards.append((column * 1.2 * WIDTH, k * STEP * HEIGHT))
            scores.append(0.8)
            if (column, k) in twice:
                cards.append((column * 1.2 * WIDTH + 1.0, k * STEP * HEIGHT + 0.1 * STEP * HEIGHT))
                scores.append(0.4)
    return cards, scores


@pytest.mark.parametrize("missing, expected", [
    ({(3, 2)}, [(3, 2)]),
    ({(5, 2), (5, 3)}, [(5, 2), (5, 3)]),
    ({(0, 1), (5, 3)}, [(0, 1), (5, 3)]),
])
def test_cards_missed_between_two_found_are_added_where_they_lie(missing: set, expected: list) -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts, missing)
    detections = _detections(cards, scores)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert layout.full
    assert [len(column) for column in layout.columns] == counts
    added = grown.origins[len(detections):] - [300, 200]
    want = sorted((column * 1.2 * WIDTH, k * STEP * HEIGHT) for column, k in expected)
    assert np.allclose(sorted(map(tuple, added)), want)
    assert np.all(grown.scores[len(detections):] == 0)
    for column in layout.columns:
        assert list(grown.origins[list(column), 1]) == sorted(grown.origins[list(column), 1])


def test_gaps_over_missed_cards_do_not_stretch_the_step() -> None:
    # Steps jitter by 10-20% from card to card; four columns show a gap of about two steps (a card
    # missed), so the median gap runs long (1.2 steps) and two of those gaps would look like 1.5 and
    # 1.67 steps. Taken as two steps each, they give the step back, and every missed card is found.
    gaps = {0: [0.9, 1.0, 1.1], 1: [1.15, 1.2], 2: [1.8], 3: [2.0], 4: [2.1], 5: [2.15]}
    cards = [(column * 1.2 * WIDTH, float(y) * STEP * HEIGHT)
             for column in range(10) for y in np.cumsum([0.0, *gaps.get(column, [])])]
    detections = _detections(cards)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert [len(column) for column in layout.columns] == [4, 3, 3, 3, 3, 3, 1, 1, 1, 1]
    assert len(grown) == len(detections) + 4


def test_a_card_found_twice_keeps_the_stronger_peak_in_its_column() -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts, twice={(2, 1)})
    detections = _detections(cards, scores)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert len(grown) == len(detections)
    assert [len(column) for column in layout.columns] == counts
    assert [detections.scores[i] for i in layout.loose] == [0.4]


def test_a_gap_of_no_whole_number_of_steps_is_left_alone() -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts)
    cards.append((0.0, 2 * STEP * HEIGHT + 1.5 * STEP * HEIGHT))  # 1.5 steps below column a's last card
    scores.append(0.8)
    detections = _detections(cards, scores)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert len(grown) == len(detections)
    assert len(layout.columns[0]) == 4


def test_a_last_peak_far_below_its_column_is_the_exposed_cards_bottom_corner() -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts)
    cards.append((3 * 1.2 * WIDTH, 4 * STEP * HEIGHT + 0.75 * HEIGHT))  # below column d's exposed card
    scores.append(0.4)
    detections = _detections(cards, scores)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert [len(column) for column in layout.columns] == counts
    assert [detections.scores[i] for i in layout.loose] == [0.4]


@pytest.mark.parametrize("fraction", [0.47, 0.5, 0.53])
def test_a_peak_that_splits_one_step_in_two_is_not_a_card(fraction: float) -> None:
    # A court card's picture found about half a step below its index, above the next card of its column,
    # leaves the column even when the detector is surer of it than of the indices around it.
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts)
    cards.append((5 * 1.2 * WIDTH + 2.0, (2 + fraction) * STEP * HEIGHT))  # inside column f, cards 2 and 3
    scores.append(0.9)
    detections = _detections(cards, scores)
    grown, layout = repair_columns(detections, group_columns(detections))
    assert len(grown) == len(detections)
    assert [len(column) for column in layout.columns] == counts
    assert [detections.scores[i] for i in layout.loose] == [0.9]


LAST = [(2 * 1.2 * WIDTH, 4 * STEP * HEIGHT)]  # a peak one step below column c's exposed card
FIRST = [(2 * 1.2 * WIDTH, -k * 0.4 * STEP * HEIGHT) for k in (1, 2)]  # the edges of two backs above column c


@pytest.mark.parametrize("peaks, score, read, dropped", [
    (LAST, PHANTOM_SCORE - 0.05, PHANTOM_READ - 0.1, True),
    (LAST, PHANTOM_SCORE + 0.05, PHANTOM_READ - 0.1, False),
    (LAST, PHANTOM_SCORE - 0.05, PHANTOM_READ + 0.1, False),
    (FIRST, BACK_SCORE - 0.05, BACK_READ - 0.1, True),
    (FIRST, BACK_SCORE + 0.05, BACK_READ - 0.1, False),
    (FIRST, BACK_SCORE - 0.05, BACK_READ + 0.1, False),
])
def test_weak_unreadable_peaks_at_either_end_of_a_column_are_no_cards(peaks: list[tuple[float, float]], score: float,
                                                                      read: float, dropped: bool) -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts)
    cards += peaks
    scores += [score] * len(peaks)
    detections = _detections(cards, scores)
    probabilities = np.full((len(detections), 52), 0.01)
    probabilities[:, 0] = 0.99
    probabilities[-len(peaks):] = (1 - read) / 51
    for k in range(len(peaks)):  # each peak read as a card of its own
        probabilities[len(detections) - len(peaks) + k, 5 + k] = read
    kept = drop_phantom_peaks(group_columns(detections), detections, probabilities)
    added = list(range(len(detections) - len(peaks), len(detections)))
    assert len(kept.columns[2]) == counts[2] + (0 if dropped else len(peaks))
    assert sorted(kept.loose) == (added if dropped else [])


@pytest.mark.parametrize("across, score, read, dropped", [
    (0.2, PIP_SCORE - 0.05, PIP_READ - 0.1, True),
    (0.2, PIP_SCORE + 0.05, PIP_READ - 0.1, False),
    (0.2, PIP_SCORE - 0.05, PIP_READ + 0.1, False),
    (0.05, PIP_SCORE - 0.05, PIP_READ - 0.1, False),
])
def test_a_weak_unreadable_peak_right_of_the_card_before_it_is_a_pip(across: float, score: float, read: float,
                                                                   dropped: bool) -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, scores = _table(counts)
    x, y = cards[sum(counts[:3]) + 4]  # column d's exposed card, on whose face the peak lies
    cards.append((x + across * WIDTH, y + 0.5 * STEP * HEIGHT))
    scores.append(score)
    detections = _detections(cards, scores)
    probabilities = np.full((len(detections), 52), 0.01)
    probabilities[:, 0] = 0.99
    probabilities[-1] = (1 - read) / 51
    probabilities[-1, 5] = read
    layout = group_columns(detections)
    assert len(layout.columns[3]) == counts[3] + 1
    kept = drop_phantom_peaks(layout, detections, probabilities)
    assert (len(detections) - 1 in kept.loose) == dropped
    assert len(kept.columns[3]) == counts[3] + (0 if dropped else 1)


@pytest.mark.parametrize("gap, same_card, dropped", [
    (TWIN_GAP - 0.06, True, True),
    (TWIN_GAP - 0.06, False, False),
    (TWIN_GAP + 0.04, True, False),
])
def test_a_card_found_twice_close_together_and_read_alike_keeps_its_stronger_peak(gap: float, same_card: bool,
                                                                                  dropped: bool) -> None:
    # No column shows two face-up cards, so the table's step cannot tell the twins apart.
    counts = [1] * 10
    cards, scores = _table(counts)
    x, y = cards[4]
    cards.append((x + 2.0, y + gap * HEIGHT))
    scores.append(0.9)
    detections = _detections(cards, scores)
    probabilities = np.full((len(detections), 52), 0.01)
    probabilities[np.arange(len(detections)), np.arange(len(detections))] = 0.9
    probabilities[-1] = probabilities[4] if same_card else probabilities[-1]
    layout = group_columns(detections)
    assert list(layout.columns[4]) == [4, len(detections) - 1]
    kept = drop_phantom_peaks(layout, detections, probabilities)
    assert list(kept.columns[4]) == ([len(detections) - 1] if dropped else [4, len(detections) - 1])
    assert list(kept.loose) == ([4] if dropped else [])
