"""An exposed card whose top-left index is hidden, found by its face and read from its bottom index."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from spider_vision.synth.render import Rendering
from spider_vision.synth.truth import CardTruth
from spider_vision.vision import Models, read_table
from spider_vision.vision.cascade import repair_columns
from spider_vision.vision.detect import Detections, detect_cards
from spider_vision.vision.evaluation import missed
from spider_vision.vision.hidden import HIDDEN_SCORE, find_hidden_tops
from spider_vision.vision.layout import Layout, group_columns
from spider_vision.vision.pipeline import read_corners
from spider_vision.vision.reading import card_classes
from spider_vision.vision.rules import joint_probabilities
from spider_vision.vision.training.dataset import render_seed

TABLES = [(100011, False), (50000, True)]  # (seed, unseen style): a training style and the unseen one


@pytest.fixture(scope="module")
def models() -> Models:
    return Models.load()


def _found(models: Models, seed: int, unseen: bool) -> tuple[Rendering, Detections, Layout]:
    rendering = render_seed(seed, held_out_style=unseen)
    detections = detect_cards(models, rendering.image)
    detections, layout = repair_columns(detections, group_columns(detections))
    return rendering, detections, layout


def _truth_at(rendering: Rendering, point: np.ndarray) -> CardTruth:
    """The face-up tableau card whose top-left corner lies nearest ``point``."""
    cards = [card for card in rendering.cards if card.pile == "tableau" and card.face_up]
    return min(cards, key=lambda card: float(np.linalg.norm(np.subtract(card.quad[0], point))))


@pytest.mark.parametrize(("seed", "unseen"), TABLES)
def test_columns_whose_exposed_card_was_found_are_left_alone(models: Models, seed: int, unseen: bool) -> None:
    rendering, detections, layout = _found(models, seed, unseen)
    reads = read_corners(rendering.image, models, detections)
    grown, grown_layout, grown_reads = find_hidden_tops(rendering.image, models, detections, layout, reads)
    assert len(grown) == len(detections)
    assert grown_layout.columns == layout.columns
    assert all(mine is theirs for mine, theirs in zip(grown_reads, reads))


@pytest.mark.parametrize(("seed", "unseen"), TABLES)
def test_an_exposed_card_the_detector_missed_is_found_and_read_from_its_bottom_index(
        models: Models, seed: int, unseen: bool) -> None:
    rendering, detections, layout = _found(models, seed, unseen)
    classes = card_classes()
    tried = found = 0
    for k, column in enumerate(layout.columns):
        if len(column) < 2:
            continue
        tried += 1
        truth = _truth_at(rendering, detections.origins[column[-1]])
        missed_detections, missed_layout = missed(detections, layout, column[-1])
        reads = read_corners(rendering.image, models, missed_detections)
        grown, grown_layout, (rank, suit, embeddings) = find_hidden_tops(
            rendering.image, models, missed_detections, missed_layout, reads)
        if len(grown) == len(missed_detections):
            continue
        found += 1
        added = len(missed_detections)
        assert len(grown) == len(rank) == len(suit) == len(embeddings) == added + 1
        assert grown_layout.columns[k][-1] == added
        assert grown.scores[added] == HIDDEN_SCORE
        height = float(np.linalg.norm(grown.downs[added]))
        assert np.linalg.norm(grown.origins[added] - np.array(truth.quad[0])) < 0.15 * height
        assert classes[int(joint_probabilities(rank, suit)[added].argmax())] == truth.card
    assert tried >= 6
    assert found >= tried // 2


@pytest.mark.parametrize("unseen", [False, True])
def test_exposed_cards_whose_index_a_neighbouring_column_covers_are_read(models: Models, unseen: bool) -> None:
    rendering = render_seed(50000, held_out_style=unseen)
    exposed = [card for card in rendering.cards if card.pile == "tableau" and card.face_up
               and card.visible_fraction > 0.97 and card.index > 0]
    image = rendering.image.copy()
    for card in exposed:
        quad = np.array(card.quad, np.float64)
        o, r, d = quad[0], quad[1] - quad[0], quad[3] - quad[0]
        margin = np.array([o + u * r + v * d for u in (0.4, 0.6) for v in (0.02, 0.05)]).astype(int)
        paper = np.median(image[margin[:, 1], margin[:, 0]], axis=0)
        strip = np.array([o, o + 0.22 * r, o + 0.22 * r + d, o + d]).round().astype(np.int32)
        cv2.fillConvexPoly(image, strip, [int(v) for v in paper])  # the left edge, index and all, blank
    reading = read_table(image, models, suits=rendering.suits)
    assert len(exposed) >= 6
    for card in exposed:
        pile = sorted((c for c in reading.cards if c.column == card.column and c.face_up), key=lambda c: c.index)
        assert (pile[-1].index, pile[-1].card) == (card.index, card.card)
