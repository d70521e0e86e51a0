"""Training data from the renderer: detection pictures with keypoints, index crops, face-down strips.

One seed gives one rendered table (a random deal in a random suit mode,
played for a random number of moves, in a random scene). Training seeds and
held-out seeds never overlap, and the held-out card style (every procedural
deck drawn with the Caladea font) never appears in training renders.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from spider_vision.engine import Position, deal_position
from spider_vision.synth import Rendering, extra_style_names, random_play, random_scene, render, style_names
from spider_vision.synth.truth import CardTruth, lowest_face_up
from spider_vision.vision.evaluation import MIN_INDEX_VISIBLE
from spider_vision.vision.geometry import DETECT_WIDTH, STRIP_CROP, corner_crop, strip_crop

if TYPE_CHECKING:
    from spider_vision.vision.models import Models

__all__ = [
    "EXTRA_FONT_STYLES", "FONT_SEEDS", "HELD_OUT_STYLES", "KEYPOINT_FIELDS", "MIN_INDEX_VISIBLE", "SHARD",
    "SHARD_KEYS", "STYLE_SEEDS", "TRAIN_SEEDS", "TRAIN_STYLES", "VALID_SEEDS", "Shard", "add_detected", "generate",
    "generate_detected", "keypoints_of", "load_arrays", "render_seed",
]

logger = logging.getLogger(__name__)

HELD_OUT_STYLES = tuple(name for name in style_names() if name.startswith("proc-") and int(name[5:]) % 7 == 4)
"""The unseen style: every procedural deck whose index font is Caladea (font 4 of 7)."""
TRAIN_STYLES = tuple(name for name in style_names() if name not in HELD_OUT_STYLES)
EXTRA_FONT_STYLES = tuple(extra_style_names())
"""Decks in twelve further fonts (none of them Caladea): training only, in pictures of their own."""


KEYPOINT_FIELDS = ("cx", "cy", "tlx", "tly", "rx", "ry", "dx", "dy", "iw", "ih")
"""Per keypoint: index centre, card top-left corner, card right and down vectors, index size."""

SUIT_ORDER = "shdc"

TRAIN_SEEDS = (range(0, 2200), range(5000, 7200), range(10000, 12200))
"""Training pictures in the training styles (the later ranges added on 3 December: the reader and the
counter scored far better on their training crops than on held-out ones)."""
FONT_SEEDS = (range(3000, 4200), range(8000, 9200), range(13000, 14200))
"""Training pictures drawn in the further fonts only (``extra-N`` decks), for more index lettering."""
VALID_SEEDS = range(2200, 2400)
"""Held-out seeds in the training styles."""
STYLE_SEEDS = range(50000, 50200)
"""Held-out seeds in the unseen style."""
SHARD = 200
SHARD_KEYS = ("images", "keypoints", "index_crops", "index_labels", "strip_crops", "strip_labels")
"""The arrays every shard holds (``Shard.save``)."""


def render_seed(seed: int, *, held_out_style: bool = False, extra_fonts: bool = False, width: int = 1280,
                height: int = 720, deck: str | None = None, position: Position | None = None) -> Rendering:
    """The rendered table of ``seed``: training styles only, the unseen style with ``held_out_style``,
    a deck in the further fonts with ``extra_fonts``, or the deck named ``deck`` in the same scene;
    ``position`` in that scene instead of the seed's own."""
    rng = random.Random(seed * 7919 + 17)
    suits = rng.choice([1, 2, 4])
    start = deal_position(rng.randrange(2**32), suits)
    moves = rng.choice([0, rng.randrange(0, 30), rng.randrange(0, 120)])
    if position is None:
        steps = random_play(start, moves, seed)
        position = steps[-1].after if steps else start
    scene = random_scene(seed, width, height)
    if deck is not None:
        scene = scene.with_(deck=deck)
    elif extra_fonts:
        scene = scene.with_(deck=rng.choice(EXTRA_FONT_STYLES))
    elif scene.deck not in (styles := HELD_OUT_STYLES if held_out_style else TRAIN_STYLES):
        scene = scene.with_(deck=rng.choice(styles))
    return render(position, scene, seed)


def keypoints_of(rendering: Rendering, scale: float = 1.0) -> np.ndarray:
    """Keypoint rows (``KEYPOINT_FIELDS``) of the readable face-up cards, in pixels times ``scale``."""
    rows = []
    for card in rendering.cards:
        if not card.face_up or not card.index_quad or card.index_visible < MIN_INDEX_VISIBLE:
            continue
        quad = np.array(card.quad)
        iq = np.array(card.index_quad)
        centre = iq.mean(axis=0)
        rows.append([*centre, *quad[0], *(quad[1] - quad[0]), *(quad[3] - quad[0]),
                     np.linalg.norm(iq[1] - iq[0]), np.linalg.norm(iq[3] - iq[0])])
    return np.array(rows, np.float32).reshape(-1, len(KEYPOINT_FIELDS)) * scale


@dataclass
class Shard:
    """Arrays of one generated batch of seeds."""

    images: list[bytes]
    keypoints: list[np.ndarray]
    index_crops: list[np.ndarray]
    index_labels: list[tuple[int, int, float]]
    strip_crops: list[np.ndarray]
    strip_labels: list[int]

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            images=np.array(self.images, dtype=object),
            keypoints=np.array(self.keypoints + [None], dtype=object)[:-1],
            index_crops=np.array(self.index_crops, np.uint8).reshape(-1, 40, 40, 3),
            index_labels=np.array(self.index_labels, np.float32).reshape(-1, 3),
            strip_crops=np.array(self.strip_crops, np.uint8).reshape(-1, STRIP_CROP[1], STRIP_CROP[0], 3),
            strip_labels=np.array(self.strip_labels, np.int64),
        )


def _jitter(rng: np.random.Generator, amount: float) -> float:
    return float(rng.uniform(-amount, amount))


def _rotate(vector: np.ndarray, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def _index_label(card: CardTruth) -> tuple[int, int, float]:
    """A readable card's label for the reader: rank - 1, suit by ``SUIT_ORDER``, and how much of its index shows."""
    if card.card is None:
        raise ValueError("a face-up card of the renderer's truth has no identity")
    return card.card.rank - 1, SUIT_ORDER.index(card.card.suit), card.index_visible


def add_rendering(shard: Shard, rendering: Rendering, rng: np.random.Generator, copies: int = 2) -> None:
    """Add one rendering's detection picture, index crops and strip crops to ``shard``."""
    image = rendering.image
    scale = DETECT_WIDTH / image.shape[1]
    small = cv2.resize(image, (DETECT_WIDTH, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 93])
    shard.images.append(encoded.tobytes())
    shard.keypoints.append(keypoints_of(rendering, scale))
    for card in rendering.cards:
        if not card.face_up or not card.index_quad or card.index_visible < MIN_INDEX_VISIBLE:
            continue
        quad = np.array(card.quad)
        right, down = quad[1] - quad[0], quad[3] - quad[0]
        for _ in range(copies):
            angle = _jitter(rng, 4.0)
            grow = np.exp(rng.uniform(-0.1, 0.1, 2))
            origin = quad[0] + rng.uniform(-0.05, 0.05) * right + rng.uniform(-0.035, 0.035) * down
            crop = corner_crop(image, origin, _rotate(right, angle) * grow[0], _rotate(down, angle) * grow[1])
            shard.index_crops.append(crop)
            shard.index_labels.append(_index_label(card))
    for lowest, down_count in lowest_face_up(rendering.cards).values():
        if lowest.visible_fraction < 0.05:
            continue
        quad = np.array(lowest.quad)
        right, down = quad[1] - quad[0], quad[3] - quad[0]
        for _ in range(copies):
            angle = _jitter(rng, 3.0)
            grow = np.exp(rng.uniform(-0.07, 0.07))
            origin = quad[0] + rng.uniform(-0.04, 0.04) * right + rng.uniform(-0.03, 0.03) * down
            crop = strip_crop(image, origin, _rotate(right, angle) * grow, _rotate(down, angle) * grow)
            shard.strip_crops.append(crop)
            shard.strip_labels.append(down_count)


def add_detected(shard: Shard, rendering: Rendering, models: "Models") -> None:
    """Crops cut where the trained detector puts each card, labelled from the truth it matches.

    The reader and the counter then learn from the same slightly-off frames
    they will get at run time.
    """
    from spider_vision.vision.detect import detect_cards

    image = rendering.image
    detections = detect_cards(models, image)
    truth = [card for card in rendering.cards
             if card.face_up and card.index_quad and card.index_visible >= MIN_INDEX_VISIBLE]
    if not len(detections) or not truth:
        return
    centres = np.array([np.mean(card.index_quad, axis=0) for card in truth])
    reach = np.array([0.5 * np.linalg.norm(np.subtract(card.index_quad[3], card.index_quad[0])) for card in truth])
    lowest = lowest_face_up(rendering.cards)
    for i in range(len(detections)):
        distance = np.linalg.norm(centres - detections.centres[i], axis=1)
        t = int(distance.argmin())
        if distance[t] > reach[t]:
            continue
        card = truth[t]
        origin, right, down = detections.origins[i], detections.rights[i], detections.downs[i]
        shard.index_crops.append(corner_crop(image, origin, right, down))
        shard.index_labels.append(_index_label(card))
        if card.pile == "tableau" and card.column in lowest and lowest[card.column][0].index == card.index:
            shard.strip_crops.append(strip_crop(image, origin, right, down))
            shard.strip_labels.append(lowest[card.column][1])


def generate_detected(out: Path, seeds: range, models: "Models", *, extra_fonts: bool = False,
                      shard_size: int = 200) -> list[Path]:
    """Shards of detector-cut crops (no pictures) for ``seeds``, with the given detector."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for first in range(seeds.start, seeds.stop, shard_size):
        path = out / f"detected-{first}.npz"
        paths.append(path)
        if path.exists():
            continue
        shard = Shard([], [], [], [], [], [])
        for seed in range(first, min(first + shard_size, seeds.stop)):
            add_detected(shard, render_seed(seed, extra_fonts=extra_fonts), models)
        shard.save(path)
        logger.info("wrote %s: %d index crops, %d strips", path, len(shard.index_crops), len(shard.strip_crops))
    return paths


def generate(out: Path, seeds: range, *, held_out_style: bool = False, extra_fonts: bool = False,
             shard_size: int = 200) -> list[Path]:
    """Render every seed and write shards of ``shard_size`` seeds to ``out``; returns the shard paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    kind = "style" if held_out_style else "fonts" if extra_fonts else "train"
    for first in range(seeds.start, seeds.stop, shard_size):
        path = out / f"shard-{kind}-{first}.npz"
        paths.append(path)
        if path.exists():
            continue
        shard = Shard([], [], [], [], [], [])
        rng = np.random.default_rng(first)
        for seed in range(first, min(first + shard_size, seeds.stop)):
            add_rendering(shard, render_seed(seed, held_out_style=held_out_style, extra_fonts=extra_fonts), rng)
        shard.save(path)
        logger.info("wrote %s: %d pictures, %d index crops, %d strips", path, len(shard.images),
                    len(shard.index_crops), len(shard.strip_crops))
    return paths


def load_arrays(paths: list[Path], *keys: str) -> tuple[np.ndarray, ...]:
    """The arrays ``keys`` of shards (``Shard.save``), each joined over the shards: ``index_crops``
    (n, 40, 40, 3) with ``index_labels`` (n, 3: rank - 1, suit, index visible), ``strip_crops`` with
    ``strip_labels`` (face-down counts)."""
    parts: dict[str, list[np.ndarray]] = {key: [] for key in keys}
    for path in paths:
        with np.load(path, allow_pickle=True) as shard:
            for key in keys:
                parts[key].append(shard[key])
    return tuple(np.concatenate(parts[key]) if parts[key] else np.empty(0) for key in keys)
