"""Grouping of detected cards into the ten columns of a Spider tableau."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from spider_vision.vision.detect import Detections, _plausible
from spider_vision.vision.layout import group_columns

WIDTH, HEIGHT = 50.0, 70.0


def _table(columns: list[int], angle: float = 0.0, extra: list[tuple[float, float]] = ()) -> tuple[Detections, list]:
    """Detections of columns with the given numbers of face-up cards (0: empty), rotated by ``angle``."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    origins, ids = [], []
    for c, count in enumerate(columns):
        for k in range(count):
            origins.append([c * 1.2 * WIDTH, 0.1 * HEIGHT * (c % 3) + k * 0.25 * HEIGHT])
            ids.append((c, k))
    for x, y in extra:
        origins.append([x, y])
        ids.append(None)
    origins = np.array(origins) @ rot.T + [400, 300]
    n = len(origins)
    rights = np.tile(rot @ [WIDTH, 0], (n, 1))
    downs = np.tile(rot @ [0, HEIGHT], (n, 1))
    # Shuffle so that the grouping cannot rely on the input order.
    order = np.random.default_rng(3).permutation(n)
    detections = Detections(np.ones(n), origins[order] + 5, origins[order], rights, downs, np.tile([8, 20], (n, 1)))
    return detections, [ids[i] for i in order]


def _scored(detections: Detections, ids: list, extra: float, card: float) -> Detections:
    """``detections`` with the detector's score ``extra`` on the extra peaks and ``card`` on the cards."""
    return replace(detections, scores=np.where([i is None for i in ids], extra, card))


@pytest.mark.parametrize("angle", [0.0, 12.0, -30.0, 90.0, 180.0])
def test_ten_columns_get_letters_in_order_and_cards_top_to_bottom(angle: float) -> None:
    detections, ids = _table([3, 1, 2, 4, 1, 1, 2, 5, 1, 2], angle)
    layout = group_columns(detections)
    assert layout.full
    assert layout.letters == tuple(range(10))
    for letter, column in zip(layout.letters, layout.columns):
        assert [ids[i] for i in column] == [(letter, k) for k in range(len(column))]


def test_a_gap_one_column_wide_is_an_empty_column() -> None:
    detections, _ = _table([2, 1, 1, 0, 3, 1, 1, 1, 1, 1])
    layout = group_columns(detections)
    assert layout.full
    assert layout.empty == (3,)
    assert layout.letters == (0, 1, 2, 4, 5, 6, 7, 8, 9)


def test_a_partial_view_has_no_column_letters() -> None:
    layout = group_columns(_table([2, 1, 3, 1])[0])
    assert not layout.full
    assert layout.letters == (None,) * 4


@pytest.mark.parametrize("columns, places, full", [
    ([2, 1, 3, 1], 4, False),
    ([1, 2, 1, 1, 1, 3, 1, 1, 1], 9, False),       # column a or j empty: which, one picture cannot tell
    ([1, 2, 0, 1, 1, 3, 1, 1, 0, 1], 10, True),
    ([1, 2, 0, 0, 1, 3, 1, 1, 1], 9, False),
])
def test_places_count_the_columns_the_piles_take_with_gaps_as_empty_ones(columns: list[int], places: int,
                                                                        full: bool) -> None:
    layout = group_columns(_table(columns)[0])
    assert (layout.places, layout.full) == (places, full)


def test_a_removed_run_beside_the_tableau_is_loose() -> None:
    detections, ids = _table([2, 1, 1, 1, 3, 1, 1, 1, 1, 1], extra=[(15 * WIDTH, -2 * HEIGHT)])
    layout = group_columns(detections)
    assert layout.full
    assert [ids[i] for i in layout.loose] == [None]


@pytest.mark.parametrize("missed, together", [(2, True), (5, False)])
def test_cards_missed_inside_a_long_step_column_leave_it_one_column(missed: int, together: bool) -> None:
    """Steps of 0.36 card heights (a near camera): two cards missed in a row leave a gap of 1.08 card
    heights, more than the one that parts a column from a pile below it, yet the cards after the gap
    are still the column's; five missed leave a pile of its own."""
    step = 0.36 * HEIGHT
    kept = [k for k in range(6 + missed + 2) if not 6 <= k < 6 + missed]
    origins = np.array([[0.0, k * step] for k in kept] + [[c * 1.2 * WIDTH, 0.0] for c in range(1, 10)]) + 300
    n = len(origins)
    detections = Detections(np.ones(n), origins + 5, origins, np.tile([WIDTH, 0.0], (n, 1)),
                            np.tile([0.0, HEIGHT], (n, 1)), np.tile([8, 20], (n, 1)))
    layout = group_columns(detections)
    first = layout.columns[0]
    assert (len(first) == len(kept)) is together
    assert (len(layout.loose) == 0) is together


@pytest.mark.parametrize("ghost_score", [0.3, 0.6])
def test_a_weak_ghost_pile_beside_the_first_column_is_loose(ghost_score: float) -> None:
    # A far view: the detector also fires, weakly, just left of column a. The ten real columns (each
    # with one card, as in a fresh deal) must keep their letters and column j must not be dropped.
    detections, ids = _table([1] * 10, extra=[(-0.95 * WIDTH, 0.0)])
    detections = _scored(detections, ids, ghost_score, 0.9)
    layout = group_columns(detections)
    assert layout.full and layout.letters == tuple(range(10))
    assert [ids[i] for i in layout.loose] == [None]
    assert [[ids[i] for i in column] for column in layout.columns] == [[(c, 0)] for c in range(10)]


def _cards(frames: list[tuple[tuple[float, float], tuple[float, float], float]]) -> Detections:
    """Detections from (origin, down vector, score); the right vector is the down vector turned to the left."""
    origins = np.array([f[0] for f in frames], float)
    downs = np.array([f[1] for f in frames], float)
    rights = np.stack([downs[:, 1], -downs[:, 0]], axis=1) * (WIDTH / HEIGHT)
    centres = origins + 0.1 * rights + 0.15 * downs
    return Detections(np.array([f[2] for f in frames]), centres, origins, rights, downs,
                      np.tile([8.0, 20.0], (len(frames), 1)))


@pytest.mark.parametrize("angle", [0.0, 35.0, 170.0])
def test_a_card_upside_down_against_the_table_is_dropped(angle: float) -> None:
    a = np.radians(angle)
    down = HEIGHT * np.array([-np.sin(a), np.cos(a)])
    frames = [((100.0 * k, 0.0), tuple(down), 0.8) for k in range(4)] + [((500.0, 300.0), tuple(-down), 0.4)]
    assert list(_plausible(_cards(frames))) == [True] * 4 + [False]


@pytest.mark.parametrize("upright, turned, kept", [
    (7, 6, [True] * 7 + [False] * 6),
    (6, 7, [False] * 6 + [True] * 7),
    (4, 4, [True] * 4 + [False] * 4),
])
def test_the_larger_of_two_opposite_camps_sets_the_tables_down_direction(
        upright: int, turned: int, kept: list[bool]) -> None:
    # Where whole faces show, the far (upside-down) index is found about as often as the top one;
    # the median of an even split of the votes pointed across both camps and set every card aside.
    down = np.array([30.0, 60.0])
    frames = [((100.0 * k, 0.0), tuple(down), 0.6) for k in range(upright)]
    frames += [((100.0 * k + 40.0, 200.0), tuple(-down), 0.55) for k in range(turned)]
    assert list(_plausible(_cards(frames))) == kept


@pytest.mark.parametrize("shift, kept", [(0.0, True), (0.45, False), (1.05, True)])
def test_a_peak_on_a_stronger_cards_face_is_dropped_unless_it_lies_like_a_card(shift: float, kept: bool) -> None:
    frames = [((0.0, 0.0), (0.0, HEIGHT), 0.8), ((300.0, 0.0), (0.0, HEIGHT), 0.8), ((600.0, 0.0), (0.0, HEIGHT), 0.8),
              ((shift * WIDTH, 0.3 * HEIGHT), (0.0, HEIGHT), 0.4)]
    assert list(_plausible(_cards(frames))) == [True, True, True, kept]


def _perspective_table(columns: list[int], distance: float) -> tuple[Detections, list]:
    """Columns seen by a slanted camera: each runs down a line from a vanishing point ``distance``
    above the top row, so long columns drift sideways as they come down."""
    centre = 4.5 * 1.2 * WIDTH
    origins, rights, downs, ids = [], [], [], []
    for c, count in enumerate(columns):
        top = np.array([c * 1.2 * WIDTH, 0.0])
        line = top - [centre, -distance]
        line /= np.linalg.norm(line)
        for k in range(count):
            origins.append(top + line * k * 0.25 * HEIGHT)
            downs.append(line * HEIGHT)
            rights.append([line[1] * WIDTH, -line[0] * WIDTH])
            ids.append((c, k))
    n = len(origins)
    order = np.random.default_rng(5).permutation(n)
    origins_ = np.array(origins)[order] + [400, 300]
    detections = Detections(np.ones(n), origins_ + 5, origins_, np.array(rights)[order], np.array(downs)[order],
                            np.tile([8, 20], (n, 1)))
    return detections, [ids[i] for i in order]


@pytest.mark.parametrize("distance", [300.0, 400.0, 600.0, 1000.0, 1e7])
def test_long_columns_converging_in_perspective_keep_apart(distance: float) -> None:
    """The two columns at each edge run towards each other: their corners, taken where they lie, touch."""
    detections, ids = _perspective_table([12, 12, 6, 5, 6, 0, 6, 5, 12, 12], distance)
    layout = group_columns(detections)
    assert layout.full and layout.empty == (5,)
    for letter, column in zip(layout.letters, layout.columns):
        assert [ids[i] for i in column] == [(letter, k) for k in range(len(column))]


@pytest.mark.parametrize("place", [3.55, 3.45, 9.4])
def test_a_weak_ghost_squeezed_between_two_columns_is_loose(place: float) -> None:
    """A faint peak on a card's face or on the cloth, less than a pitch from two columns, is no column
    of its own: kept, it would push the letters after it on and cost column j."""
    pitch = 1.2 * WIDTH
    detections, ids = _table([1] * 10, extra=[(place * pitch, 0.0)])
    detections = _scored(detections, ids, 0.35, 0.8)
    layout = group_columns(detections)
    assert layout.full and layout.letters == tuple(range(10))
    assert [ids[i] for i in layout.loose] == [None]


@pytest.mark.parametrize("below", [1.3, 1.6])
def test_a_weak_peak_below_a_one_card_column_does_not_take_its_place(below: float) -> None:
    """A one-card column and a faint peak (a dot of the cloth) more than a card height below it: the
    column keeps its card and the peak is loose."""
    detections, ids = _table([1] * 10, extra=[(9 * 1.2 * WIDTH + 5.0, below * HEIGHT)])
    detections = _scored(detections, ids, 0.3, 0.7)
    layout = group_columns(detections)
    assert layout.full and layout.letters == tuple(range(10))
    assert [ids[i] for i in layout.columns[9]] == [(9, 0)]
    assert [ids[i] for i in layout.loose] == [None]
