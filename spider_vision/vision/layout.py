"""Stage 3 (classical): group face-up cards into columns and order them.

The detections are turned into the layout's own frame (the cards' median
down direction becomes +y), their top-left corners are clustered across into
columns, and each column is ordered top to bottom. Ten columns (counting
gaps one column wide as empty columns) make a Spider tableau; anything else
is reported without column letters. A faint peak (a dot of a patterned
cloth, a mark on a card's face) must not change that count: below a column
it loses to the column's own card, and squeezed between two columns it is
left loose.

A camera that looks at the table at a slant sees the columns converge
towards a vanishing point, so a long column drifts sideways as it comes
down, towards its neighbour. Each card's place across is therefore taken
where its column's line meets the tableau's top row; the lines come from
the long columns' own cards (their corners lie far more precisely than
their down directions point).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spider_vision.vision.detect import Detections

__all__ = ["Layout", "group_columns", "without_piles"]

LINE_CARDS = 3
"""Cards a column needs before its drift across is measured."""
LINE_SPAN = 1.0
"""Card heights a column must run down before its drift across is measured."""
LINE_FIT = 0.2
"""Card widths by which a card may leave its column's straight line (more: two columns as one)."""
JOIN_CARDS = 3
"""Cards a run needs before its step says how far the next card may lie (cards missed between)."""
JOIN_MISSED = 2
"""Cards the detector may have missed in a row inside a column."""
CROWDED = 1.5
"""Of the tableau's pitch: a pile whose two neighbours lie closer together than this is squeezed between
two columns (past either end, a neighbour one pitch away is assumed)."""
SPREAD = 2.0
"""Card widths across which the measured columns must lie for the fan-out to be fitted (else one tilt)."""


@dataclass(frozen=True)
class Layout:
    """Columns of detection numbers (top of the layout first), their letters, and the cards left over.

    ``columns[k]`` lists detections of one pile from the bottom of the pile
    (highest on the table) to the exposed card; ``letters[k]`` is 0..9 when the
    layout was recognised as a full tableau, else ``None``. ``loose`` are
    detections outside every column (removed runs, cards in a hand);
    ``extra`` are the piles among them that lay in the row beside a full
    tableau's ten columns (``without_piles`` may name them again).
    ``places`` is how many columns' places the piles take across, gaps of a
    pitch or more counting as empty columns: nine without a full tableau
    means column a or j stands empty or lies out of the picture.
    """

    columns: tuple[tuple[int, ...], ...]
    letters: tuple[int | None, ...]
    loose: tuple[int, ...]
    empty: tuple[int, ...]
    rotation: np.ndarray
    card_size: tuple[float, float]
    full: bool
    extra: tuple[tuple[int, ...], ...] = ()
    places: int = 0

    def piles(self, detections: Detections) -> list[tuple[int, ...]]:
        """The columns and the ``extra`` piles, in order across the row."""
        points = detections.origins @ self.rotation.T
        return sorted(self.columns + self.extra, key=lambda pile: float(np.median(points[list(pile), 0])))


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


def _across(points: np.ndarray, width: float, height: float) -> np.ndarray:
    """Each card's place across the columns (layout frame), taken at the tableau's top row.

    Under perspective the columns fan out from a vanishing point: a column's
    drift per unit down is (its place at the top row - the point's) / (the
    row's depth), so the drifts are a straight-line function of the places.
    That line is fitted to the columns that a first grouping finds clean and
    long (their cards on one straight line, over a card's height or more),
    and every card is followed back along it to the top row. Fewer than two
    such columns leave the corners where they lie.
    """
    xs, ys = points[:, 0], points[:, 1]
    clusters = _split(xs, np.argsort(xs), 0.45 * width)
    row = float(np.median([ys[cluster].min() for cluster in clusters]))
    tops, drifts, spans = [], [], []
    for cluster in clusters:
        x, y = xs[cluster], ys[cluster] - row
        span = float(y.max() - y.min())
        if len(cluster) < LINE_CARDS or span < LINE_SPAN * height:
            continue
        drift, top = np.polyfit(y, x, 1)
        if float(np.abs(x - (top + drift * y)).max()) > LINE_FIT * width:
            continue  # not one straight column: two neighbours taken as one
        tops.append(top)
        drifts.append(drift)
        spans.append(span)
    if len(tops) < 2:
        return xs
    tops_, drifts_, weights = np.array(tops), np.array(drifts), np.array(spans)
    if float(np.ptp(tops_)) < SPREAD * width:
        slope, offset = 0.0, float(np.average(drifts_, weights=weights))
    else:
        slope, offset = np.polyfit(tops_, drifts_, 1, w=np.sqrt(weights))
    depth = ys - row
    scale = 1.0 + slope * depth
    if float(scale.min()) < 0.5:
        return xs
    return (xs - offset * depth) / scale


def _join_missed(runs: list[list[int]], ys: np.ndarray) -> list[list[int]]:
    """Runs of one column joined again where the gap between them is a few of the cascade's steps:
    cards the detector missed (court cards, say), which under a slanted camera's longer near steps
    can add up to more than a card height, not a pile of its own."""
    joined = [list(runs[0])]
    for run in runs[1:]:
        above = joined[-1]
        gaps = np.diff(ys[above])
        if len(gaps) >= JOIN_CARDS - 1:
            step = float(np.median(gaps))
            if ys[run[0]] - ys[above[-1]] <= (JOIN_MISSED + 1.5) * step:
                above.extend(run)
                continue
        joined.append(list(run))
    return joined


def _steps(columns: list[list[int]], across: np.ndarray, detections: Detections) -> tuple[np.ndarray, float]:
    """The steps between neighbouring piles (in units of the local card width, so that perspective,
    which makes far columns look narrower, cancels) and the tableau's pitch (their usual step)."""
    xs = np.array([np.median(across[column]) for column in columns])
    widths = np.array([np.median(np.linalg.norm(detections.rights[column], axis=1)) for column in columns])
    steps = np.diff(xs) / (0.5 * (widths[:-1] + widths[1:]))
    return steps, float(np.median(steps[steps < 1.7 * np.median(steps)]))


def group_columns(detections: Detections) -> Layout:
    """Cluster detections into columns and decide whether they form the ten columns of Spider."""
    n = len(detections)
    if n == 0:
        return Layout((), (), (), (), np.eye(2), (0.0, 0.0), False)
    rotation = _rotation(detections.downs)
    points = detections.origins @ rotation.T
    width = float(np.median(np.linalg.norm(detections.rights, axis=1)))
    height = float(np.median(np.linalg.norm(detections.downs, axis=1)))
    across = _across(points, width, height)
    clusters = _split(across, np.argsort(across), 0.45 * width)
    columns: list[list[int]] = []
    loose: list[int] = []
    for cluster in clusters:
        # A pile above or below the column (stock, removed runs) is more than a card height away.
        runs = _join_missed(_split(points[:, 1], np.array(sorted(cluster, key=lambda i: points[i, 1])),
                                   1.05 * height), points[:, 1])
        # The column is the longest run; between runs as long, the one the detector is surer of (a
        # faint peak on a patterned cloth below a one-card column must not take the column's place).
        main = max(runs, key=lambda run: (len(run), float(detections.scores[run].sum())))
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
    return _named(kept, loose, points, across, detections, rotation, (width, height))


def without_piles(layout: Layout, detections: Detections, piles: list[tuple[int, ...]]) -> Layout:
    """``layout`` with ``piles`` (of ``layout.piles``) left loose and the other piles named again: a
    pile found later not to be a column (completed runs set beside the row) must not take a column's
    letter, nor stop the others from making a tableau."""
    if not piles:
        return layout
    points = detections.origins @ layout.rotation.T
    across = _across(points, *layout.card_size)
    columns = [list(pile) for pile in layout.piles(detections) if pile not in piles]
    named = {i for pile in columns for i in pile}
    loose = [i for i in layout.loose if i not in named] + [i for pile in piles for i in pile]
    return _named(columns, loose, points, across, detections, layout.rotation, layout.card_size)


def _named(columns: list[list[int]], loose: list[int], points: np.ndarray, across: np.ndarray,
           detections: Detections, rotation: np.ndarray, card_size: tuple[float, float]) -> Layout:
    """The layout of piles ordered across: ghosts squeezed between columns left loose, and letters
    when the piles (with gaps one pitch wide or more as empty columns) make ten columns."""
    letters: list[int | None] = [None] * len(columns)
    empty: list[int] = []
    full = False
    places = len(columns)
    if len(columns) >= 2:
        steps, pitch = _steps(columns, across, detections)
        while len(columns) > 2:
            # A pile whose neighbours lie about one pitch apart is squeezed between two columns: a ghost
            # (a peak on a card's face or on the cloth) that, kept as a column, would push the letters
            # of the columns after it on. Of the squeezed piles, the detector's weakest goes.
            spans = np.concatenate([[pitch], steps]) + np.concatenate([steps, [pitch]])
            squeezed = np.flatnonzero(spans < CROWDED * pitch)
            if not len(squeezed):
                break
            ghost = min(squeezed, key=lambda k: float(detections.scores[columns[k]].sum()))
            loose.extend(columns.pop(int(ghost)))
            steps, pitch = _steps(columns, across, detections)
        letters = [None] * len(columns)
        slots = np.concatenate([[0], np.cumsum(np.maximum(np.round(steps / pitch), 1))]).astype(int)
        places = int(slots[-1]) + 1
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
                places = 10
                for k in range(len(columns)):
                    letters[k] = int(window[k - best]) if best <= k < best + 10 else None
                loose.extend(i for k, column in enumerate(columns) if letters[k] is None for i in column)
    ordered = [tuple(sorted(column, key=lambda i: points[i, 1])) for column in columns]
    keep = [k for k in range(len(ordered)) if not full or letters[k] is not None]
    extra = tuple(ordered[k] for k in range(len(ordered)) if k not in keep)
    return Layout(tuple(ordered[k] for k in keep), tuple(letters[k] for k in keep), tuple(sorted(loose)),
                  tuple(empty), rotation, card_size, full, extra, places)
