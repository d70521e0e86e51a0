"""Peaks on a card's top-right index, printed by decks with an index in both top corners."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.corners import AGREE, MIRROR_REACH, SURE, drop_second_indices
from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import group_columns

WIDTH, HEIGHT, STEP, PITCH = 50.0, 70.0, 0.25, 0.9
INDEX = (6.0, 10.0)
"""The index centre from the card's top-left corner: its mirror lies WIDTH - 12 px right of it."""


def _detections(cards: list[tuple[float, float]], centres: list[tuple[float, float]]) -> Detections:
    origins = np.array(cards, float) + [300, 200]
    n = len(origins)
    return Detections(np.full(n, 0.8), np.array(centres, float) + [300, 200], origins,
                      np.tile([WIDTH, 0.0], (n, 1)), np.tile([0.0, HEIGHT], (n, 1)), np.tile([8.0, 20.0], (n, 1)))


def _table(counts: list[int]) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Columns PITCH card widths apart: a card's top-right corner lies over the next column's left edge."""
    cards = [(column * PITCH * WIDTH, k * STEP * HEIGHT) for column, count in enumerate(counts) for k in range(count)]
    return cards, [(x + INDEX[0], y + INDEX[1]) for x, y in cards]


OWN, SAME_RANK, OTHER = 7, 13 + 7, 3
"""Classes: the card (8 of spades), the 8 of hearts, the 4 of spades."""


@pytest.mark.parametrize("shift, read, as_class, sure, dropped", [
    (0.0, 0.9, OWN, 0.95, True),
    (0.5 * MIRROR_REACH, AGREE + 0.05, OWN, 0.95, True),
    (0.0, 0.9, SAME_RANK, 0.95, True),
    (2 * MIRROR_REACH, 0.9, OWN, 0.95, False),
    (0.0, AGREE - 0.05, OWN, 0.95, False),
    (0.0, 0.9, OWN, SURE - 0.05, False),
])
def test_a_peak_where_a_card_s_index_mirrors_that_reads_as_its_rank_leaves_its_column(
        shift: float, read: float, as_class: int, sure: float, dropped: bool) -> None:
    counts = [3, 2, 4, 5, 1, 6, 2, 4, 1, 3]
    cards, centres = _table(counts)
    owner = sum(counts[:2]) + 3  # the last card of column c, whose top-right index shows over column d
    x, y = cards[owner]
    centre = (x + WIDTH - INDEX[0] + shift * WIDTH, y + INDEX[1])
    cards.append((centre[0] - INDEX[0], centre[1] - INDEX[1]))
    centres.append(centre)
    detections = _detections(cards, centres)
    probabilities = np.full((len(detections), 52), 0.001)
    probabilities[:, 0] = 0.95
    probabilities[owner] = (1 - sure) / 51
    probabilities[owner, OWN] = sure
    probabilities[-1] = 0.0
    probabilities[-1, [as_class, OTHER]] = min(read, sure), 1 - min(read, sure)
    layout = group_columns(detections)
    peak = len(detections) - 1
    assert any(peak in column for column in layout.columns)
    kept = drop_second_indices(layout, detections, probabilities)
    assert (peak in kept.loose) == dropped
    assert sum(len(column) for column in kept.columns) == len(detections) - dropped
    assert any(owner in column for column in kept.columns)
