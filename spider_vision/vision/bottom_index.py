"""Stage 3g (read by the reader): each column's exposed card read at its bottom-right index as well.

A column's last card shows its whole face, and most decks print the index
again in the corner diagonally opposite, turned half round. The reader reads
that corner turned back upright, and its beliefs join those of the top index
as a second, weaker piece of evidence (``BOTTOM_WEIGHT``: the same reader
reading the same print in the same light makes the same kind of mistake, so
the two reads are not independent). Where the top index is unsure (small
print, an unfamiliar face, a court's letter that looks like another), the
second read often settles it; where the bottom corner lies off the picture
it is left alone.
"""

from __future__ import annotations

import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.framing import reaches_past_edge
from spider_vision.vision.geometry import CORNER_REGION, corner_crop, region_corners
from spider_vision.vision.hidden import turned_frame
from spider_vision.vision.models import Models

__all__ = ["BOTTOM_WEIGHT", "SURE_TOP", "read_bottom_indices"]

BOTTOM_WEIGHT = 0.5
"""Power of the bottom index's rank and suit beliefs multiplied into the top index's. On the first
600 + 600 held-out tables of ``bench/vision.py`` (the stage after the pips are counted, ``SURE_TOP``
0.9): cards read right 12,399 -> 12,418 and 12,513 -> 12,529, read wrong 237 -> 237 and 234 -> 240,
exact positions 209 -> 215 and 229 -> 232; on the next 400 + 400, right +11 and +10, wrong -3 and -1,
exact +3 and 0. A power of 1 read 7 and 10 more cards wrong on the first tables (where both indices
agree on a wrong card, the product is surer than either), 0.35 did no better than 0.5. Most of the new
wrong reads lie under a hand. The detector's frame is used as it is: moved onto the paper's edges
first (``pips.fit_face``), it read 2 and 3 more cards wrong."""
SURE_TOP = 0.9
"""The top index's rank and suit beliefs at or above which the bottom index is not read: on the first
600 + 600 tables reading every exposed card's bottom index gained nothing over this (one and two cards
fewer right) and took 5-6 ms more a 1080p frame."""


def read_bottom_indices(image: np.ndarray, models: Models, detections: Detections, exposed: list[int],
                        rank: np.ndarray, suit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (n, 13) and suit (n, 4) beliefs with the bottom index of each ``exposed`` detection (the
    columns' last cards) folded in, where the top index is less than ``SURE_TOP`` sure and that corner
    lies inside the picture."""
    height, width = image.shape[:2]
    exposed = [i for i in exposed if min(rank[i].max(), suit[i].max()) < SURE_TOP]
    frames = [turned_frame(detections.origins[i], detections.rights[i], detections.downs[i]) for i in exposed]
    inside = [(i, frame) for i, frame in zip(exposed, frames)
              if not reaches_past_edge(region_corners(*frame, CORNER_REGION), (width, height), 0.0)]
    if not inside:
        return rank, suit
    bottom_rank, bottom_suit, _ = models.read(np.stack([corner_crop(image, *frame) for _, frame in inside]))
    rank, suit = rank.copy(), suit.copy()
    rows = np.array([i for i, _ in inside])
    rank[rows] = _normalised(rank[rows] * bottom_rank ** BOTTOM_WEIGHT)
    suit[rows] = _normalised(suit[rows] * bottom_suit ** BOTTOM_WEIGHT)
    return rank, suit


def _normalised(beliefs: np.ndarray) -> np.ndarray:
    return beliefs / np.maximum(beliefs.sum(axis=1, keepdims=True), 1e-12)
