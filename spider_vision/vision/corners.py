"""Stage 3d (classical): a peak on a card's top-right index is not a card.

Some decks print the index in both top corners. The detector, which looks
for the top-left one, then also fires on the top-right one, about 0.75 card
widths to the right of the card's own peak and at the same height; where
columns lie close, that peak joins the next column as a card of its own
(a ``??`` or a second copy of the card in the position). Such a peak sits
where the card's own index mirrored across the card's middle would be, and
reads as the card's rank (its suit pip is often past the next column's
edge, so the suit may read otherwise): it leaves its column. A real card
there would lie across its neighbour's top-right corner with the same rank,
which a Spider table hardly ever gives.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.geometry import card_units
from spider_vision.vision.layout import Layout

__all__ = ["AGREE", "MIRROR_REACH", "SURE", "drop_second_indices"]

logger = logging.getLogger(__name__)

MIRROR_REACH = 0.1
"""Card widths from the mirrored index within which a peak is taken for the card's top-right index."""
SURE = 0.5
"""Reader confidence a card needs before a peak is judged to be its second index."""
AGREE = 0.2
"""Chance the reader must give the peak of having that card's rank. On two samples of 100 + 100 held-out
tables (``bench/vision.py``, ``--first 0`` and ``--first 200``): 6 of the 13 such peaks in columns leave
them, no readable card does, and one more table is read exactly (a match of rank and suit took 4)."""


def drop_second_indices(layout: Layout, detections: Detections, probabilities: np.ndarray) -> Layout:
    """The layout with each peak on a surely read card's top-right index moved to the loose detections.

    ``probabilities`` (n, 52) are the reader's beliefs of every detection.
    A peak the reader is surer of than of the card stays (then the card may
    be the false one), and so does a peak that is the only one of its
    column: the layout counted it as a column.
    """
    if len(detections) < 2:
        return layout
    ranks = probabilities.reshape(-1, 4, 13).sum(axis=1)
    best = ranks.argmax(axis=1)
    sure = probabilities.max(axis=1)
    second: set[int] = set()
    for i in np.flatnonzero(sure >= SURE):
        origin, right, down = detections.origins[i], detections.rights[i], detections.downs[i]
        across, along = card_units(detections.centres[i] - origin, right, down)
        mirrored = origin + (1 - across) * right + along * down
        near = np.linalg.norm(detections.centres - mirrored, axis=1) < MIRROR_REACH * np.linalg.norm(right)
        for j in np.flatnonzero(near):
            if j != i and ranks[j, best[i]] >= AGREE and sure[j] <= sure[i]:
                second.add(int(j))
    columns, loose = [], set(layout.loose)
    for column in layout.columns:
        kept = tuple(i for i in column if i not in second) or column
        loose.update(i for i in column if i not in kept)
        columns.append(kept)
    if len(loose) == len(layout.loose):
        return layout
    logger.debug("%d peak(s) on top-right indices left their columns", len(loose) - len(layout.loose))
    return replace(layout, columns=tuple(columns), loose=tuple(sorted(loose)))
