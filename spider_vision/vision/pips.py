"""A second, classical look at a whole card face: how many pips it shows.

The corner reader's worst confusions are between number ranks (a 4 read as
a 6, a T as a 6, a 2 as a 3), and a second read of the same index by the
same network makes the same mistakes. A card that nothing covers (the last
card of a column, such as a card just turned over) shows its whole face,
and on number cards the pips in the middle count the rank. The count comes
from other pixels by another method, so its errors are its own: it is
multiplied into the reader's rank probabilities as a likelihood.

The face's middle (the corner indices left out) is warped to a small
upright patch; pixels far from the paper's colour are ink. A large blob of
anything not paper (a court's picture, an ace's big pip, a hand, the table
where the frame is off) means the face says nothing. Blobs of ink that
touch the patch's edge are cut pieces of an index or a frame; of the rest,
those about the size of the largest ones are the pips. Every card lays its
pips out symmetric under a half turn (a 7 has one odd pip), so a count that
is not is rejected: an index piece or a neighbour's edge adds pips on one
side only.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.geometry import warp_region

__all__ = ["MIN_CARD_HEIGHT", "count_pips", "rank_likelihood", "weigh_ranks"]

logger = logging.getLogger(__name__)

PIP_REGION = (0.12, 0.06, 0.88, 0.94)
"""The face's middle, in card widths and heights from the top-left corner: the pips, not the indices."""
PATCH = (48, 72)
INK = 25.0
"""Lab distance from the paper's colour beyond which a pixel is ink (at least; more on contrasty faces)."""
RGB_TO_XYZ = (np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169],
                        [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0], [1.088754]])).astype(np.float32)
"""sRGB to CIE XYZ, divided by the D65 white (OpenCV's constants)."""
_LEVELS = np.arange(256) / 255.0
LINEAR = np.where(_LEVELS <= 0.04045, _LEVELS / 12.92, ((_LEVELS + 0.055) / 1.055) ** 2.4).astype(np.float32)
"""Linear light of each 8-bit sRGB level."""
MIN_BLOB = 4
PIP_SIZE = (0.45, 2.2)
"""A pip's area relative to the median of the largest blobs."""
BIG_BLOB = 0.08
"""A blob over this share of the patch is a picture, an ace's big pip or something over the card."""
MIN_CARD_HEIGHT = 65.0
"""Pixels: on smaller cards the pips blur into each other (`bench/pips.py`: 2 counts given for 29 number
cards under 65 px on held-out tables)."""
MAX_COUNT = 14
SYMMETRY = 0.06
"""A pip turned half about the face's centre lands within this share of the patch's diagonal of another."""

RIGHT = 0.8
"""Chance that a number card's count, when given, is exactly its pips (`bench/pips.py` on held-out
tables: 95-98%; the rest are off by one, or by several where a frame is far off)."""
NEAR = 0.06
"""Chance of one pip more or fewer (a pip cut by a neighbour, an index piece that got in)."""
COURT = RIGHT
"""Likelihood of 1-4 blobs on a court card (its letter, frame or picture in a few pieces): as high as a
number card's own count, so that a count of 1 to 4 never weighs against a court."""
FAR = 0.01


def count_pips(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray) -> int | None:
    """The pips on the card face in the frame (``origin``, ``right``, ``down``); ``None``: the face says nothing."""
    width, height = PATCH
    patch = warp_region(image, origin, right, down, PIP_REGION, PATCH)
    lab = _lab(patch)
    paper = np.median(lab.reshape(-1, 3), axis=0)
    distance = np.linalg.norm(lab - paper, axis=2)
    if _largest_blob((distance > INK).astype(np.uint8)) > BIG_BLOB * width * height:
        return None
    ink = (distance > max(INK, 0.5 * float(np.percentile(distance, 99)))).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    left, top, w, h, area = (stats[1:, k] for k in range(5))
    inside = (left > 0) & (top > 0) & (left + w < width) & (top + h < height) & (area >= MIN_BLOB)
    if not inside.any():
        return None
    typical = float(np.median(np.sort(area[inside])[-10:]))
    pips = inside & (area >= PIP_SIZE[0] * typical) & (area <= PIP_SIZE[1] * typical)
    centres = np.stack([left + w / 2.0, top + h / 2.0], axis=1)[pips]
    return None if _lopsided(centres, width, height) else min(len(centres), MAX_COUNT)


def _lab(patch: np.ndarray) -> np.ndarray:
    """CIE Lab of a small BGR patch, L scaled to 0..255 as in OpenCV's 8-bit Lab (the thresholds' scale).

    Computed here: OpenCV spreads the conversion of even a tiny patch over
    its threads, which took a millisecond a card on a busy machine.
    """
    xyz = LINEAR[patch[..., ::-1]] @ RGB_TO_XYZ.T
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    lightness = (116.0 * f[..., 1] - 16.0) * 2.55
    return np.stack([lightness, 500.0 * (f[..., 0] - f[..., 1]), 200.0 * (f[..., 1] - f[..., 2])], axis=-1)


def _lopsided(centres: np.ndarray, width: int, height: int) -> bool:
    """Whether the pips lack the half-turn symmetry of every card's layout (one odd pip allowed on a 7).

    A lone blob must lie in the middle (an ace's pip, a court's letter).
    """
    turned = np.array([width, height], float) - centres
    reach = SYMMETRY * np.hypot(width, height)
    unmatched = sum(float(np.min(np.hypot(*(centres - point).T))) > reach for point in turned)
    return unmatched > (1 if len(centres) >= 7 else 0)


def _largest_blob(mask: np.ndarray) -> int:
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if len(stats) > 1 else 0


def rank_likelihood(count: int) -> np.ndarray:
    """Likelihood (13,) of each rank A..K given ``count`` pips, up to a constant.

    A count above ten is taken as ten: a ten whose pips split or that an index piece got into
    (on the held-out tables of ``bench/pips.py``, 9 of 9 elevens and 1 of 2 twelves were tens, the
    other twelve a nine)."""
    count = min(count, 10)
    out = np.full(13, FAR)
    for rank in range(1, 11):
        gap = abs(count - rank)
        out[rank - 1] = RIGHT if gap == 0 else NEAR if gap == 1 else FAR
    out[10:] = COURT if 1 <= count <= 4 else FAR
    return out


def weigh_ranks(rank: np.ndarray, image: np.ndarray, detections: Detections, uncovered: list[int]) -> np.ndarray:
    """Rank probabilities (n, 13) with the pip count of each uncovered card multiplied in.

    ``uncovered`` lists the detections whose whole face shows; cards under
    ``MIN_CARD_HEIGHT`` pixels are left alone.
    """
    rank = rank.copy()
    for i in uncovered:
        origin, right, down = detections.origins[i], detections.rights[i], detections.downs[i]
        if float(np.linalg.norm(down)) < MIN_CARD_HEIGHT:
            continue
        count = count_pips(image, origin, right, down)
        if count is not None:
            rank[i] = _times(rank[i], rank_likelihood(count))
    return rank


def _times(probabilities: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    weighted = probabilities * likelihood
    total = weighted.sum()
    return weighted / total if total > 0 else probabilities
