"""The pip count of an uncovered card, and how it weighs the reader's rank probabilities."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from spider_vision.synth.render import Rendering
from spider_vision.synth.truth import CardTruth
from spider_vision.vision.detect import Detections
from spider_vision.vision.pips import MIN_CARD_HEIGHT, count_pips, fit_face, rank_likelihood, weigh_ranks
from spider_vision.vision.training.dataset import render_seed

CARD = (120.0, 180.0)
ORIGIN = np.array([40.0, 30.0])
LAYOUTS = {  # pip centres in card widths and heights, as a standard deck lays them out
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.8)],
    5: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.8)] + [(0.5, 0.5)],
    6: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.5, 0.8)],
    7: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.5, 0.8)] + [(0.5, 0.35)],
    8: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.5, 0.8)] + [(0.5, 0.35), (0.5, 0.65)],
    9: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.5)],
    10: [(u, v) for u in (0.27, 0.73) for v in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)],
}


def _card(pips: int, *, hand: bool = False, ink: tuple[int, int, int] = (30, 30, 30),
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A green table with one upright white card showing ``pips`` pips in ``ink`` (BGR) and an index in two corners."""
    image = np.full((260, 220, 3), (90, 120, 80), np.uint8)
    width, height = CARD
    right, down = np.array([width, 0.0]), np.array([0.0, height])
    x0, y0 = ORIGIN.astype(int)
    cv2.rectangle(image, (x0, y0), (x0 + int(width), y0 + int(height)), (245, 245, 240), -1)
    for u, v in ((0.07, 0.08), (0.93, 0.92)):
        cv2.putText(image, "8", (int(x0 + u * width) - 5, int(y0 + v * height) + 5), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (20, 20, 20), 2)
    for u, v in LAYOUTS[pips]:
        cv2.circle(image, (int(x0 + u * width), int(y0 + v * height)), 7, ink, -1)
    if hand:
        cv2.ellipse(image, (x0 + 90, y0 + 150), (60, 45), 20, 0, 360, (120, 160, 220), -1)
    return image, ORIGIN, right, down


@pytest.mark.parametrize("pips", sorted(LAYOUTS))
def test_the_pips_of_a_whole_face_are_counted(pips: int) -> None:
    image, origin, right, down = _card(pips)
    assert count_pips(image, origin, right, down) == pips


def test_a_hand_over_the_face_says_nothing() -> None:
    image, origin, right, down = _card(6, hand=True)
    assert count_pips(image, origin, right, down) is None


@pytest.mark.parametrize("ink", [(40, 20, 200), (180, 90, 0), (40, 130, 0)])
def test_coloured_pips_are_counted_too(ink: tuple[int, int, int]) -> None:
    image, origin, right, down = _card(5, ink=ink)
    assert count_pips(image, origin, right, down) == 5


def test_pips_on_one_side_only_say_nothing() -> None:
    image, origin, right, down = _card(6)
    x0, y0 = ORIGIN.astype(int)
    cv2.circle(image, (x0 + 33, y0 + 126), 7, (30, 30, 30), -1)  # a seventh pip with no partner
    cv2.circle(image, (x0 + 87, y0 + 120), 7, (30, 30, 30), -1)  # and an eighth
    assert count_pips(image, origin, right, down) is None
    image, origin, right, down = _card(1)
    cv2.rectangle(image, (x0 + 50, y0 + 80), (x0 + 70, y0 + 100), (245, 245, 240), -1)  # the ace's pip gone
    cv2.circle(image, (x0 + 33, y0 + 40), 7, (30, 30, 30), -1)  # and a lone blob off the middle
    assert count_pips(image, origin, right, down) is None


@pytest.mark.parametrize(("grow", "shift", "pips"), [
    ((1.0, 1.12), (0.0, 0.0), 6),  # the frame runs onto the table under the card
    ((1.0, 0.88), (0.0, 0.0), 6),  # the frame stops above the last row of pips
    ((1.0, 1.1), (0.0, 0.0), 9),
    ((1.05, 0.9), (-0.04, 0.0), 8),  # too wide as well, and to the left
    ((0.95, 1.0), (0.05, 0.0), 10),
])
def test_a_frame_a_little_off_is_fitted_to_the_paper_and_counted(grow: tuple[float, float],
                                                                 shift: tuple[float, float], pips: int) -> None:
    image, origin, right, down = _card(pips)
    origin = origin + shift[0] * right + shift[1] * down
    assert count_pips(image, origin, right * grow[0], down * grow[1]) == pips
    fitted, across, along = fit_face(image, origin, right * grow[0], down * grow[1])
    assert np.allclose(fitted, ORIGIN, atol=4.0) if shift[0] else np.allclose(fitted, origin)
    assert abs(np.linalg.norm(across) - CARD[0]) < 5.0 and abs(np.linalg.norm(along) - CARD[1]) < 5.0


def _turned(vector: np.ndarray, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    return np.array([np.cos(a) * vector[0] - np.sin(a) * vector[1], np.sin(a) * vector[0] + np.cos(a) * vector[1]])


@pytest.mark.parametrize("pips", [4, 6, 9, 10])
@pytest.mark.parametrize("degrees", [-10.0, -6.0, -3.0, 3.0, 6.0, 10.0])
def test_a_frame_turned_against_the_card_counts_right_or_says_nothing(pips: int, degrees: float) -> None:
    image, origin, right, down = _card(pips)
    assert count_pips(image, origin, _turned(right, degrees), _turned(down, degrees)) in (pips, None)


def test_two_diagonal_pips_left_of_a_four_are_no_two() -> None:
    image, origin, right, down = _card(4)
    for u, v in ((0.73, 0.2), (0.27, 0.8)):  # two of its four pips gone
        cv2.circle(image, (int(ORIGIN[0] + u * CARD[0]), int(ORIGIN[1] + v * CARD[1])), 8, (245, 245, 240), -1)
    assert count_pips(image, origin, right, down) is None


def test_a_card_touching_the_next_column_keeps_its_own_width() -> None:
    image, origin, right, down = _card(4)
    x0, y0 = ORIGIN.astype(int)
    # The next column's card, a few pixels to the right and lower, paper against paper.
    cv2.rectangle(image, (x0 + int(CARD[0]) + 1, y0 + 20), (219, 259), (245, 245, 240), -1)
    fitted, across, along = fit_face(image, origin, right * 1.05, down * 1.1)
    assert abs(np.linalg.norm(across) - 1.05 * CARD[0]) < 1.0  # its paper runs on: the width is kept
    assert abs(np.linalg.norm(along) - CARD[1]) < 5.0
    assert count_pips(image, origin, right * 1.05, down * 1.1) == 4


@pytest.mark.parametrize(("count", "likeliest"), [(1, {1, 11, 12, 13}), (2, {2, 11, 12, 13}),
                                                  (3, {3, 11, 12, 13}), (4, {4}), (6, {6}), (10, {10})])
def test_the_likeliest_ranks_are_the_count_and_low_counts_never_weigh_against_courts(
        count: int, likeliest: set[int]) -> None:
    likelihood = rank_likelihood(count)
    assert {rank for rank in range(1, 14) if likelihood[rank - 1] == likelihood.max()} == likeliest


@pytest.mark.parametrize("count", [11, 12, 13])
def test_more_than_ten_blobs_weigh_as_a_ten(count: int) -> None:
    # Held-out tables: every count of 11 was a 10 (its pips split, or an index piece got in).
    assert np.array_equal(rank_likelihood(count), rank_likelihood(10))


@pytest.mark.parametrize(("height", "first", "weighed"), [
    (CARD[1], 0.5, True),
    (MIN_CARD_HEIGHT - 1.0, 0.5, False),
    (CARD[1], 0.95, False),
])
def test_a_six_read_as_a_4_is_settled_by_its_pips_unless_too_small_or_read_surely(height: float, first: float,
                                                                                  weighed: bool) -> None:
    scale = height / CARD[1]
    image, origin, right, down = _card(6)
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rank = np.full((1, 13), (1.0 - first - 0.03) / 11)
    rank[0, 3], rank[0, 5] = first, 0.03  # a 4 first, a 6 second
    detections = Detections(scores=np.array([0.9]), centres=(origin + [6.0, 9.0])[None] * scale,
                            origins=origin[None] * scale, rights=right[None] * scale, downs=down[None] * scale,
                            index_sizes=np.array([[8.0, 16.0]]) * scale)
    out = weigh_ranks(rank, image, detections, [0])
    assert np.isclose(out[0].sum(), 1.0)
    if weighed:
        assert out[0].argmax() == 5
    else:
        assert np.array_equal(out, rank)


def _uncovered_number_cards(seed: int) -> tuple[Rendering, list[CardTruth]]:
    rendering = render_seed(seed)
    return rendering, [card for card in rendering.cards
                       if card.pile == "tableau" and card.face_up and card.card is not None
                       and card.visible_fraction > 0.97 and 1 <= card.card.rank <= 10
                       and np.linalg.norm(np.subtract(card.quad[3], card.quad[0])) >= MIN_CARD_HEIGHT]


def test_rendered_number_cards_are_mostly_counted_right() -> None:
    counted = total = 0
    for seed in range(100000, 100012):
        rendering, cards = _uncovered_number_cards(seed)
        for card in cards:
            quad = np.array(card.quad, float)
            counted += count_pips(rendering.image, quad[0], quad[1] - quad[0], quad[3] - quad[0]) == card.card.rank
            total += 1
    assert total >= 30
    assert counted / total >= 0.8
