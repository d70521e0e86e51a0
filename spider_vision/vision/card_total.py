"""Stage 3f (classical): a card total that Spider cannot make is a clue to a peak that is no card.

The cards on the tableau (face up plus face down) must leave a whole stock
(a multiple of ten) and whole removed runs (13 cards each). When no choice
of face-down counts within ``rules.FORCED_COST`` of the counter's beliefs
makes such a total (``rules.RUN_COST`` counted), the position was withheld,
or given with the likeliest counts and removed runs that no card in sight
showed. Often one face-up card too many is the reason: a peak that the
detector scores low and the reader cannot name, at an end of a column (a
pip below the exposed card's index, the edge of a face-down card above the
first face-up one), or the weaker of two peaks read as the same card one
after the other (one card found twice). So the stage tries leaving one, then two, such peaks out of
their columns; the choice whose face-down counts make a whole total, most
likely by the counter less ``DROP_COST`` a peak, is kept, provided it
assumes no removed run beyond those whose top cards lie in sight (where a
hand hides cards the total lacks cards, and leaving a peak out made a total
that removed runs no card showed explained). A peak left out from the top
of a column moves the face-down count to the strip above the next card, and
the counter is asked there.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from itertools import combinations
from typing import Callable

import numpy as np

from spider_vision.vision.completed import runs_in_sight
from spider_vision.vision.layout import Layout
from spider_vision.vision.position import split_rest
from spider_vision.vision.rules import choose_down_counts, letter_beliefs

__all__ = ["DROP_COST", "DROP_READ", "DROP_SCORE", "drop_for_whole_total", "suspect_peaks"]

logger = logging.getLogger(__name__)

DROP_SCORE = 0.4
DROP_READ = 0.6
"""A peak may be left out only when the detector scores it below ``DROP_SCORE``; an end peak also
when the reader names it with less than ``DROP_READ`` (a twin's read is sure: it is the card it
doubles). On the first 600 + 600 tables of ``bench/vision.py`` whose total was not whole, such peaks
left out were no card in 11 tables and a real card in 1 (0.45: 13 and 5; no score limit: 14 and 27,
most in pictures where a hand hides cards, whose total then lacks cards, not has too many)."""
DROP_COST = 2.0
"""Nats the counter's beliefs are charged for each peak left out, so that fewer are left out when the
counts allow it."""
MOST_DROPPED = 2


def suspect_peaks(layout: Layout, scores: np.ndarray, probabilities: np.ndarray) -> list[tuple[int, int]]:
    """(column number, place in the column) of each peak that may be no card (see the module's doc)."""
    suspects = set()
    best = probabilities.argmax(axis=1)
    sure = probabilities.max(axis=1)
    for k, column in enumerate(layout.columns):
        if len(column) < 2:
            continue
        for j in range(len(column) - 1):
            if best[column[j]] == best[column[j + 1]]:
                weaker = j if scores[column[j]] < scores[column[j + 1]] else j + 1
                if scores[column[weaker]] < DROP_SCORE:
                    suspects.add((k, weaker))
        for j in (0, len(column) - 1):
            if scores[column[j]] < DROP_SCORE and sure[column[j]] < DROP_READ:
                suspects.add((k, j))
    return sorted(suspects)


def drop_for_whole_total(layout: Layout, scores: np.ndarray, probabilities: np.ndarray,
                         count: Callable[[list[int]], np.ndarray]) -> Layout:
    """``layout`` with up to ``MOST_DROPPED`` suspect peaks left loose when that alone makes a whole card total.

    ``scores`` are the detector's scores and ``probabilities`` (n, 52) the
    reader's beliefs of every detection; ``count(indices)`` gives the
    counter's beliefs (a row of 0.. face-down cards each) for the strips
    above those detections.
    """
    if not layout.full or _whole(layout, layout.columns, probabilities, count) is not None:
        return layout
    suspects = suspect_peaks(layout, scores, probabilities)
    for size in range(1, MOST_DROPPED + 1):
        tried = []
        for dropped in combinations(suspects, size):
            columns = tuple(tuple(i for j, i in enumerate(column) if (k, j) not in dropped)
                            for k, column in enumerate(layout.columns))
            if not all(columns):
                continue
            likelihood = _whole(layout, columns, probabilities, count, unseen_runs=False)
            if likelihood is not None:
                tried.append((likelihood - DROP_COST * size, columns))
        if tried:
            _, columns = max(tried, key=lambda entry: entry[0])
            left = sorted({i for column in layout.columns for i in column} - {i for column in columns for i in column})
            logger.debug("%d peak(s) left out of the columns to make a whole card total", len(left))
            return replace(layout, columns=columns, loose=tuple(sorted(layout.loose + tuple(left))))
    return layout


def _whole(layout: Layout, columns: tuple[tuple[int, ...], ...], probabilities: np.ndarray,
           count: Callable[[list[int]], np.ndarray], *, unseen_runs: bool = True) -> float | None:
    """The counter's log-likelihood of the likeliest face-down counts that make a whole card total with
    ``columns`` (the layout's, some peaks left out), or ``None`` when none within the forcing cost does
    (or, without ``unseen_runs``, none that leaves no more removed runs than the cards in sight show)."""
    per_letter = letter_beliefs(layout.letters, count([column[0] for column in columns]))
    face_up = sum(len(column) for column in columns)
    in_sight = runs_in_sight(layout.loose, probabilities)
    counts, whole = choose_down_counts(per_letter, face_up, in_sight)
    if not whole:
        return None
    _, runs = split_rest(104 - face_up - sum(counts)) or (0, 0)
    if not unseen_runs and runs > in_sight:
        return None
    return float(np.log(np.maximum(per_letter[np.arange(10), counts], 1e-9)).sum())
