"""The second corner index of a column's last card: bottom right, turned by 180 degrees.

Nothing covers the last card of a column, so its index shows twice, and two
looks at one card beat one. The detector frames a card from its top-left
index; extended to the far corner, the frame's small errors in length and
angle grow to a tenth of a card, more than the reader tolerates, so the
card's bottom and right edges are found in the picture first: along each
axis of the card frame, the strongest fall in brightness (paper to table)
near where the frame puts the edge, in a high percentile across the card,
so that pips, indices and pictures do not count.
"""

from __future__ import annotations

import cv2
import numpy as np

from spider_vision.vision.geometry import CORNER_REGION, warp_region

__all__ = ["EDGE_SEARCH", "edge_position", "far_corner_frame"]

EDGE_SEARCH = {"down": (0.8, 1.2), "right": (0.85, 1.15)}
"""Where a card's bottom and right edges are looked for, in units of the detector's down and right
vectors (their lengths are off by up to about 11% and 7% at the 90th percentile)."""
ACROSS = {"down": (0.05, 0.95), "right": (0.5, 0.9)}
"""The band across the card whose brightness makes the profile: for the right edge, below the column's
cards before it (they show above the last card's middle)."""
PAPER = 90.0
"""The percentile of the band taken as the profile: bright wherever a tenth of the band is paper, so that
pips, indices and court pictures, which leave paper around them, do not count as edges."""
SAMPLES = 80
"""Profile samples over the search span."""
MIN_STEP = 8.0
"""Grey levels: a weaker fall is no edge (a card on a table as light as itself); the frame is kept."""


def edge_position(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray, axis: str) -> float:
    """Where the card's bottom (``axis`` "down") or right edge lies, in units of that frame vector."""
    lo, hi = EDGE_SEARCH[axis]
    a0, a1 = ACROSS[axis]
    if axis == "down":
        patch = warp_region(image, origin, right, down, (a0, lo, a1, hi), (24, SAMPLES))
    else:
        patch = warp_region(image, origin, right, down, (lo, a0, hi, a1), (SAMPLES, 24))
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    profile = np.percentile(grey, PAPER, axis=1 if axis == "down" else 0)
    profile = np.convolve(profile, np.ones(3) / 3, mode="same")
    # Paper is brighter than the table: going out of the card the picture darkens. (The frame
    # of a court card's picture darkens going in, so it does not count.)
    steps = -np.diff(profile)[2:-2]
    if not len(steps) or float(steps.max()) < MIN_STEP:
        return 1.0
    return lo + (int(np.argmax(steps)) + 3) * (hi - lo) / SAMPLES


def far_corner_frame(image: np.ndarray, origin: np.ndarray, right: np.ndarray,
                     down: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The card frame (origin, right, down) of the bottom-right index turned upright, or ``None``
    when its corner crop would reach past the picture's edge."""
    right = np.asarray(right, np.float64) * edge_position(image, origin, right, down, "right")
    down = np.asarray(down, np.float64) * edge_position(image, origin, right, down, "down")
    corner = np.asarray(origin, np.float64) + right + down
    x0, y0, x1, y1 = CORNER_REGION
    reach = np.array([corner - a * right - b * down for a in (x0, x1) for b in (y0, y1)])
    height, width = image.shape[:2]
    if not np.all((reach >= 0) & (reach <= np.array([width - 1, height - 1]))):
        return None
    return corner, -right, -down
