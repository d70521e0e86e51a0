"""A second, classical look at a whole card face: how many pips it shows.

The corner reader's worst confusions are between number ranks (a 4 read as
a 6, a T as a 6, a 2 as a 3), and a second read of the same index by the
same network makes the same mistakes. A card that nothing covers (the last
card of a column, such as a card just turned over) shows its whole face,
and on number cards the pips in the middle count the rank. The count comes
from other pixels by another method, so its errors are its own: it is
multiplied into the reader's rank probabilities as a likelihood.

The detector's frame of the card is first moved onto the paper's own
bottom edge and sides (``fit_face``): judged from the corner index, it is
often a few percent too tall or short. The face's middle (the corner
indices left out) is then warped to a small upright patch; pixels far from
the paper's colour are ink. A large blob of anything not paper (a court's
picture, an ace's big pip, a hand, the table where the frame is off) means
the face says nothing. Blobs of ink that touch the patch's edge are cut
pieces of an index or a frame; of the rest, those about the size of the
largest ones are the pips. Every card lays its pips out the same way
(symmetric under a half turn, a 7 with one odd pip; two or three in the
middle column, or else as many down each side, the four corners at least),
so a count laid out otherwise is rejected: an index piece or a neighbour's
edge adds pips on one side only, a frame turned against the card loses some.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import cv2
import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.geometry import warp_region

__all__ = ["MIN_CARD_HEIGHT", "SURE_RANK", "count_pips", "fit_face", "lab_colours", "rank_likelihood", "weigh_ranks"]

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
MIN_CARD_HEIGHT = 50.0
"""Pixels (the detector's card height) under which a card is not counted: its pips are a few pixels wide.
On idle frames of 53 tracking-benchmark videos (960x540), 184 of 201 number cards 50-55 px tall were
counted, every one right; the 73 under 50 px (63 counted, all right) are too few to vouch for smaller cards."""
MAX_COUNT = 14
OFF_MIDDLE = 0.08
"""How far (in patch widths and heights) the middle of the pips' extent may lie from the patch's middle."""
SEARCH = (-0.15, 0.0, 1.15, 1.3)
"""Where the card's sides and bottom are looked for, in card widths and heights from the top-left corner."""
SEARCH_PATCH = (52, 104)
PAPER_SHARE = 0.5
"""A column of the face is mostly paper (pips and index take less)."""
OFF_CARD = 0.25
"""A row past the card's bottom edge is hardly paper at all (a row through two large pips is half paper)."""
HEIGHT_RANGE = (0.75, 1.2)
"""Where the paper's bottom edge may lie, in the detector's card heights, to be believed."""
WIDTH_RANGE = (0.9, 1.08)
"""The paper's width, in the detector's card widths, to be believed: a neighbouring column's card that
touches this one looks like more of its paper."""
SIDE = 0.12
"""A pip this far (in patch widths) from the pips' middle lies in a side column, not the middle one."""
STRAIGHT = 0.1
"""How far apart (in patch widths) the pips of one side column may lie across: more, and the frame is
turned against the card, which can hide pips at the patch's edge."""
SYMMETRY = 0.06
"""A pip turned half about the pips' middle lands within this share of the patch's diagonal of another."""

SURE_RANK = 0.9
"""A rank read with at least this chance is not counted. It has the value of ``models.SURE_READ`` but
was measured on its own, so the two are set apart. Counting a card takes about 1.7 ms, 17 ms of a
1920x1080 frame, and on 120 held-out 1080p tables it turned none of the 1016 reads that sure to another
rank (3 of 86 less sure ones). ``bench/vision.py`` gave the same figures with and without it at
1280x720 (one uncertain card more on the unseen style, no card fewer right) and at 1920x1080 one card
more right and one fewer of about 2000 each."""
RIGHT = 0.8
"""Chance that a number card's count, when given, is exactly its pips (`bench/pips.py` on held-out
tables: 98.5-99.5%; 0.8 leaves room for decks and light the renders lack; the rest are off by one, or
by two where the detector's frame is far off)."""
NEAR = 0.06
"""Chance of one pip more or fewer (a pip cut by a neighbour, an index piece that got in)."""
COURT = RIGHT
"""Likelihood of 1-3 blobs on a court card (its letter, frame or picture in a few pieces): as high as a
number card's own count, so that a count of 1 to 3 never weighs against a court. Four blobs are no court:
none of about 1,000 courts counted on held-out tables and video frames gave four (four corner pips are
what the layout test asks of a four)."""
FAR = 0.01


def count_pips(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray) -> int | None:
    """The pips on the card face in the frame (``origin``, ``right``, ``down``); ``None``: the face says nothing."""
    origin, right, down = fit_face(image, origin, right, down)
    width, height = PATCH
    patch = warp_region(image, origin, right, down, PIP_REGION, PATCH)
    lab = lab_colours(patch)
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


def fit_face(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frame (``origin``, ``right``, ``down``) moved onto the paper's own bottom edge and sides.

    The detector's frame of a card is often a few percent off, mostly in its
    height (it is judged from the corner index alone), and then the pip
    patch takes in the table under the card (a large blob: no count) or
    loses the last row of pips (not symmetric: no count). The face's paper
    shows where the card ends: the first row below its middle that is hardly
    paper at all, and the run of mostly-paper columns around its middle. The
    top is kept (the card above an uncovered one is paper too), and so is
    any edge found too far from the frame's (``HEIGHT_RANGE``, ``WIDTH_RANGE``).
    """
    x0, y0, x1, y1 = SEARCH
    width, height = SEARCH_PATCH
    lab = lab_colours(warp_region(image, origin, right, down, SEARCH, SEARCH_PATCH))
    col = _cells(x0, x1, width)
    row = _cells(y0, y1, height)
    paper = np.median(lab[row(0.3):row(0.7), col(0.15):col(0.85)].reshape(-1, 3), axis=0)
    is_paper = np.linalg.norm(lab - paper, axis=2) < INK
    rows = is_paper[:, col(0.1):col(0.9)].mean(axis=1)
    below = np.nonzero(rows[row(0.6):] < OFF_CARD)[0]
    bottom = (row(0.6) + int(below[0])) / height * (y1 - y0) + y0 if len(below) else 1.0
    if not HEIGHT_RANGE[0] <= bottom <= HEIGHT_RANGE[1]:
        bottom = 1.0
    columns = is_paper[row(0.1):row(bottom), :].mean(axis=0) >= PAPER_SHARE
    middle = col(0.5)
    left, far = 0.0, 1.0
    if columns[middle]:
        start = middle - int(np.argmin(columns[middle::-1])) + 1 if not columns[:middle + 1].all() else 0
        end = middle + int(np.argmin(columns[middle:])) if not columns[middle:].all() else width
        sides = [x0 + cell / width * (x1 - x0) for cell in (start, end)]
        if WIDTH_RANGE[0] <= sides[1] - sides[0] <= WIDTH_RANGE[1]:
            left, far = sides
    origin = np.asarray(origin, np.float64)
    return origin + left * np.asarray(right), (far - left) * np.asarray(right), bottom * np.asarray(down)


def _cells(low: float, high: float, cells: int) -> Callable[[float], int]:
    """Where a coordinate in card units falls among ``cells`` pixels spanning ``low`` to ``high``."""
    return lambda value: int(round((value - low) / (high - low) * cells))


def lab_colours(patch: np.ndarray) -> np.ndarray:
    """CIE Lab of a small BGR patch, L scaled to 0..255 as in OpenCV's 8-bit Lab (the thresholds' scale).

    Computed here: OpenCV spreads the conversion of even a tiny patch over
    its threads, which took a millisecond a card on a busy machine.
    """
    xyz = LINEAR[patch[..., ::-1]] @ RGB_TO_XYZ.T
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    lightness = (116.0 * f[..., 1] - 16.0) * 2.55
    return np.stack([lightness, 500.0 * (f[..., 0] - f[..., 1]), 200.0 * (f[..., 1] - f[..., 2])], axis=-1)


def _lopsided(centres: np.ndarray, width: int, height: int) -> bool:
    """Whether the pips are not laid out as on every card: symmetric under a half turn (one odd pip
    allowed on a 7), two or three in the middle column, or else as many in the left column as in the
    right, at least two each (the four corner pips).

    The half turn is about the middle of the pips' extent, which must lie near the patch's middle:
    a frame a little off moves every pip alike. A lone blob must lie in the middle (an ace's pip,
    a court's letter). The columns rule out a symmetric part of a layout whose other pips were lost
    (a 4's two diagonal pips are no 2).
    """
    middle = (centres.min(axis=0) + centres.max(axis=0)) / 2
    if np.any(np.abs(middle - np.array([width, height]) / 2) > OFF_MIDDLE * np.array([width, height])):
        return True
    across = (centres[:, 0] - middle[0]) / width
    if len(centres) in (2, 3):
        if np.any(np.abs(across) > SIDE):
            return True
    elif len(centres) >= 4:
        left, right = across < -SIDE, across > SIDE
        if left.sum() != right.sum() or left.sum() < 2:
            return True
        if max(np.ptp(across[left]), np.ptp(across[right])) > STRAIGHT:
            return True
    turned = 2 * middle - centres
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
    out[10:] = COURT if 1 <= count <= 3 else FAR
    return out


def weigh_ranks(rank: np.ndarray, image: np.ndarray, detections: Detections, uncovered: list[int]) -> np.ndarray:
    """Rank probabilities (n, 13) with the pip count of each uncovered card multiplied in.

    ``uncovered`` lists the detections whose whole face shows; cards under
    ``MIN_CARD_HEIGHT`` pixels, and cards whose rank is read with at least
    ``SURE_RANK``, are left alone.
    """
    rank = rank.copy()
    for i in uncovered:
        origin, right, down = detections.origins[i], detections.rights[i], detections.downs[i]
        if float(np.linalg.norm(down)) < MIN_CARD_HEIGHT or float(rank[i].max()) >= SURE_RANK:
            continue
        count = count_pips(image, origin, right, down)
        if count is not None:
            rank[i] = _times(rank[i], rank_likelihood(count))
    return rank


def _times(probabilities: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    weighted = probabilities * likelihood
    total = weighted.sum()
    return weighted / total if total > 0 else probabilities
