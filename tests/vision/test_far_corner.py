"""The far corner of a column's last card: its edges found in the picture, its index read as a second look."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from spider_vision.vision import Models, load_image, read_table
from spider_vision.vision.cascade import repair_columns
from spider_vision.vision.detect import detect_cards
from spider_vision.vision.far_corner import edge_position, far_corner_frame
from spider_vision.vision.geometry import corner_crop
from spider_vision.vision.layout import group_columns
from spider_vision.vision.pipeline import FAR_CORNER_SURE

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
CARD_W, CARD_H = 70.0, 100.0


def _card_picture(angle: float, table: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """A white card with dark pips on a plain table, turned by ``angle`` degrees, and its corners."""
    image = np.full((300, 300, 3), table, np.uint8)
    centre = np.array([150.0, 150.0])
    turn = np.radians(angle)
    right = np.array([np.cos(turn), np.sin(turn)]) * CARD_W
    down = np.array([-np.sin(turn), np.cos(turn)]) * CARD_H
    origin = centre - right / 2 - down / 2
    corners = np.array([origin, origin + right, origin + right + down, origin + down])
    cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), (235, 235, 235))
    for u, v in [(0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8), (0.1, 0.08), (0.9, 0.92)]:
        point = origin + u * right + v * down
        cv2.circle(image, (int(point[0]), int(point[1])), 5, (20, 20, 20), -1)
    return image, corners


@pytest.mark.parametrize("angle", [0.0, 12.0, -30.0])
@pytest.mark.parametrize(("axis", "error"), [("down", 0.88), ("down", 1.1), ("right", 0.9), ("right", 1.08),
                                              ("down", 1.0)])
def test_a_card_edge_is_found_where_the_frame_misses_it(angle: float, axis: str, error: float) -> None:
    image, corners = _card_picture(angle)
    origin, right, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
    if axis == "down":
        down = down * error
    else:
        right = right * error
    assert edge_position(image, origin, right, down, axis) == pytest.approx(1 / error, abs=0.02)


def test_no_edge_on_a_table_of_the_cards_colour_keeps_the_frame() -> None:
    image, corners = _card_picture(0.0, table=235)
    origin, right, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
    assert edge_position(image, origin, right, down * 0.9, "down") == 1.0


def test_the_far_frame_is_the_card_turned_about() -> None:
    image, corners = _card_picture(12.0)
    origin, right, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
    frame = far_corner_frame(image, origin, right * 1.05, down * 0.92)
    assert frame is not None
    corner, far_right, far_down = frame
    assert np.linalg.norm(corner - corners[2]) < 3.0
    assert np.linalg.norm(far_right + right) < 3.0 and np.linalg.norm(far_down + down) < 3.0


def test_a_far_corner_past_the_picture_is_not_read() -> None:
    image, corners = _card_picture(0.0)
    origin, right, down = corners[0], corners[1] - corners[0], corners[3] - corners[0]
    assert far_corner_frame(image[:190], origin, right, down) is None  # the card's foot is cut off


@pytest.fixture(scope="module")
def models() -> Models:
    return Models.load()


def _flat(p: np.ndarray) -> np.ndarray:
    p = p ** 0.05
    return p / p.sum(axis=1, keepdims=True)


def _sharp(p: np.ndarray, sure: float) -> np.ndarray:
    out = np.full_like(p, (1 - sure) / (p.shape[1] - 1))
    out[np.arange(len(p)), p.argmax(axis=1)] = sure
    return out


class _Rigged:
    """The real models, but every top-left crop (the first ``top_left``) is read with almost no
    confidence, and every far-corner crop (those after them) with ``sure`` for its rank and suit."""

    def __init__(self, models: Models, top_left: int, sure: float) -> None:
        self.models, self.top_left, self.sure = models, top_left, sure
        self.far_crops = 0

    def detect(self, image: np.ndarray) -> np.ndarray:
        return self.models.detect(image)

    def count(self, strips: np.ndarray) -> np.ndarray:
        return self.models.count(strips)

    def read(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rank, suit, embedding = self.models.read(crops)
        n = self.top_left
        self.far_crops = len(crops) - n
        return (np.concatenate([_flat(rank[:n]), _sharp(rank[n:], self.sure)]),
                np.concatenate([_flat(suit[:n]), _sharp(suit[n:], self.sure)]), embedding)


@pytest.mark.parametrize(("sure", "decided"), [(0.95, True), (0.75, False)])
def test_a_clear_far_corner_decides_a_last_card_and_an_unclear_one_is_left_out(
        models: Models, sure: float, decided: bool) -> None:
    assert (sure * sure >= FAR_CORNER_SURE) == decided
    image = load_image(SAMPLES / "late-4suit-glare.jpg")
    found = detect_cards(models, image)
    detections, _ = repair_columns(found, group_columns(found))
    rigged = _Rigged(models, len(detections), sure)
    reading = read_table(image, rigged, suits=4)  # type: ignore[arg-type]
    assert rigged.far_crops == 10, "every column's last card shows its far corner in this picture"
    last = [reading.column(column)[-1] for column in range(10) if reading.column(column)]
    read = [card for card in last if card.face_up and card.card is not None]
    assert len(read) >= rigged.far_crops - 1 if decided else not read


def test_the_far_corner_shows_the_same_index_as_the_top_left_one(models: Models) -> None:
    image = load_image(SAMPLES / "late-4suit-glare.jpg")
    found = detect_cards(models, image)
    detections, layout = repair_columns(found, group_columns(found))
    # Glare may leave a far read unclear, but a clear one must be the card the top-left index shows.
    clear = []
    for column in layout.columns:
        frame = (detections.origins[column[-1]], detections.rights[column[-1]], detections.downs[column[-1]])
        far = far_corner_frame(image, *frame)
        if far is None:
            continue
        rank, suit, _ = models.read(np.stack([corner_crop(image, *frame), corner_crop(image, *far)]))
        if rank[1].max() * suit[1].max() >= FAR_CORNER_SURE:
            clear.append((rank[0].argmax(), suit[0].argmax()) == (rank[1].argmax(), suit[1].argmax()))
    assert len(clear) >= 7 and all(clear)
