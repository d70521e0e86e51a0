"""Stage 1: find the corner index of every face-up card and the geometry of its card.

The detector's heat map peaks at corner-index centres; at each peak it also
regresses the card's top-left corner and its right and down vectors, so one
peak gives a whole card frame. ``Detections`` holds them as arrays in the
input picture's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from spider_vision.vision.geometry import DETECT_WIDTH
from spider_vision.vision.models import Models

__all__ = ["Detections", "detect_cards", "scale_for_detection"]

STRIDE = 4
REGRESSION_SCALE = 32.0
PEAK_THRESHOLD = 0.3
MAX_CARDS = 250
"""Two decks are 104 cards; more peaks than this are noise."""


@dataclass(frozen=True)
class Detections:
    """Face-up cards found: score, index centre, card top-left corner, right and down vectors, index size."""

    scores: np.ndarray
    centres: np.ndarray
    origins: np.ndarray
    rights: np.ndarray
    downs: np.ndarray
    index_sizes: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def subset(self, keep: np.ndarray) -> Detections:
        return Detections(self.scores[keep], self.centres[keep], self.origins[keep], self.rights[keep],
                          self.downs[keep], self.index_sizes[keep])

    def quads(self) -> np.ndarray:
        """Whole-card quadrilaterals (n, 4, 2): top-left, top-right, bottom-right, bottom-left."""
        o, r, d = self.origins, self.rights, self.downs
        return np.stack([o, o + r, o + r + d, o + d], axis=1)


def scale_for_detection(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The picture at ``DETECT_WIDTH`` (height rounded to a multiple of the stride) and the scale used."""
    height, width = image.shape[:2]
    scale = DETECT_WIDTH / width
    rows = max(STRIDE * 4, int(round(height * scale / (STRIDE * 2))) * STRIDE * 2)
    small = cv2.resize(image, (DETECT_WIDTH, rows), interpolation=cv2.INTER_AREA)
    return small, scale


def detect_cards(models: Models, image: np.ndarray, threshold: float = PEAK_THRESHOLD) -> Detections:
    """Every face-up card whose corner index the detector finds in a BGR picture."""
    small, scale = scale_for_detection(image)
    scale_y = small.shape[0] / image.shape[0]
    maps = models.detect(small)
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    rows, cols = np.nonzero(peaks)
    scores = heat[rows, cols]
    strongest = np.argsort(-scores)[:MAX_CARDS]
    rows, cols, scores = rows[strongest], cols[strongest], scores[strongest]
    cell = np.stack([STRIDE * cols + 2, STRIDE * rows + 2], axis=1).astype(np.float64)
    values = maps[1:, rows, cols].T.astype(np.float64) * REGRESSION_SCALE
    unscale = np.array([1 / scale, 1 / scale_y])
    centres = (cell + values[:, 0:2]) * unscale
    origins = (cell + values[:, 2:4]) * unscale
    rights = values[:, 4:6] * unscale
    downs = values[:, 6:8] * unscale
    sizes = values[:, 8:10] / scale
    detections = Detections(scores, centres, origins, rights, downs, sizes)
    return detections.subset(_suppress(detections))


def _suppress(detections: Detections) -> np.ndarray:
    """Indices of the detections kept after dropping weaker peaks that point at the same index."""
    order = np.argsort(-detections.scores)
    centres = detections.centres[order]
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    reach = 0.5 * np.maximum(detections.index_sizes[order, 1], 4.0)
    kept = np.ones(len(order), bool)
    for i in range(len(order)):
        if kept[i]:
            kept[i + 1:] &= distance[i, i + 1:] > reach[i]
    return np.sort(order[kept])
