"""Card frames: image offsets in a card's own units."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.geometry import card_units


@pytest.mark.parametrize("right, down, units", [
    ((50.0, 0.0), (0.0, 70.0), (0.2, 0.5)),  # upright
    ((0.0, 50.0), (-70.0, 0.0), (0.8, -0.1)),  # turned a quarter round
    ((40.0, 10.0), (-12.0, 66.0), (1.0, 1.0)),  # tilted and sheared by perspective: the far corner
])
def test_an_offset_in_card_units_is_what_the_frame_maps_back(right: tuple, down: tuple, units: tuple) -> None:
    r, d = np.array(right), np.array(down)
    offset = units[0] * r + units[1] * d
    assert np.allclose(card_units(offset, r, d), units)
