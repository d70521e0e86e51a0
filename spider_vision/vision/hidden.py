"""Stage 3c (classical test, read by the reader): an exposed card whose top-left index is hidden.

Where columns lie close, or the camera looks across them, the cards of one
column cover the left edge of the next, and a card put on that column may
show its whole face but not its top-left index: the detector, which looks for
that index, misses it, and the card it covers is taken for the exposed one.
The face still shows where it ends: the paper of a column's last card found
goes on past that card's own bottom edge, by about one step of the cascade.
The exposed card's bottom-right index (printed turned, in the corner
diagonally opposite) then lies one step below where the covered card's would
be, and the reader reads it turned back upright. Such a card is added to its
column with an upright frame, and with the read of that bottom corner.

Three checks keep an ordinary column as it is: the paper must end about one
step below the last card, in an edge that shows (a card whose frame is
judged a little short ends closer; paper that goes on is more than one
card, or something else); the bottom index there must read confidently as
a card that the last one's top index all but rules out (a frame judged a
step short finds the last card's own index there); and the last card's own
bottom index must not read as itself (then nothing covers it).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np

from spider_vision.vision.cascade import STEP_RANGE, cascade_step
from spider_vision.vision.detect import Detections
from spider_vision.vision.geometry import card_units, corner_crop, warp_region
from spider_vision.vision.layout import Layout
from spider_vision.vision.models import Models
from spider_vision.vision.pips import INK, OFF_CARD, PAPER_SHARE, lab_colours
from spider_vision.vision.rules import joint_probabilities

__all__ = ["HIDDEN_SCORE", "Reads", "find_hidden_tops", "turned_frame"]

logger = logging.getLogger(__name__)

Reads = tuple[np.ndarray, np.ndarray, np.ndarray]
"""The reader's output for detections: rank (n, 13) and suit (n, 4) probabilities, embeddings (n, 64)."""

STEP_WINDOW = (0.5, 1.6)
"""Where the paper may end past the last card's bottom edge, in cascade steps, to be a card put on it
(anywhere a step may be, ``STEP_RANGE``, where too few cards show the table's step)."""
MIN_HEIGHT = 40.0
"""Pixels: on smaller cards the paper's edge and the bottom index are too few pixels to go by."""
TOP_MARGIN = (0.3, 0.95, 0.01, 0.09)
"""Where a card's paper colour is taken (x0, x1, y0, y1 in card units): the margin right of its index,
paper on every card (a court's picture and a number card's pips start lower)."""
ACROSS = (0.3, 0.9)
"""The part of the card's width whose rows are judged paper or not (the left part may lie under the
neighbouring column, which is paper too)."""
ROWS_PER_HEIGHT = 80
EDGE_BLUR = 0.05
"""Card heights past the paper's last row where the edge may still be half paper (blur, its shadow)."""
BEYOND = 0.15
"""Card heights past the farthest edge looked for that must show hardly any paper (``OFF_CARD``): the
edge is seen, not cut off by the end of the search."""
READ = 0.8
"""Reader confidence (joint rank and suit) at which a bottom index says which card lies there."""
SAME = 0.01
"""The last card's top index, read as the card below with at least this chance, may be that card: its
frame judged short puts its own bottom index where the next card's would be. ``bench/hidden.py`` on
65 held-out tables (40 of training styles, 25 of the unseen one), each column's exposed card dropped
from the detections in turn: 128 of 276 found again, every one read right; with every card kept, one
added, a real exposed card whose index a hand covered (0.05 also took a short frame's own index for a
card)."""
OWN_READ = 0.6
"""Reader confidence at which the last card's own bottom index, read as the card itself, shows it uncovered."""
HIDDEN_SCORE = 0.6
"""Detection score given to a card found this way: its paper and a confident read vouch for it (the
tracker takes a detection this strong for a card)."""


def turned_frame(origin: np.ndarray, right: np.ndarray, down: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card frame turned half round: its bottom-right corner becomes the top-left one, so the corner
    crop of this frame shows the bottom index upright."""
    return origin + right + down, -right, -down


def find_hidden_tops(image: np.ndarray, models: Models, detections: Detections, layout: Layout, reads: Reads
                     ) -> tuple[Detections, Layout, Reads]:
    """Detections with each column's exposed card added where only its face and bottom index show, the
    layout that ends those columns with it, and the reads with the added cards' (from their bottom index).

    ``reads`` are the reader's rank and suit probabilities and embeddings of every detection's top index
    (``Models.read``); added detections come after the others, in the detections and in the reads.
    """
    if not layout.columns:
        return detections, layout, reads
    step = cascade_step(detections, layout)
    low, reach = (STEP_RANGE if step is None else (STEP_WINDOW[0] * step, STEP_WINDOW[1] * step))
    found: list[tuple[int, float]] = []  # (column number, offset past the last card in card heights)
    for k, column in enumerate(layout.columns):
        last = column[-1]
        o, r, d = detections.origins[last], detections.rights[last], detections.downs[last]
        if float(np.linalg.norm(d)) < MIN_HEIGHT:
            continue
        offset = _paper_past(image, o, r, d, reach)
        if offset is not None and low <= offset:
            found.append((k, offset))
    if not found:
        return detections, layout, reads
    crops = []
    for k, offset in found:
        last = layout.columns[k][-1]
        o, r, d = detections.origins[last], detections.rights[last], detections.downs[last]
        crops += [corner_crop(image, *turned_frame(o, r, d)),
                  corner_crop(image, *turned_frame(o + offset * d, r, d))]
    bottom_rank, bottom_suit, bottom_embeddings = models.read(np.stack(crops))
    bottoms = joint_probabilities(bottom_rank, bottom_suit).reshape(len(found), 2, -1)
    tops = joint_probabilities(reads[0], reads[1])
    added, kept = [], []
    for number, ((k, offset), (own_bottom, below)) in enumerate(zip(found, bottoms)):
        top = tops[layout.columns[k][-1]]
        read = int(below.argmax())
        if own_bottom.max() >= OWN_READ and int(own_bottom.argmax()) == int(top.argmax()):
            continue  # the last card's own bottom index shows: nothing lies on it
        if below.max() < READ or top[read] >= SAME:
            continue  # nothing legible, or maybe the last card's own index (its frame judged short)
        added.append((k, offset))
        kept.append(2 * number + 1)
    if not added:
        return detections, layout, reads
    n = len(detections)
    parts = [detections]
    columns = [list(column) for column in layout.columns]
    for number, (k, offset) in enumerate(added):
        last = columns[k][-1]
        o, r, d = detections.origins[last], detections.rights[last], detections.downs[last]
        origin = o + offset * d
        turned_origin, turned_right, turned_down = turned_frame(origin, r, d)
        a, b = card_units(detections.centres[last] - o, r, d)
        centre = turned_origin + a * turned_right + b * turned_down
        parts.append(Detections(np.array([HIDDEN_SCORE]), centre[None], origin[None], r[None], d[None],
                                detections.index_sizes[last][None]))
        columns[k].append(n + number)
        logger.debug("column %d: an exposed card found by its face and bottom index, %.2f past the last", k, offset)
    grown = Detections.joined(parts)
    rank, suit, embeddings = (np.concatenate([whole, part[kept]])
                              for whole, part in zip(reads, (bottom_rank, bottom_suit, bottom_embeddings)))
    return grown, replace(layout, columns=tuple(tuple(c) for c in columns)), (rank, suit, embeddings)


def _paper_past(image: np.ndarray, origin: np.ndarray, right: np.ndarray, down: np.ndarray,
                reach: float) -> float | None:
    """How far (card heights) the paper goes on past the card's bottom edge: the last row, up to
    ``reach`` past it, that is mostly paper, with hardly any paper in the rows after it; ``None`` when
    the paper colour cannot be told or its edge does not show (it goes on further: more than one card
    lies there, or something else does, or the column runs off the picture, whose edge rows the warp
    repeats)."""
    x0, x1, y0, y1 = TOP_MARGIN
    margin = lab_colours(warp_region(image, origin, right, down, (x0, y0, x1, y1), (16, 4)))
    paper = np.median(margin.reshape(-1, 3), axis=0)
    if np.mean(np.linalg.norm(margin - paper, axis=2) < INK) < PAPER_SHARE:
        return None
    start, end = 0.9, 1.0 + reach + BEYOND
    rows = max(4, int(round((end - start) * ROWS_PER_HEIGHT)))
    lab = lab_colours(warp_region(image, origin, right, down, (ACROSS[0], start, ACROSS[1], end), (24, rows)))
    share = (np.linalg.norm(lab - paper, axis=2) < INK).mean(axis=1)
    papery = np.flatnonzero(share >= PAPER_SHARE)
    if not len(papery):
        return None
    edge = start + (int(papery[-1]) + 1) / rows * (end - start)
    blur = int(round(EDGE_BLUR * ROWS_PER_HEIGHT))
    if edge > 1.0 + reach or np.any(share[int(papery[-1]) + 1 + blur:] >= OFF_CARD):
        return None
    return edge - 1.0
