"""Stage 3b (classical): repair each column with the regular step of a Spider cascade.

Face-up cards in a column overlap by one step, the same all over the table,
so the gaps between the cards found in a column tell what the detector got
wrong: a gap of two or three steps is a card (or two) it missed between
them, which get frames in between to be read like any other; two peaks much
closer than a step are one card found twice, and the weaker one leaves the
column; a peak about half a step below one card and above the next, where
those two lie one step apart, is a court card's picture or a pip, not a
card, and leaves however strong it is. A last peak much further below its
neighbour than any step is the bottom corner of the exposed card (many
decks print an index there), not a card, and so is a weak last peak that
the reader cannot name; weak unreadable first peaks are the edges of
face-down cards, a weak unreadable peak right of the card before it is
a pip or a court's picture on that card's face, and of two peaks read as
the same card much closer than any real step the weaker goes
(``drop_phantom_peaks``, once the corners are read).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.geometry import card_units
from spider_vision.vision.layout import Layout

__all__ = ["cascade_step", "drop_phantom_peaks", "repair_columns"]

STEP_RANGE = (0.08, 0.6)
"""Gaps (in card heights) that can be one step of a face-up cascade; the table's step is their median."""
TWICE = 0.45
"""Two peaks closer than this many steps are the same card."""
MISSED_MAX = 3
"""At most this many steps between two cards found are filled with missed cards (a wider gap is something else)."""
FAR_BELOW = 0.55
"""Card heights: a column's last peak this far below the one before it is not a card of the column."""
MISSED_TOLERANCE = 0.3
"""A gap is a whole number of steps when it is within this many steps of one."""
UNIT_ROUNDS = 3
UNIT_GAPS = 8
"""Rounds of ``_unit_step``'s estimate, and the fewest gaps it works from."""
SPLIT_STEP = 0.75
"""A peak less than this many steps below one card and above the next, where those two lie one step
apart, is not a card: it is the picture of a court card or a pip found between two indices."""
SPLIT_SPAN = (0.8, 1.3)
"""Steps between the two cards around such a peak (one step, with room for the cards' own jitter)."""
PHANTOM_SCORE = 0.35
PHANTOM_READ = 0.5
"""A column's last peak that the detector scores below ``PHANTOM_SCORE`` and the reader cannot name
with ``PHANTOM_READ`` is not a card: an exposed card's pip or bottom index found below its own corner.
A real exposed card shows its whole index. On 150 held-out tables this drops 15 of 47 such peaks and
2 of 562 real last cards, whose own reads were as weak."""
BACK_SCORE = 0.45
BACK_READ = 0.3
"""Likewise a column's first peak below both is the edge of a face-down card, not its lowest face-up
card (on 150 held-out tables: 21 of 30 such peaks, 3 of 579 real first cards)."""
TWIN_GAP = 0.16
"""Card heights: two consecutive peaks of a column that the reader reads as the same card, less than this
apart along the column, are one card found twice (on an index and beside it, on small cards seen
slanted), and the weaker leaves. ``repair_columns`` misses these where the twins themselves set the
table's step (no other column shows two face-up cards). Real cards lie at least 0.15 heights apart in
the renders, and two copies of one card in a row are rare. On three samples of 200 + 200 held-out tables
(``bench/vision.py``'s, first 0, 200 and 400) it gives 17 more face-down counts right (of 10,790) and
12 more exact positions (of 839 full views); cards read right: one fewer in one sample, two more in
another (0.14: 6 more exact; 0.18 loses counts; asking both reads to be 0.5 sure, 4 exact fewer)."""
PIP_SHIFT = (0.12, 0.4)
PIP_SCORE = 0.5
PIP_READ = 0.6
"""A peak that lies this many card widths right of the card before it in its column, and that the
detector scores below ``PIP_SCORE`` and the reader cannot name with ``PIP_READ``, is a pip or a court's
picture on that card's face, not a card: a card put on a column lies straight on it (on 100 + 100
held-out tables 99% of real cards lie within 0.105 widths of the card before them sideways). On two
samples of 100 + 100 held-out tables (``bench/vision.py``, ``--first 0`` and ``--first 200``) this
drops 11 and 7 of the 65 and 118 peaks in columns that are no cards, and no readable card."""


def _plausible_gaps(gaps: list[np.ndarray]) -> np.ndarray:
    """The gaps of all columns that ``STEP_RANGE`` allows for one step."""
    values = np.concatenate(gaps) if gaps else np.zeros(0)
    return values[(values >= STEP_RANGE[0]) & (values <= STEP_RANGE[1])]


def _step(gaps: list[np.ndarray]) -> float | None:
    values = _plausible_gaps(gaps)
    return float(np.median(values)) if len(values) >= 3 else None


def _unit_step(step: float, gaps: list[np.ndarray]) -> float:
    """The table's step with the gaps of missed cards taken as the whole numbers of steps they span.

    The median of the plausible gaps runs long where cards are missed (a
    gap of two steps of 0.15 card heights counts as 0.3), and then a gap
    over a missed card no longer looks like two steps. Each gap is divided
    by the number of steps it spans at the current estimate (1 to
    ``MISSED_MAX``) and the median taken again, a few times. Only where
    the table shows ``UNIT_GAPS`` gaps or more: with fewer, a weak peak
    or two set the median.
    """
    values = _plausible_gaps(gaps)
    if len(values) < UNIT_GAPS:
        return step
    for _ in range(UNIT_ROUNDS):
        spans = np.clip(np.round(values / step), 1, MISSED_MAX)
        step = float(np.median(values / spans))
    return step


def _drop_split_steps(column: list[int], gaps_of: Callable[[list[int]], np.ndarray], step: float,
                      loose: list[int]) -> None:
    """Move to ``loose`` each peak that splits one step of ``column`` in two (``SPLIT_STEP``)."""
    j = 0
    while j + 2 < len(column):
        gaps = gaps_of(column[j:j + 3]) / step
        if gaps.max() < SPLIT_STEP and SPLIT_SPAN[0] <= gaps.sum() <= SPLIT_SPAN[1]:
            loose.append(column.pop(j + 1))
        else:
            j += 1


def drop_phantom_peaks(layout: Layout, detections: Detections, probabilities: np.ndarray) -> Layout:
    """The layout with each column's weak, unreadable first peaks, last peak and peaks aside, and the
    weaker of each pair of close twins, moved to the loose detections."""
    columns, loose = [], list(layout.loose)

    def weak(i: int, score: float, read: float) -> bool:
        return bool(detections.scores[i] < score and probabilities[i].max() < read)

    def aside(before: int, peak: int) -> bool:
        offset = detections.centres[peak] - detections.centres[before]
        across = card_units(offset, detections.rights[before], detections.downs[before])[0]
        return bool(PIP_SHIFT[0] <= across <= PIP_SHIFT[1])

    def twin(before: int, peak: int) -> bool:
        offset = detections.origins[peak] - detections.origins[before]
        along = card_units(offset, detections.rights[before], detections.downs[before])[1]
        return bool(along < TWIN_GAP and probabilities[peak].argmax() == probabilities[before].argmax())

    for column in layout.columns:
        kept = list(column[:1])
        for peak in column[1:]:
            if aside(kept[-1], peak) and weak(peak, PIP_SCORE, PIP_READ):
                loose.append(peak)
            elif twin(kept[-1], peak):
                if detections.scores[peak] < detections.scores[kept[-1]]:
                    loose.append(peak)
                else:
                    loose.append(kept.pop())
                    kept.append(peak)
            else:
                kept.append(peak)
        column = tuple(kept)
        while len(column) > 1 and weak(column[0], BACK_SCORE, BACK_READ):
            loose.append(column[0])
            column = column[1:]
        if len(column) > 1 and weak(column[-1], PHANTOM_SCORE, PHANTOM_READ):
            loose.append(column[-1])
            column = column[:-1]
        columns.append(column)
    if len(loose) == len(layout.loose):
        return layout
    return replace(layout, columns=tuple(columns), loose=tuple(sorted(loose)))


def _gaps(detections: Detections, layout: Layout) -> Callable[[list[int]], np.ndarray]:
    """The gaps between consecutive detections of a column, in card heights along the columns."""
    points = detections.origins @ layout.rotation.T
    heights = np.maximum(np.linalg.norm(detections.downs, axis=1), 1e-9)

    def gaps_of(column: list[int]) -> np.ndarray:
        c = np.array(column)
        return np.diff(points[c, 1]) / (0.5 * (heights[c[:-1]] + heights[c[1:]]))

    return gaps_of


def cascade_step(detections: Detections, layout: Layout) -> float | None:
    """The table's face-up step in card heights (the median plausible gap), ``None`` when too few show it."""
    gaps_of = _gaps(detections, layout)
    return _step([gaps_of(list(column)) for column in layout.columns if len(column) > 1])


def repair_columns(detections: Detections, layout: Layout) -> tuple[Detections, Layout]:
    """Detections with the cards missed inside columns added (score 0), and the layout that uses them."""
    if not layout.columns:
        return detections, layout
    gaps_of = _gaps(detections, layout)
    columns = [list(column) for column in layout.columns]
    step = _step([gaps_of(column) for column in columns if len(column) > 1])
    if step is None:
        return detections, layout
    loose = list(layout.loose)
    for column in columns:
        while len(column) > 1:
            gaps = gaps_of(column)
            close = int(np.argmin(gaps))
            if gaps[close] >= TWICE * step:
                break
            pair = column[close], column[close + 1]
            weaker = pair[0] if detections.scores[pair[0]] < detections.scores[pair[1]] else pair[1]
            column.remove(weaker)
            loose.append(weaker)
    for column in columns:
        _drop_split_steps(column, gaps_of, step, loose)
    for column in columns:
        if len(column) > 1 and gaps_of(column)[-1] >= FAR_BELOW:
            loose.append(column.pop())
    added: list[tuple[int, int, float]] = []  # (column number, detection before, fraction of the gap)
    final_gaps = {k: gaps_of(column) for k, column in enumerate(columns) if len(column) > 1}
    unit = _unit_step(step, list(final_gaps.values()))
    for k, gaps in final_gaps.items():
        for j, gap in enumerate(gaps):
            count = int(round(gap / unit))
            if 2 <= count <= MISSED_MAX and abs(gap / unit - count) <= MISSED_TOLERANCE:
                added.extend((k, j, m / count) for m in range(1, count))
    if not added:
        return detections, replace(layout, columns=tuple(tuple(c) for c in columns), loose=tuple(sorted(loose)))
    n = len(detections)
    between = []
    for k, j, t in added:
        a, b = columns[k][j], columns[k][j + 1]
        mixed = [((1 - t) * values[a] + t * values[b])[None] for values in
                 (detections.centres, detections.origins, detections.rights, detections.downs,
                  detections.index_sizes)]
        between.append(Detections(np.zeros(1), *mixed))
    grown = Detections.joined([detections, *between])
    grown_points = grown.origins @ layout.rotation.T
    for number, (k, _, _) in enumerate(added):
        columns[k].append(n + number)
    ordered = tuple(tuple(sorted(column, key=lambda i: grown_points[i, 1])) for column in columns)
    return grown, replace(layout, columns=ordered, loose=tuple(sorted(loose)))
