"""Stage 3 (classical): group face-up cards into columns and order them.

The detections are turned into the layout's own frame (the cards' median
down direction becomes +y), their top-left corners are clustered across into
columns, and each column is ordered top to bottom. Ten columns (counting
gaps one column wide as empty columns) make a Spider tableau; anything else
is reported without column letters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spider_vision.vision.detect import Detections

__all__ = ["Layout", "group_columns"]


@dataclass(frozen=True)
class Layout:
    """Columns of detection numbers (top of the layout first), their letters, and the cards left over.

    ``columns[k]`` lists detections of one pile from the bottom of the pile
    (highest on the table) to the exposed card; ``letters[k]`` is 0..9 when the
    layout was recognised as a full tableau, else ``None``. ``loose`` are
    detections outside every column (removed runs, cards in a hand).
    """

    columns: tuple[tuple[int, ...], ...]
    letters: tuple[int | None, ...]
    loose: tuple[int, ...]
    empty: tuple[int, ...]
    rotation: np.ndarray
    card_size: tuple[float, float]
    full: bool


def _rotation(downs: np.ndarray) -> np.ndarray:
    """The rotation that turns the median card down direction into +y."""
    angles = np.arctan2(downs[:, 0], downs[:, 1])
    mean = np.arctan2(np.median(np.sin(angles)), np.median(np.cos(angles)))
    c, s = np.cos(mean), np.sin(mean)
    return np.array([[c, -s], [s, c]])


def _split(values: np.ndarray, order: np.ndarray, gap: float) -> list[list[int]]:
    groups: list[list[int]] = []
    for i in order:
        if groups and values[i] - values[groups[-1][-1]] <= gap:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    return groups


def group_columns(detections: Detections) -> Layout:
    """Cluster detections into columns and decide whether they form the ten columns of Spider."""
    n = len(detections)
    if n == 0:
        return Layout((), (), (), (), np.eye(2), (0.0, 0.0), False)
    rotation = _rotation(detections.downs)
    points = detections.origins @ rotation.T
    width = float(np.median(np.linalg.norm(detections.rights, axis=1)))
    height = float(np.median(np.linalg.norm(detections.downs, axis=1)))
    clusters = _split(points[:, 0], np.argsort(points[:, 0]), 0.45 * width)
    columns: list[list[int]] = []
    loose: list[int] = []
    for cluster in clusters:
        # A pile above or below the column (stock, removed runs) is more than a card height away.
        runs = _split(points[:, 1], np.array(sorted(cluster, key=lambda i: points[i, 1])), 1.05 * height)
        main = max(runs, key=lambda run: (len(run), points[run[-1], 1]))
        columns.append(main)
        loose.extend(i for run in runs if run is not main for i in run)
    # Piles far from the main row (a removed run beside the tableau) are loose as well.
    tops = np.array([points[column[0], 1] for column in columns])
    row_top = float(np.median(tops))
    kept = []
    for column, top in zip(columns, tops):
        if abs(top - row_top) > 1.2 * height and len(column) <= 2:
            loose.extend(column)
        else:
            kept.append(column)
    columns = kept
    xs = np.array([np.median(points[column, 0]) for column in columns])
    letters: list[int | None] = [None] * len(columns)
    empty: list[int] = []
    full = False
    if len(columns) >= 2:
        # Steps in units of the local card width, so that perspective (far columns look narrower) cancels.
        widths = np.array([np.median(np.linalg.norm(detections.rights[column], axis=1)) for column in columns])
        steps = np.diff(xs) / (0.5 * (widths[:-1] + widths[1:]))
        pitch = float(np.median(steps[steps < 1.7 * np.median(steps)]))
        slots = np.concatenate([[0], np.cumsum(np.maximum(np.round(steps / pitch), 1))]).astype(int)
        if slots[-1] == 9:
            full = True
            letters = [int(s) for s in slots]
            empty = [s for s in range(10) if s not in slots]
        elif len(columns) > 10:
            # Extra piles to a side (stock, removed runs, a ghost of a pile's edge in a far view): take
            # the ten adjacent piles with the most cards, each counting by the detector's score.
            counts = [float(detections.scores[list(column)].sum()) for column in columns]
            best = max(range(len(columns) - 9), key=lambda k: sum(counts[k:k + 10]))
            window = slots[best:best + 10] - slots[best]
            if window[-1] == 9:
                full = True
                for k in range(len(columns)):
                    letters[k] = int(window[k - best]) if best <= k < best + 10 else None
                loose.extend(i for k, column in enumerate(columns) if letters[k] is None for i in column)
    ordered = [tuple(sorted(column, key=lambda i: points[i, 1])) for column in columns]
    keep = [k for k in range(len(ordered)) if not full or letters[k] is not None]
    return Layout(tuple(ordered[k] for k in keep), tuple(letters[k] for k in keep), tuple(sorted(loose)),
                  tuple(empty), rotation, (width, height), full)
