"""Stage 3e (classical): completed runs set beside the row of columns are not a column.

A player lays each completed run aside as a squared pile, often at one end
of the row and about one pitch from the last column; several runs lie
fanned one below the other. The detector finds the top card of each, all
Aces (or all Kings, when the run was turned over as it was picked up), and
the layout takes them for one more column: the ten columns then seem to be
eleven, the pile takes a column's letter and pushes the column at the far
end out, or a real empty column at that end seems filled. A move puts a
card on one a rank higher, and only a deal puts a card on one of its own
rank, so three of one rank in a column need two deals in a row to land so:
such a pile of Aces or Kings at either end of the row leaves it. Two do
occur (a deal puts an Ace on an Ace), so a pile of two leaves only when no
face-down card lies above it (nothing lies under a completed run).
"""

from __future__ import annotations

import logging
from typing import Callable

import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import Layout, without_piles
from spider_vision.vision.position import RUN_TOPS

__all__ = ["BARE", "SURE_PILE", "SURE_RANK", "drop_completed_runs", "runs_in_sight"]

logger = logging.getLogger(__name__)

_TOPS = tuple(rank - 1 for rank in RUN_TOPS)
"""The reader's rank numbers (from 0) of the cards a completed run shows on top."""
SURE_RANK = 0.5
"""Chance of that rank the reader must give each card of the pile."""
SURE_PILE = 3
"""Cards of one such rank in a pile that make it completed runs whatever lies above it."""
BARE = 0.5
"""Chance the face-down counter must give of nothing lying above a smaller pile's first card (the stock
laid just above the runs can give face-down edges there)."""


def drop_completed_runs(layout: Layout, detections: Detections, probabilities: np.ndarray,
                        bare: Callable[[int], float]) -> Layout:
    """``layout`` without a pile at an end of the row (or of its ten columns) of three or more cards all
    read as Aces (or all as Kings), or of two with no face-down card above them.

    ``probabilities`` (n, 52) are the reader's beliefs of every detection;
    ``bare(i)`` is the chance that no face-down card lies above detection
    ``i`` (the counter's, asked only of such piles). The other piles are
    named again, so that ten columns with the runs beside them (or nine and
    an empty one) make a tableau.
    """
    piles = layout.piles(detections)
    if len(piles) < 2:
        return layout
    ranks = probabilities.reshape(-1, 4, 13).sum(axis=1)
    # The ends of the row, and of the ten columns named in it (beyond which stray piles may lie).
    ends = dict.fromkeys((piles[0], piles[-1], layout.columns[0], layout.columns[-1]))
    runs = [pile for pile in ends if _completed_runs(ranks[list(pile)])
            and (len(pile) >= SURE_PILE or bare(pile[0]) >= BARE)]
    if not runs:
        return layout
    logger.debug("%d pile(s) of completed runs beside the row left the columns", len(runs))
    return without_piles(layout, detections, runs)


def runs_in_sight(loose: tuple[int, ...], probabilities: np.ndarray) -> int:
    """How many completed runs the cards off the columns show: each such card read as an Ace or a King.

    A run laid aside face up shows its top card; a card in a hand or a
    stray peak may count too, which only makes an assumed run cheaper.
    """
    return int(_run_tops(probabilities[list(loose)].reshape(-1, 4, 13).sum(axis=1)).sum())


def _completed_runs(ranks: np.ndarray) -> bool:
    """Whether a pile's cards (their rank beliefs, one row each) are two or more sure Aces or sure Kings."""
    best = ranks.argmax(axis=1)
    return bool(len(ranks) >= 2 and (best == best[0]).all() and _run_tops(ranks).all())


def _run_tops(ranks: np.ndarray) -> np.ndarray:
    """For each row of rank beliefs, whether it is at least ``SURE_RANK`` sure of an Ace or of a King."""
    best = ranks.argmax(axis=1)
    return np.isin(best, _TOPS) & (ranks.max(axis=1) >= SURE_RANK)
