"""Peaks of the detector's heat map: one per corner index, also in a tight cascade seen from afar."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.detect import find_peaks


# Heat around two cards of a cascade seen from afar, from a bench video: the 2 of hearts' index
# (0.87) and, two cells below and one aside, the ace of hearts' on top of it (0.50), whose corner
# touches the 2's blob (0.59).
CASCADE = np.array([
    [0.03, 0.08, 0.70, 0.08, 0.01],
    [0.03, 0.20, 0.87, 0.06, 0.02],
    [0.04, 0.45, 0.59, 0.02, 0.01],
    [0.06, 0.50, 0.41, 0.02, 0.01],
    [0.06, 0.10, 0.05, 0.02, 0.00],
    [0.09, 0.13, 0.05, 0.01, 0.00],
])


def test_each_index_of_a_tight_cascade_is_a_peak() -> None:
    rows, cols = find_peaks(CASCADE, 0.3)
    assert sorted(zip(rows.tolist(), cols.tolist())) == [(1, 2), (3, 1)]


def _blob(heat: np.ndarray, row: int, col: int, top: float) -> None:
    """A peak of height ``top`` at (row, col) falling off over the neighbouring cells."""
    rows, cols = np.mgrid[: heat.shape[0], : heat.shape[1]]
    heat[:] = np.maximum(heat, top * np.exp(-((rows - row) ** 2 + (cols - col) ** 2) / 1.5))


@pytest.mark.parametrize("second, found", [((13, 10), 2), ((10, 10), 1)])
def test_one_peak_per_blob(second: tuple[int, int], found: int) -> None:
    heat = np.zeros((24, 24))
    _blob(heat, 10, 10, 0.87)
    _blob(heat, *second, 0.5)
    assert len(find_peaks(heat, 0.3)[0]) == found


def test_weak_cells_are_no_peaks() -> None:
    heat = np.zeros((8, 8))
    _blob(heat, 4, 4, 0.25)
    assert len(find_peaks(heat, 0.3)[0]) == 0
