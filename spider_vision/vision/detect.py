"""Stage 1: find the corner index of every face-up card and the geometry of its card.

The detector's heat map peaks at corner-index centres; at each peak it also
regresses the card's top-left corner and its right and down vectors, so one
peak gives a whole card frame; a table seen from afar is detected again,
enlarged, and a table turned in the picture again, turned upright.
``Detections`` holds them as arrays in the input picture's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import cv2
import numpy as np

from spider_vision.vision.geometry import DETECT_WIDTH
from spider_vision.vision.models import Models

__all__ = ["Detections", "detect_cards", "scale_for_detection", "table_roll"]

STRIDE = 4
REGRESSION_SCALE = 32.0
PEAK_THRESHOLD = 0.3
PEAK_KERNEL = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
"""The neighbours a peak must top (see ``find_peaks``)."""
MAX_CARDS = 250
"""Two decks are 104 cards; more peaks than this are noise."""
TURNED = 45.0
"""Degrees: a card turned further than this from the table's consensus is a corner index seen from the wrong end."""
UPRIGHT = 20.0
"""Degrees: a table turned further than this in the picture is detected again turned upright."""
CONFIDENT = 0.5
"""Peaks at least this strong vote on the table's down direction."""
SIDEWAYS = (0.2, 0.7)
"""Card widths: a card this far sideways from a stronger card whose face holds its index is a pip, not a card."""
ZOOM_TO = 72.0
"""Card height (detector pixels) the enlarged crop aims at: the upper part of what the detector was
trained on (about 40-76 pixels), where it finds small indices more often and frames them more
precisely (``bench/vision.py`` and ``bench/tracking.py``: better than 56, the middle, and than 84)."""
ZOOM_MIN = 1.2
"""An enlargement smaller than this is not worth a second pass: cards from about ZOOM_TO / ZOOM_MIN
(60 pixels tall at the detector's scale) up are detected once."""
ZOOM_AREA = 2.0
"""The enlarged crop has at most this many times the pixels of the first pass (time is bounded)."""
MERGE_FROM = 48.0
"""Card height (detector pixels) in the first pass from which its cards that the enlarged pass missed
are kept: on cards this size it rarely takes a pip for an index (on smaller ones it does, which the
second pass is for), and the enlarged pass now and then misses a whole card it found."""


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

    @classmethod
    def joined(cls, parts: list[Detections]) -> Detections:
        """The detections of ``parts`` one after another, in that order."""
        return cls(*(np.concatenate([getattr(part, field.name) for part in parts]) for field in fields(cls)))

    def subset(self, keep: np.ndarray) -> Detections:
        return Detections(self.scores[keep], self.centres[keep], self.origins[keep], self.rights[keep],
                          self.downs[keep], self.index_sizes[keep])

    def quads(self) -> np.ndarray:
        """Whole-card quadrilaterals (n, 4, 2): top-left, top-right, bottom-right, bottom-left."""
        o, r, d = self.origins, self.rights, self.downs
        return np.stack([o, o + r, o + r + d, o + d], axis=1)


def scale_for_detection(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The picture with its longer side at ``DETECT_WIDTH`` (the other rounded to a multiple of the stride)
    and the scale used.

    A portrait picture (a phone held upright, a camera at the table's side) is
    scaled by its height, so that its cards come out the size a landscape
    picture's do, and it costs the detector no more.
    """
    height, width = image.shape[:2]
    scale = DETECT_WIDTH / max(width, height)
    size = (DETECT_WIDTH, _stride_multiple(height * scale)) if width >= height else \
        (_stride_multiple(width * scale), DETECT_WIDTH)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


def _stride_multiple(length: float) -> int:
    """``length`` pixels rounded to a whole number of the detector's double stride, at least two of them."""
    return max(STRIDE * 4, int(round(length / (STRIDE * 2))) * STRIDE * 2)


def detect_cards(models: Models, image: np.ndarray, threshold: float = PEAK_THRESHOLD, *,
                 roll: float | None = None) -> Detections:
    """Every face-up card whose corner index the detector finds in a BGR picture.

    A table seen from afar (cards under about 60 pixels tall at the
    detector's scale) is detected again on a crop around the cards, enlarged
    towards ``ZOOM_TO``: the detector learned cards of about that size, and
    on much smaller ones it takes pips for corner indices. A table turned in
    the picture (a camera at the table's side or across it) is detected again
    on the cards turned upright (``_detect_turned``). ``roll`` (degrees, as
    ``table_roll`` gives it) says which way the table is turned instead of
    the cards of the first pass.
    """
    small, scale = scale_for_detection(image)
    to_picture = np.array([[image.shape[1] / small.shape[1], 0.0, 0.0], [0.0, image.shape[0] / small.shape[0], 0.0]])
    detections = _detect_scaled(models, small, to_picture, threshold)
    if roll is None:
        roll = table_roll(detections)
    roll = (roll + 180.0) % 360.0 - 180.0
    if abs(roll) > UPRIGHT:
        turned = _detect_turned(models, image, small, to_picture, detections, roll, threshold)
        return turned if len(turned) else detections
    zoom = _zoom_box(detections, image.shape[:2], scale)
    if zoom is None:
        return detections
    (x0, y0, x1, y1), zoomed = zoom
    columns, rows = _stride_multiple((x1 - x0) * zoomed), _stride_multiple((y1 - y0) * zoomed)
    crop = cv2.resize(image[y0:y1, x0:x1], (columns, rows), interpolation=cv2.INTER_LINEAR)
    to_crop = np.array([[(x1 - x0) / columns, 0.0, float(x0)], [0.0, (y1 - y0) / rows, float(y0)]])
    found = _detect_scaled(models, crop, to_crop, threshold)
    if float(np.median(np.linalg.norm(detections.downs, axis=1))) * scale < MERGE_FROM:
        return found
    return _merge(found, detections)


def table_roll(detections: Detections) -> float:
    """Degrees the table's down direction is turned from the picture's, anticlockwise as seen (0 when no card).

    The cards left after ``_plausible`` agree on it within ``TURNED``; their
    median direction is taken.
    """
    if not len(detections):
        return 0.0
    units = detections.downs / np.maximum(np.linalg.norm(detections.downs, axis=1), 1e-9)[:, None]
    down = np.median(units, axis=0)
    return float(np.degrees(np.arctan2(down[0], down[1])))


def _detect_turned(models: Models, image: np.ndarray, small: np.ndarray, small_to_picture: np.ndarray,
                   first: Detections, roll: float, threshold: float) -> Detections:
    """The cards detected again on the region around them, turned ``roll`` degrees upright.

    The detector learned mostly upright tables (four scenes in five are
    turned a few degrees at most), and on a turned one it frames cards less
    well and takes edges of face-down cards for more of them. The region is
    enlarged as ``_zoom_box`` would enlarge it, within the same budget; when
    it is not, the first pass's scaled picture is turned, so that the
    picture is shrunk as smoothly as in the first pass.
    """
    if len(first) < 3:
        return first
    angle = np.radians(roll)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    card_height = float(np.median(np.linalg.norm(first.downs, axis=1)))
    height, width = image.shape[:2]
    picture = np.array([[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]]) @ rotation.T
    cards = first.quads().reshape(-1, 2) @ rotation.T
    low = np.maximum(cards.min(axis=0) - card_height, picture.min(axis=0))
    high = np.minimum(cards.max(axis=0) + card_height, picture.max(axis=0))
    if np.any(high - low < 32):
        return first
    scale = 1.0 / small_to_picture[0, 0]
    target = _detection_scale(card_height, float(np.prod(high - low)), small.shape[0] * small.shape[1], scale)
    columns, rows = _stride_multiple((high[0] - low[0]) * target), _stride_multiple((high[1] - low[1]) * target)
    # Picture pixels to turned pixels: turn, shift the region to the origin, scale to the canvas.
    to_turned = np.hstack([rotation, -low[:, None]]) * np.array([[columns / (high[0] - low[0])],
                                                                  [rows / (high[1] - low[1])]])
    if target < scale * ZOOM_MIN:
        source, source_to_picture = small, small_to_picture
    else:
        source, source_to_picture = image, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    warp = _compose(to_turned, source_to_picture)
    turned = cv2.warpAffine(source, warp, (columns, rows), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _detect_scaled(models, turned, cv2.invertAffineTransform(to_turned), threshold)


def _compose(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """The 2x3 affine map ``outer`` after ``inner``."""
    return np.hstack([outer[:, :2] @ inner[:, :2], (outer[:, :2] @ inner[:, 2] + outer[:, 2])[:, None]])


def _merge(zoomed: Detections, first: Detections) -> Detections:
    """The enlarged pass's detections, with the first pass's cards it missed added.

    The enlarged pass frames cards better, but on cards of middling size
    (``MERGE_FROM`` up) it misses now and then a card the first pass found, a
    whole, exposed card among them (which the tracker takes as strong evidence
    that the card is not there). A first-pass detection whose index no enlarged
    one points at is kept; the union is checked for plausibility again (a pip
    beside a stronger card goes).
    """
    if not len(first) or not len(zoomed):
        return zoomed if len(zoomed) else first
    distance = np.linalg.norm(first.centres[:, None] - zoomed.centres[None], axis=2)
    reach = _index_reach(np.maximum(first.index_sizes[:, None, 1], zoomed.index_sizes[None, :, 1]))
    missed = np.flatnonzero(~(distance <= reach).any(axis=1))
    if not len(missed):
        return zoomed
    union = Detections.joined([zoomed, first.subset(missed)])
    return union.subset(np.flatnonzero(_plausible(union)))


def _zoom_box(detections: Detections, shape: tuple[int, ...],
              scale: float) -> tuple[tuple[int, int, int, int], float] | None:
    """The crop (x0, y0, x1, y1) around the cards and the scale to detect it at, or ``None`` when
    there are too few cards to tell or the crop would not grow them by ``ZOOM_MIN``."""
    if len(detections) < 3:
        return None
    card_height = float(np.median(np.linalg.norm(detections.downs, axis=1)))
    if card_height <= 1.0:
        return None
    corners = detections.quads().reshape(-1, 2)
    height, width = shape[0], shape[1]
    x0, y0 = np.maximum(corners.min(axis=0) - card_height, 0)
    x1, y1 = np.minimum(corners.max(axis=0) + card_height, (width, height))
    x0, y0, x1, y1 = int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))
    if x1 - x0 < 32 or y1 - y0 < 32:
        return None
    zoomed = _detection_scale(card_height, (x1 - x0) * (y1 - y0), width * height * scale**2, scale)
    if zoomed < scale * ZOOM_MIN:
        return None
    return (x0, y0, x1, y1), zoomed


def _detection_scale(card_height: float, region_area: float, first_area: float, scale: float) -> float:
    """The scale to detect a region of ``region_area`` picture pixels at, after a first pass at ``scale``
    over ``first_area`` detector pixels.

    Enlarged towards ``ZOOM_TO`` when that grows the cards by ``ZOOM_MIN``
    at least, else the first pass's scale; either way the region gets at
    most ``ZOOM_AREA`` times the first pass's pixels, so time is bounded.
    """
    budget = float(np.sqrt(ZOOM_AREA * first_area / region_area))
    zoomed = ZOOM_TO / max(card_height, 1.0)
    return min(zoomed, budget) if zoomed >= scale * ZOOM_MIN else min(scale, budget)


def _detect_scaled(models: Models, small: np.ndarray, to_picture: np.ndarray, threshold: float) -> Detections:
    """Detections in ``small`` (the picture scaled, or a crop of it turned or enlarged), mapped into the
    picture's pixels by the 2x3 affine map ``to_picture``."""
    maps = models.detect(small)
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    rows, cols = find_peaks(heat, threshold)
    scores = heat[rows, cols]
    strongest = np.argsort(-scores)[:MAX_CARDS]
    rows, cols, scores = rows[strongest], cols[strongest], scores[strongest]
    cell = np.stack([STRIDE * cols + 2, STRIDE * rows + 2], axis=1).astype(np.float64)
    values = maps[1:, rows, cols].T.astype(np.float64) * REGRESSION_SCALE
    linear, shift = to_picture[:, :2], to_picture[:, 2]
    centres = (cell + values[:, 0:2]) @ linear.T + shift
    origins = (cell + values[:, 2:4]) @ linear.T + shift
    rights = values[:, 4:6] @ linear.T
    downs = values[:, 6:8] @ linear.T
    sizes = values[:, 8:10] * float(np.linalg.norm(linear[:, 0]))
    detections = Detections(scores, centres, origins, rights, downs, sizes)
    detections = detections.subset(_suppress(detections))
    return detections.subset(np.flatnonzero(_plausible(detections)))


def find_peaks(heat: np.ndarray, threshold: float = PEAK_THRESHOLD) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the cells above ``threshold`` that are the highest of their four neighbours.

    Four, not eight: in a tight cascade seen from afar the next card's index
    lies two cells below the one before and one aside, so its corner touches
    the blob before it (peaks pointing at the same index are suppressed later).
    """
    rows, cols = np.nonzero((heat >= cv2.dilate(heat, PEAK_KERNEL)) & (heat > threshold))
    return rows, cols


def _suppress(detections: Detections) -> np.ndarray:
    """Indices of the detections kept after dropping weaker peaks that point at the same index."""
    order = np.argsort(-detections.scores)
    centres = detections.centres[order]
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    reach = _index_reach(detections.index_sizes[order, 1])
    kept = np.ones(len(order), bool)
    for i in range(len(order)):
        if kept[i]:
            kept[i + 1:] &= distance[i, i + 1:] > reach[i]
    return np.sort(order[kept])


def _index_reach(heights: np.ndarray) -> np.ndarray:
    """How near two detections' index centres lie when they point at the same index of this height."""
    return 0.5 * np.maximum(heights, 4.0)


def _consensus(units: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The table's down direction (a unit vector) from the voters' unit down vectors.

    Each voter's camp is the voters within ``TURNED`` of it; the camp with the
    largest summed score wins, and its median direction is the consensus. A
    median of all votes is not enough: where whole faces show, a card's far
    index, upside down, can be found about as often as its top one, and the
    median of two opposite camps points across both, which sets every card
    aside.
    """
    agree = units @ units.T >= np.cos(np.radians(TURNED))
    camp = agree[int(np.argmax(agree @ scores))]
    angles = np.arctan2(units[camp, 0], units[camp, 1])
    consensus = np.array([np.median(np.sin(angles)), np.median(np.cos(angles))])
    return consensus / max(float(np.linalg.norm(consensus)), 1e-9)


def _plausible(detections: Detections) -> np.ndarray:
    """Which detections can be cards of one table (a boolean mask).

    Two kinds of false peak are dropped. A card's far corner shows its index
    upside down; read as a top-left index it gives a card turned about 180
    degrees from the rest, so a card turned more than ``TURNED`` from the
    confident cards' median down direction goes. A pip or picture on a card's
    face gives an index inside a stronger card but a card frame shifted
    sideways from it; a real card covering another (a column cascade) lies
    straight below it, and a neighbouring column about a whole width aside.
    """
    n = len(detections)
    keep = np.ones(n, bool)
    if n < 3:
        return keep
    lengths = np.maximum(np.linalg.norm(detections.downs, axis=1), 1e-9)
    units = detections.downs / lengths[:, None]
    voters = detections.scores >= CONFIDENT
    if voters.sum() < 3:
        voters = np.ones(n, bool)
    keep &= units @ _consensus(units[voters], detections.scores[voters]) >= np.cos(np.radians(TURNED))
    # Frame coordinates of every detection's index centre and origin in every other card's frame.
    frames = np.stack([detections.rights, detections.downs], axis=2)
    determinant = np.abs(np.linalg.det(frames))
    inverse = np.linalg.inv(np.where(determinant[:, None, None] > 1e-6, frames, np.eye(2)))
    centre_uv = np.einsum("jab,ijb->ija", inverse, detections.centres[:, None] - detections.origins[None])
    origin_uv = np.einsum("jab,ijb->ija", inverse, detections.origins[:, None] - detections.origins[None])
    inside = np.all((centre_uv >= 0) & (centre_uv <= 1), axis=2)
    sideways = (np.abs(origin_uv[..., 0]) > SIDEWAYS[0]) & (np.abs(origin_uv[..., 0]) < SIDEWAYS[1])
    stronger = detections.scores[None, :] > detections.scores[:, None]
    conflict = inside & sideways & stronger & keep[None, :] & (determinant[None, :] > 1e-6)
    keep &= ~conflict.any(axis=1)
    return keep
