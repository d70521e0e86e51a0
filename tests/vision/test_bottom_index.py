"""Each column's exposed card read at its bottom-right index too, as a second, weaker piece of evidence."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.engine import Card, Position
from spider_vision.vision import Models, read_table
from spider_vision.vision.bottom_index import BOTTOM_WEIGHT, SURE_TOP, read_bottom_indices
from spider_vision.vision.cascade import repair_columns
from spider_vision.vision.detect import Detections, detect_cards
from spider_vision.vision.layout import group_columns
from spider_vision.vision.training.dataset import render_seed

THREE, EIGHT = 2, 7
SURE = 0.8


@pytest.fixture(scope="module")
def models() -> Models:
    return Models.load()


class _Reader:
    """A reader that gives the same beliefs for every crop, and counts the crops it was shown."""

    def __init__(self, rank: np.ndarray, suit: np.ndarray) -> None:
        self.rank, self.suit, self.crops = rank, suit, 0

    def read(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.crops += len(crops)
        n = len(crops)
        return np.tile(self.rank, (n, 1)), np.tile(self.suit, (n, 1)), np.zeros((n, 64))


def _card(top: float) -> Detections:
    """One card 50 x 70 px with its top-left corner ``top`` px down a 200 x 200 picture."""
    origin = np.array([[60.0, top]])
    return Detections(np.ones(1), origin + 5, origin, np.array([[50.0, 0.0]]), np.array([[0.0, 70.0]]),
                      np.array([[8.0, 20.0]]))


def _beliefs(best: int, chance: float, size: int) -> np.ndarray:
    beliefs = np.full(size, (1 - chance) / (size - 1))
    beliefs[best] = chance
    return beliefs


def test_the_bottom_index_settles_an_unsure_top_read() -> None:
    top_rank = np.full((1, 13), 0.01)
    top_rank[0, [THREE, EIGHT]] = 0.40, 0.49
    top_suit = _beliefs(0, 0.9, 4)[None]
    reader = _Reader(_beliefs(THREE, 0.9, 13), _beliefs(0, 0.9, 4))
    rank, suit = read_bottom_indices(np.zeros((200, 200, 3), np.uint8), reader, _card(40.0), [0], top_rank, top_suit)
    assert reader.crops == 1
    assert rank[0].argmax() == THREE
    expected = top_rank[0] * reader.rank ** BOTTOM_WEIGHT
    assert np.allclose(rank[0], expected / expected.sum())
    assert suit[0].argmax() == 0 and suit[0].max() > top_suit[0].max()
    assert np.allclose(rank.sum(axis=1), 1.0) and np.allclose(suit.sum(axis=1), 1.0)


@pytest.mark.parametrize(("top", "read"), [(40.0, True), (150.0, False)])  # the second card runs off the picture
def test_only_a_bottom_corner_inside_the_picture_is_read(top: float, read: bool) -> None:
    top_rank, top_suit = _beliefs(EIGHT, 0.5, 13)[None], _beliefs(0, 0.5, 4)[None]
    reader = _Reader(_beliefs(THREE, 0.99, 13), _beliefs(1, 0.99, 4))
    rank, suit = read_bottom_indices(np.zeros((200, 200, 3), np.uint8), reader, _card(top), [0], top_rank, top_suit)
    assert (reader.crops == 1) is read
    assert bool(rank[0].argmax() == THREE) is read
    if not read:
        assert rank is top_rank and suit is top_suit


@pytest.mark.parametrize("seed", [100011, 100103])
def test_a_sure_read_of_the_bottom_index_alone_names_the_exposed_card(models: Models, seed: int) -> None:
    # Table 100011 has a hand over two columns' last cards, and a King whose bottom corner the frame
    # misses: those bottom reads are unsure, so multiplied into a top read they change it little.
    rendering = render_seed(seed)
    detections = detect_cards(models, rendering.image)
    detections, layout = repair_columns(detections, group_columns(detections))
    exposed = [column[-1] for column in layout.columns]
    flat = (np.full((len(detections), 13), 1 / 13), np.full((len(detections), 4), 1 / 4))
    rank, suit = read_bottom_indices(rendering.image, models, detections, exposed, *flat)
    # With flat top beliefs, the bottom read alone is the result to the power 1 / BOTTOM_WEIGHT.
    rank, suit = (beliefs ** (1 / BOTTOM_WEIGHT) / (beliefs ** (1 / BOTTOM_WEIGHT)).sum(axis=1, keepdims=True)
                  for beliefs in (rank, suit))
    truth = [card for card in rendering.cards if card.pile == "tableau" and card.face_up]
    sure = [i for i in exposed if rank[i].max() >= SURE and suit[i].max() >= SURE]
    assert len(sure) >= len(exposed) // 2
    for i in sure:
        card = min(truth, key=lambda c: float(np.linalg.norm(np.subtract(c.quad[0], detections.origins[i]))))
        assert card.card == Card(int(rank[i].argmax()) + 1, "shdc"[int(suit[i].argmax())])


def test_an_exposed_card_the_top_index_left_unsure_is_read() -> None:
    # Held-out table 100103, a fresh deal: column a's 3s was reported uncertain (??) from its top index
    # alone, so the position was not exact.
    rendering = render_seed(100103)
    reading = read_table(rendering.image, Models.load(), suits=rendering.suits)
    assert [card.card for card in reading.column(0) if card.face_up] == [Card(3, "s")]
    assert reading.position is not None and "??" not in reading.position
    truth = Position.from_spn(rendering.spn)
    read = Position.from_spn(reading.position)
    assert [(len(column.down), column.up) for column in read.columns] == \
        [(len(column.down), column.up) for column in truth.columns]


def test_a_sure_top_read_is_not_read_again() -> None:
    top_rank, top_suit = _beliefs(EIGHT, SURE_TOP, 13)[None], _beliefs(0, 0.99, 4)[None]
    reader = _Reader(_beliefs(THREE, 0.99, 13), _beliefs(1, 0.99, 4))
    rank, suit = read_bottom_indices(np.zeros((200, 200, 3), np.uint8), reader, _card(40.0), [0], top_rank, top_suit)
    assert reader.crops == 0
    assert rank is top_rank and suit is top_suit
