"""Score a reading against the renderer's truth: the figures of ``bench/vision.py`` and the tests.

Readable cards are face-up cards whose corner index shows at least
``MIN_INDEX_VISIBLE``; those whose index shows at least ``WHOLE_INDEX``
are counted apart as well, because the next card of a column often hides
the suit pip of a half-covered index, and then no picture alone can tell
spades from clubs (the tracker knows them from earlier frames). So are
those whose suit pip shows at least ``SUIT_SHOWN``: the cards a person
could name from the picture in any suit mode. The pipeline's own estimate
of each card's pip shown is scored against the truth's, and on four-suit
tables whether it warned of a cascade hiding ``HIDDEN_SUITS`` suits or
more. Predicted cards are paired one to one with truth cards whose index
centre is within half an index height of their own, as many as can be,
then nearest (``match_indices``). An uncertain or missed card counts as wrong. A position
is exact when the tableau, the stock count and the number of removed runs
match (removed suits are guessed, so not compared); a refused picture of a
full view counts as a full view not read exactly. Exact positions are also
counted apart on full views with no hand over the table: a hand hides
cards that no picture alone can then read (the tracker waits for the hands
to leave instead); and on full views where every face-up card of the
tableau shows at least ``MIN_INDEX_VISIBLE`` of its index, hands or not
(where one does not, no reader can give the exact position); a card
whose top-left index the next column covers counts as shown where its
bottom-right one shows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

import numpy as np

from spider_vision.engine import Position
from spider_vision.synth.truth import CardTruth, lowest_face_up
from spider_vision.vision.detect import Detections
from spider_vision.vision.framing import HIDDEN_SUITS, HIDDEN_SUITS_PHRASE, SUIT_SHOWN
from spider_vision.vision.layout import Layout
from spider_vision.vision.reading import CardReading, TableReading

__all__ = [
    "CARD_HEIGHTS", "INDEX_SHOWN", "MIN_INDEX_VISIBLE", "OUTCOMES", "SUIT_SHOWN", "WHOLE_INDEX", "match_indices",
    "missed", "score", "summarise",
]

MIN_INDEX_VISIBLE = 0.3
WHOLE_INDEX = 0.9
CARD_HEIGHTS = (50, 65, 80, 100, 130)
"""Bounds (pixels) of the card-height bands that ``summarise`` gives accuracies for."""
INDEX_SHOWN = (MIN_INDEX_VISIBLE, 0.5, 0.7, WHOLE_INDEX)
"""Lower bounds of the bands of index shown that ``summarise`` gives the outcomes of cards for: where a
covered index goes wrong (its rank, or its suit pip hidden under the next card) or is missed."""
OUTCOMES = ("right", "uncertain", "rank wrong", "suit wrong", "missed")
"""What became of a readable card: read right, reported uncertain, read as another rank, read as its
rank in another suit, or not found."""


def _height_band(card: CardTruth) -> int:
    """The band of ``CARD_HEIGHTS`` the card's height in the picture falls in (0: under the first bound)."""
    quad = np.array(card.quad)
    height = float(np.linalg.norm(quad[3] - quad[0]))
    return sum(height >= bound for bound in CARD_HEIGHTS)


def _shown_band(card: CardTruth) -> int:
    """The band of ``INDEX_SHOWN`` the share of the card's index that shows falls in (0: the first)."""
    return sum(card.index_visible >= bound for bound in INDEX_SHOWN[1:])


def _outcome(truth: CardTruth, read: CardReading | None) -> int:
    """The number in ``OUTCOMES`` of what became of ``truth`` (``read``: the prediction paired with it)."""
    if read is None:
        return OUTCOMES.index("missed")
    if read.card is None:
        return OUTCOMES.index("uncertain")
    if read.card == truth.card:
        return OUTCOMES.index("right")
    assert truth.card is not None
    return OUTCOMES.index("rank wrong" if read.card.rank != truth.card.rank else "suit wrong")


def _tableau(spn: str) -> tuple[str, str, int]:
    tableau, stock, removed, _ = spn.split(" ")
    return tableau, stock, 0 if removed == "-" else len(removed)


def score(reading: TableReading | None, cards: Sequence[CardTruth], spn: str, full_view: bool,
          hands: int = 0) -> dict[str, int]:
    """Counts for one table: ``reading`` (None when the picture was refused) against the renderer's truth;
    ``hands`` is the number of hands the picture shows."""
    truth_cards = [c for c in cards if c.face_up and c.index_quad and c.index_visible >= MIN_INDEX_VISIBLE]
    whole = [card.index_visible >= WHOLE_INDEX for card in truth_cards]
    suit_shown = [card.suit_visible >= SUIT_SHOWN for card in truth_cards]
    counts = {"readable": len(truth_cards), "found": 0, "correct": 0, "uncertain": 0, "columns": 0,
              "down_correct": 0, "full_view": 0, "exact": 0, "failed": 0,
              "readable_whole": sum(whole), "correct_whole": 0, "clear_view": 0, "exact_clear": 0,
              "shown_view": 0, "exact_shown": 0, "readable_suit_shown": sum(suit_shown), "correct_suit_shown": 0}
    bands = [_height_band(card) for card in truth_cards]
    for band in bands:
        counts[f"readable_band{band}"] = counts.get(f"readable_band{band}", 0) + 1
    counts["full_view"] = int(full_view)
    counts["clear_view"] = int(full_view and not hands)
    counts["shown_view"] = int(full_view and _every_index_shows(cards))
    if reading is None:
        # A refused picture still counts: as a full view that was not read exactly, its cards missed.
        counts["failed"] = 1
        _count_outcomes(counts, truth_cards, [None] * len(truth_cards))
        return counts
    boxed = [(c, c.index_box) for c in reading.cards if c.face_up and c.index_box is not None]
    predicted = [c for c, _ in boxed]
    centres = np.array([[x + w / 2, y + h / 2] for _, (x, y, w, h) in boxed]).reshape(-1, 2)
    truth_centres = np.array([np.mean(card.index_quad, axis=0) for card in truth_cards]).reshape(-1, 2)
    reaches = np.array([0.5 * np.linalg.norm(np.subtract(card.index_quad[3], card.index_quad[0]))
                        for card in truth_cards])
    match = match_indices(truth_centres, reaches, centres)
    outcomes = _count_outcomes(counts, truth_cards,
                               [predicted[match[t]] if t in match else None for t in range(len(truth_cards))])
    for t in match:
        counts["found"] += 1
        # The pipeline's own estimate of the pip shown, against the truth's.
        hidden = (not suit_shown[t], predicted[match[t]].suit_shown < SUIT_SHOWN)
        counts["pip_hidden"] = counts.get("pip_hidden", 0) + hidden[0]
        counts["pip_hidden_estimated"] = counts.get("pip_hidden_estimated", 0) + hidden[1]
        counts["pip_hidden_both"] = counts.get("pip_hidden_both", 0) + (hidden[0] and hidden[1])
        if OUTCOMES[outcomes[t]] == "uncertain":
            counts["uncertain"] += 1
        elif OUTCOMES[outcomes[t]] == "right":
            counts["correct"] += 1
            counts["correct_whole"] += whole[t]
            counts["correct_suit_shown"] += suit_shown[t]
            counts[f"correct_band{bands[t]}"] = counts.get(f"correct_band{bands[t]}", 0) + 1
    # Face-down count of each tableau column, through the column's lowest face-up card.
    for lowest, _ in lowest_face_up(cards).values():
        if lowest not in truth_cards or truth_cards.index(lowest) not in match:
            continue
        k = match[truth_cards.index(lowest)]
        counts["columns"] += 1
        if predicted[k].index == lowest.index:
            counts["down_correct"] += 1
    if spn.split(" ")[-1] == "4":
        # Tables whose cascade hides suits, and whether the reading warned of it (``hidden_suit_warnings``).
        warned = any(HIDDEN_SUITS_PHRASE in warning for warning in reading.warnings)
        # The warning counts the columns' cards, so the truth does too (not removed runs or the stock's).
        in_columns = sum(not shown for card, shown in zip(truth_cards, suit_shown) if card.pile == "tableau")
        key = "hiding" if in_columns >= HIDDEN_SUITS else "showing"
        counts[f"four_suit_{key}"] = 1
        counts[f"four_suit_{key}_warned"] = int(warned)
    if full_view:
        truth = _tableau(Position.from_spn(spn).observed().spn())
        if reading.position is not None and _tableau(reading.position) == truth:
            counts["exact"] = 1
            counts["exact_clear"] = counts["clear_view"]
            counts["exact_shown"] = counts["shown_view"]
    return counts


def _every_index_shows(cards: Sequence[CardTruth]) -> bool:
    """Whether every face-up card of the tableau shows at least ``MIN_INDEX_VISIBLE`` of one of its corner
    indices (the top-left one, or the bottom-right one where the next column covers that): where one does
    not (a hand over it), no picture alone can give the exact position."""
    return all(max(card.index_visible, card.second_index_visible) >= MIN_INDEX_VISIBLE
               for card in cards if card.pile == "tableau" and card.face_up)


def _count_outcomes(counts: dict[str, int], truth_cards: list[CardTruth],
                    reads: list[CardReading | None]) -> list[int]:
    """Add each readable card's outcome to ``counts`` under its band of index shown; return the outcomes
    (numbers in ``OUTCOMES``) in the order of ``truth_cards``."""
    outcomes = [_outcome(truth, read) for truth, read in zip(truth_cards, reads)]
    for truth, outcome in zip(truth_cards, outcomes):
        key = f"shown{_shown_band(truth)}_{outcome}"
        counts[key] = counts.get(key, 0) + 1
    return outcomes


def match_indices(truth: np.ndarray, reaches: np.ndarray, predicted: np.ndarray) -> dict[int, int]:
    """Truth index centres (n, 2) paired one to one with predicted ones (m, 2): truth number -> prediction.

    A pair lies within the truth's ``reaches``; as many truths as can be are
    paired, and among such pairings the one with the least total distance is
    taken. Pairing each truth in turn with its nearest free prediction went
    wrong in tight cascades: there a covered card's index centre, guessed
    from its top part, lies a little high, and the next card's prediction
    was taken for it, which shifted the whole column by one card.
    """
    if not len(truth) or not len(predicted):
        return {}
    distance = np.linalg.norm(truth[:, None] - predicted[None], axis=2)
    near = distance <= reaches[:, None]
    match: dict[int, int] = {}
    for rows, cols in _components(near):
        cost = np.where(near[np.ix_(rows, cols)], distance[np.ix_(rows, cols)], np.inf)
        for r, c in _assign(cost):
            match[int(rows[r])] = int(cols[c])
    return match


def _components(near: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The connected groups (truth rows, prediction columns) of the bipartite graph ``near``."""
    truths = near.shape[0]
    seen = np.zeros(truths + near.shape[1], bool)
    groups = []
    for start in range(truths):
        if seen[start] or not near[start].any():
            continue
        seen[start] = True
        stack, members = [start], [start]
        while stack:
            node = stack.pop()
            if node < truths:
                neighbours = truths + np.flatnonzero(near[node])
            else:
                neighbours = np.flatnonzero(near[:, node - truths])
            for other in neighbours[~seen[neighbours]]:
                seen[other] = True
                stack.append(int(other))
                members.append(int(other))
        group = np.array(sorted(members))
        groups.append((group[group < truths], group[group >= truths] - truths))
    return groups


UNPAIRED = 1e6
"""Cost of leaving a truth unpaired in ``_assign``: above any sum of distances, so pairs come first."""


def _assign(cost: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (row, column) of a rectangular cost matrix (inf: not allowed) that pair the most rows at the
    least total cost (the Hungarian method on the matrix padded with an unpaired choice per row)."""
    rows, cols = cost.shape
    size = rows + cols
    square = np.zeros((size, size))
    square[:rows, :cols] = np.where(np.isfinite(cost), cost, 10 * UNPAIRED)
    square[:rows, cols:] = 10 * UNPAIRED
    square[np.arange(rows), cols + np.arange(rows)] = UNPAIRED
    # Rows rows..size-1 stand for predictions left unpaired: free against any column.
    u, v = np.zeros(size + 1), np.zeros(size + 1)
    owner = np.zeros(size + 1, int)  # owner[j]: the row (from 1) that holds column j (from 1); 0 for none
    way = np.zeros(size + 1, int)
    for row in range(1, size + 1):
        owner[0] = row
        column = 0
        least = np.full(size + 1, np.inf)
        used = np.zeros(size + 1, bool)
        while owner[column]:
            used[column] = True
            current = owner[column]
            reduced = square[current - 1] - u[current] - v[1:]
            free = ~used[1:]
            better = free & (reduced < least[1:])
            least[1:][better] = reduced[better]
            way[1:][better] = column
            candidates = np.where(free, least[1:], np.inf)
            nearest = int(np.argmin(candidates)) + 1
            delta = candidates[nearest - 1]
            u[owner[used]] += delta
            v[used] -= delta
            least[1:][free] -= delta
            column = nearest
        while column:
            before = way[column]
            owner[column] = owner[before]
            column = before
    pairs = []
    for column in range(1, cols + 1):
        row = owner[column] - 1
        if row < rows and np.isfinite(cost[row, column - 1]):
            pairs.append((row, column - 1))
    return pairs


def summarise(total: dict[str, int], scenes: int) -> dict[str, Any]:
    """Rates from summed ``score`` counts."""
    readable = max(total.get("readable", 0), 1)
    return {
        "scenes": scenes,
        "readable_cards": int(total.get("readable", 0)),
        "recall": total.get("found", 0) / readable,
        "card_accuracy": total.get("correct", 0) / readable,
        "card_accuracy_whole_index": total.get("correct_whole", 0) / max(total.get("readable_whole", 0), 1),
        "card_accuracy_covered_index": (total.get("correct", 0) - total.get("correct_whole", 0))
        / max(readable - total.get("readable_whole", 0), 1),
        "card_accuracy_suit_shown": total.get("correct_suit_shown", 0) / max(total.get("readable_suit_shown", 0), 1),
        "suit_hidden_share": (total.get("readable", 0) - total.get("readable_suit_shown", 0)) / readable,
        "pip_hidden_recall": total.get("pip_hidden_both", 0) / max(total.get("pip_hidden", 0), 1),
        "pip_hidden_precision": total.get("pip_hidden_both", 0) / max(total.get("pip_hidden_estimated", 0), 1),
        "hidden_suits_warned": {
            kind: [int(total.get(f"four_suit_{kind}_warned", 0)), int(total.get(f"four_suit_{kind}", 0))]
            for kind in ("hiding", "showing")},
        "accuracy_of_found": total.get("correct", 0) / max(total.get("found", 0), 1),
        "uncertain_rate": total.get("uncertain", 0) / max(total.get("found", 0), 1),
        "down_count_accuracy": total.get("down_correct", 0) / max(total.get("columns", 0), 1),
        "full_views": int(total.get("full_view", 0)),
        "exact_position": total.get("exact", 0) / max(total.get("full_view", 0), 1),
        "full_views_without_hands": int(total.get("clear_view", 0)),
        "exact_position_without_hands": total.get("exact_clear", 0) / max(total.get("clear_view", 0), 1),
        "full_views_every_index_shown": int(total.get("shown_view", 0)),
        "exact_position_every_index_shown": total.get("exact_shown", 0) / max(total.get("shown_view", 0), 1),
        "failed_pictures": int(total.get("failed", 0)),
        "card_accuracy_by_card_height": _by_height(total),
        "outcomes_by_index_shown": _by_index_shown(total),
    }


def _by_height(total: dict[str, int]) -> dict[str, list[float]]:
    """Per card-height band (``"65-80 px"``): the accuracy and the number of readable cards."""
    names = [f"<{CARD_HEIGHTS[0]}"] + [f"{low}-{high}" for low, high in zip(CARD_HEIGHTS, CARD_HEIGHTS[1:])]
    names.append(f">={CARD_HEIGHTS[-1]}")
    figures: dict[str, list[float]] = {}
    for band, name in enumerate(names):
        readable = total.get(f"readable_band{band}", 0)
        if readable:
            figures[f"{name} px"] = [round(total.get(f"correct_band{band}", 0) / readable, 4), readable]
    return figures


def _by_index_shown(total: dict[str, int]) -> dict[str, dict[str, int]]:
    """Per band of index shown (``"50-70%"``, ``"whole"``): how many readable cards had each outcome."""
    names = [f"{100 * low:.0f}-{100 * high:.0f}%" for low, high in zip(INDEX_SHOWN, INDEX_SHOWN[1:])] + ["whole"]
    figures: dict[str, dict[str, int]] = {}
    for band, name in enumerate(names):
        outcomes = {outcome: total.get(f"shown{band}_{number}", 0) for number, outcome in enumerate(OUTCOMES)}
        if any(outcomes.values()):
            figures[name] = outcomes
    return figures


def missed(detections: Detections, layout: Layout, dropped: int) -> tuple[Detections, Layout]:
    """The detections and their layout as if the detector had missed detection ``dropped``: how the
    stages after it cope (``bench/hidden.py`` and the tests)."""
    keep = np.array([i for i in range(len(detections)) if i != dropped])
    renumber = {int(old): new for new, old in enumerate(keep)}
    columns = tuple(tuple(renumber[i] for i in column if i in renumber) for column in layout.columns)
    loose = tuple(renumber[i] for i in layout.loose if i in renumber)
    extra = tuple(pile for pile in (tuple(renumber[i] for i in pile if i in renumber) for pile in layout.extra)
                  if pile)
    return detections.subset(keep), replace(layout, columns=columns, loose=loose, extra=extra)
