"""Training augmentation keeps a crop's shape and type; the low-resolution copy loses fine detail."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.training.augment import low_resolution, photometric


def _checkerboard(size: int = 40, square: int = 2) -> np.ndarray:
    tiles = (np.indices((size, size)) // square).sum(axis=0) % 2
    return np.repeat((tiles * 255).astype(np.uint8)[..., None], 3, axis=2)


def _detail(image: np.ndarray) -> float:
    """Mean absolute difference between horizontal neighbours: high on a fine pattern."""
    return float(np.abs(np.diff(image.astype(np.float32), axis=1)).mean())


@pytest.mark.parametrize("chance, changed", [(0.0, False), (1.0, True)])
def test_low_resolution_applies_with_its_chance(chance: float, changed: bool) -> None:
    crop = _checkerboard()
    out = low_resolution(crop, np.random.default_rng(0), chance=chance)
    assert out.shape == crop.shape and out.dtype == np.uint8
    assert (not np.array_equal(out, crop)) == changed


@pytest.mark.parametrize("smallest", [0.3, 0.5, 0.8])
def test_low_resolution_blurs_fine_detail(smallest: float) -> None:
    crop = _checkerboard()
    rng = np.random.default_rng(1)
    for _ in range(20):
        assert _detail(low_resolution(crop, rng, chance=1.0, smallest=smallest)) < 0.8 * _detail(crop)


@pytest.mark.parametrize("shape", [(40, 40, 3), (96, 32, 3)])
def test_photometric_keeps_shape_and_type(shape: tuple[int, int, int]) -> None:
    image = np.full(shape, 128, np.uint8)
    rng = np.random.default_rng(2)
    for _ in range(10):
        out = photometric(image, rng)
        assert out.shape == shape and out.dtype == np.uint8
