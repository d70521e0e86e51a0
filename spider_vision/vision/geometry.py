"""Crops in a card's own frame, shared by training and reading so both see the same pixels.

A card frame is its top-left corner ``origin`` with the ``right`` (full card
width) and ``down`` (full card height) vectors in image pixels. The corner
crop (index and first pips) and the face-down strip are fixed regions of that
frame, warped to small fixed-size pictures.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = [
    "CORNER_CROP", "CORNER_REGION", "DETECT_WIDTH", "STRIP_CROP", "STRIP_REGION", "STRIP_UP",
    "card_units", "corner_crop", "region_corners", "strip_crop", "warp_region",
]

DETECT_WIDTH = 768
"""Pictures are scaled to this width (any height) before card detection."""

CORNER_CROP = (40, 40)
"""Width and height of a corner crop fed to the reader."""

CORNER_REGION = (-0.04, -0.03, 0.6, 0.42)
"""The corner crop in card-frame units (x0, y0, x1, y1)."""

STRIP_CROP = (32, 96)
"""Width and height of the face-down strip crop fed to the counter (tall: a step can be 5% of a card)."""

STRIP_UP = 0.7
STRIP_REGION = (-0.05, -STRIP_UP, 1.05, 0.1)
"""The face-down strip in card-frame units (x0, y0, x1, y1): above the lowest face-up card."""


def card_units(offset: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """An image offset (pixels) in a card frame's units: (across, along), card widths and card heights."""
    return np.linalg.solve(np.stack([right, down], axis=1), offset)


def region_corners(origin: np.ndarray, right: np.ndarray, down: np.ndarray,
                   region: tuple[float, float, float, float]) -> np.ndarray:
    """The four corners (4, 2) in image pixels of ``region`` (x0, y0, x1, y1 in units of ``right`` and
    ``down`` from ``origin``)."""
    x0, y0, x1, y1 = region
    return np.array([np.asarray(origin) + a * np.asarray(right) + b * np.asarray(down)
                     for a in (x0, x1) for b in (y0, y1)])


def warp_region(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray,
                region: tuple[float, float, float, float], size: tuple[int, int]) -> np.ndarray:
    """Warp ``region`` (x0, y0, x1, y1 in units of ``right`` and ``down`` from ``origin``) to ``size``."""
    x0, y0, x1, y1 = region
    width, height = size
    start = np.asarray(origin, np.float64) + x0 * np.asarray(right) + y0 * np.asarray(down)
    step_x = (x1 - x0) * np.asarray(right, np.float64) / width
    step_y = (y1 - y0) * np.asarray(down, np.float64) / height
    # Output pixel (u, v) samples the source at start + (u + 0.5) step_x + (v + 0.5) step_y.
    matrix = np.array([
        [step_x[0], step_y[0], start[0] + 0.5 * (step_x[0] + step_y[0])],
        [step_x[1], step_y[1], start[1] + 0.5 * (step_x[1] + step_y[1])],
    ])
    return cv2.warpAffine(image, matrix, (width, height), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def corner_crop(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The card's top-left corner: its index and, on number cards, the first pips (the suit often shows there)."""
    return _smoothed_warp(image, origin, right, down, CORNER_REGION, CORNER_CROP)


def strip_crop(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The strip above a card where the face-down cards of its column show their top edges."""
    return _smoothed_warp(image, origin, right, down, STRIP_REGION, STRIP_CROP)


def _smoothed_warp(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray,
                   region: tuple[float, float, float, float], size: tuple[int, int]) -> np.ndarray:
    """Warp with a blur first when the crop shrinks the picture a lot, so fine print does not alias."""
    x0, y0, x1, y1 = region
    shrink = min((x1 - x0) * float(np.linalg.norm(right)) / size[0],
                 (y1 - y0) * float(np.linalg.norm(down)) / size[1])
    if shrink > 2.0:
        # Blur only the neighbourhood that the crop reads.
        corners = region_corners(origin, right, down, region)
        lo = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 4, 0)
        hi = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 4, [image.shape[1], image.shape[0]])
        if np.all(hi > lo):
            patch = cv2.GaussianBlur(image[lo[1]:hi[1], lo[0]:hi[0]], (0, 0), 0.4 * shrink)
            return warp_region(patch, np.asarray(origin) - lo, right, down, region, size)
    return warp_region(image, origin, right, down, region, size)
