"""Stage 3f (classical): a card total that Spider cannot make is a clue to a peak that is no card.

The cards on the tableau (face up plus face down) must leave a whole stock
(a multiple of ten) and whole removed runs (13 cards each). When no choice
of face-down counts within ``rules.FORCED_COST`` of the counter's beliefs
makes such a total (``rules.RUN_COST`` counted), the position was withheld,
or given with the likeliest counts and removed runs that no card in sight
showed. Often a face-up card too many is the reason: a peak that the
detector scores low at an end of a column that the reader cannot name (a
pip below the exposed card's index, the edge of a face-down card above the
first face-up one), the weaker of two peaks read as the same card one after
the other (one card found twice), more seldom a weak, unreadable peak
between two cards. Each peak has a chance of being no card, measured by its
kind, score and read (``no_card_chance``). The stage tries leaving out up
to three suspects; of the choices whose face-down counts make a whole
total, it keeps the likeliest by the counter and by the chances of the
peaks left out, provided it assumes no removed run beyond those whose top
cards lie in sight (where a hand hides cards the total lacks cards, and
leaving a peak out made a total that removed runs no card showed
explained). A peak left out from the top of a column moves the face-down
count to the strip above the next card, and the counter is asked there.
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
from spider_vision.vision.rules import CountTable, choose_down_counts, count_table, letter_beliefs

__all__ = ["LEAST_CHANCE", "MOST_DROPPED", "drop_for_whole_total", "no_card_chance", "suspect_peaks"]

logger = logging.getLogger(__name__)

MOST_DROPPED = 3
LEAST_CHANCE = 0.2
"""A peak is a suspect when at least this share of such peaks are no card (``no_card_chance``)."""
MOST_SUSPECTS = 8
"""Only the likeliest suspects are tried, so that a table full of weak peaks costs a bounded time."""


def no_card_chance(kind: str, score: float, read: float) -> float:
    """The share of peaks like this one that are no card, from ``score`` (the detector's) and ``read`` (how
    sure the reader is of its likeliest card).

    ``kind`` is "twin" (the weaker of two neighbours in a column read as the same card), "end" (the
    first or last peak of a column of two or more) or "middle". Measured on the full views of the
    first 600 + 600 tables of ``bench/vision.py`` (about 2,500 of their 19,000 peaks score under 0.65),
    rounded: a weak twin is one card found twice three times in four; a weak end peak the reader
    cannot name is a pip below the exposed card's index, or the edge of a face-down card, more often
    than not; a middle peak is seldom anything but a card.
    """
    if kind == "twin":
        return 0.75 if score < 0.45 or (score < 0.65 and read < 0.6) else 0.05
    if kind == "end":
        if read < 0.6:
            return 0.6 if score < 0.45 else 0.5 if score < 0.55 else 0.1 if score < 0.65 else 0.0
        return 0.25 if score < 0.45 and read < 0.9 else 0.05 if score < 0.55 else 0.0
    return 0.2 if score < 0.45 and read < 0.6 else 0.1 if score < 0.45 else 0.0


def suspect_peaks(layout: Layout, scores: np.ndarray, probabilities: np.ndarray) -> dict[tuple[int, int], float]:
    """(column number, place in the column) of each peak that may be no card, with the chance that it is
    none (``no_card_chance``, at least ``LEAST_CHANCE``)."""
    best = probabilities.argmax(axis=1)
    sure = probabilities.max(axis=1)
    chances: dict[tuple[int, int], float] = {}
    for k, column in enumerate(layout.columns):
        if len(column) < 2:
            continue
        for j, peak in enumerate(column):
            twin = any(0 <= t < len(column) and best[column[t]] == best[peak] and scores[column[t]] >= scores[peak]
                       for t in (j - 1, j + 1))
            kind = "twin" if twin else "end" if j in (0, len(column) - 1) else "middle"
            chance = no_card_chance(kind, float(scores[peak]), float(sure[peak]))
            if twin and j in (0, len(column) - 1):
                chance = max(chance, no_card_chance("end", float(scores[peak]), float(sure[peak])))
            if chance >= LEAST_CHANCE:
                chances[(k, j)] = chance
    return dict(sorted(chances.items(), key=lambda item: -item[1])[:MOST_SUSPECTS])


def drop_for_whole_total(layout: Layout, scores: np.ndarray, probabilities: np.ndarray,
                         count: Callable[[list[int]], np.ndarray]) -> Layout:
    """``layout`` with up to ``MOST_DROPPED`` suspect peaks left loose when that alone makes a whole card total.

    ``scores`` are the detector's scores and ``probabilities`` (n, 52) the
    reader's beliefs of every detection; ``count(indices)`` gives the
    counter's beliefs (a row of 0.. face-down cards each) for the strips
    above those detections. Of the choices that make a whole total, the one
    kept is likeliest by the counter and the peaks' chances together (each
    peak left out adds the log-odds that it is no card).
    """
    if not layout.full:
        return layout
    totals = _Totals(layout, probabilities, count)
    if totals.whole(layout.columns) is not None:
        return layout
    suspects = suspect_peaks(layout, scores, probabilities)
    tried = []
    for size in range(1, MOST_DROPPED + 1):
        for dropped in combinations(suspects, size):
            columns = tuple(tuple(i for j, i in enumerate(column) if (k, j) not in dropped)
                            for k, column in enumerate(layout.columns))
            if not all(columns):
                continue
            likelihood = totals.whole(columns, unseen_runs=False)
            if likelihood is not None:
                odds = sum(np.log(suspects[peak] / (1 - suspects[peak])) for peak in dropped)
                tried.append((likelihood + odds, columns))
    if not tried:
        return layout
    _, columns = max(tried, key=lambda entry: entry[0])
    left = sorted({i for column in layout.columns for i in column} - {i for column in columns for i in column})
    logger.debug("%d peak(s) left out of the columns to make a whole card total", len(left))
    return replace(layout, columns=columns, loose=tuple(sorted(layout.loose + tuple(left))))


class _Totals:
    """Whether the layout's columns, some peaks left out, make a whole card total. The counter's table
    of counts by total is worked out once for each set of first peaks: leaving out a peak below a
    column's first changes only the face-up total."""

    def __init__(self, layout: Layout, probabilities: np.ndarray, count: Callable[[list[int]], np.ndarray]) -> None:
        self._letters, self._count = layout.letters, count
        self._in_sight = runs_in_sight(layout.loose, probabilities)
        self._tables: dict[tuple[int, ...], tuple[np.ndarray, CountTable]] = {}

    def whole(self, columns: tuple[tuple[int, ...], ...], *, unseen_runs: bool = True) -> float | None:
        """The counter's log-likelihood of the likeliest face-down counts that make a whole card total
        with ``columns``, or ``None`` when none within the forcing cost does (or, without
        ``unseen_runs``, none that leaves no more removed runs than the cards in sight show)."""
        firsts = tuple(column[0] for column in columns)
        if firsts not in self._tables:
            per_letter = letter_beliefs(self._letters, self._count(list(firsts)))
            self._tables[firsts] = (per_letter, count_table(per_letter))
        per_letter, table = self._tables[firsts]
        face_up = sum(len(column) for column in columns)
        counts, whole = choose_down_counts(table, face_up, self._in_sight)
        if not whole:
            return None
        _, runs = split_rest(104 - face_up - sum(counts)) or (0, 0)
        if not unseen_runs and runs > self._in_sight:
            return None
        return float(np.log(np.maximum(per_letter[np.arange(10), counts], 1e-9)).sum())
