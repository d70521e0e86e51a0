"""Card backs drawn procedurally: lattices, diagonals, bordered solids and logo-like marks.

Real backs vary widely (Bicycle-style red or blue patterns, plain colours,
casino logos); a back is chosen by number and drawn once.
"""

from __future__ import annotations

import functools
import random

import cv2
import numpy as np

from spider_vision.synth.faces import CARD_HEIGHT_PX, CARD_WIDTH_PX, _rounded_alpha

__all__ = ["BACK_COLOURS", "BACK_PATTERNS", "back_image"]

BACK_COLOURS = {
    "red": (40, 30, 170),
    "blue": (150, 70, 20),
    "green": (50, 110, 20),
    "black": (30, 28, 26),
}
BACK_PATTERNS = ("lattice", "diagonal", "solid", "logo")


def _shade(colour: tuple[int, int, int], rng: random.Random, spread: int = 25) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.randint(-spread, spread), 0, 255)) for c in colour)  # type: ignore[return-value]


@functools.lru_cache(maxsize=64)
def back_image(number: int) -> np.ndarray:
    """The BGRA sprite of back design ``number`` (colour and pattern follow from it)."""
    rng = random.Random(number * 104729 + 3)
    colour_name = list(BACK_COLOURS)[number % len(BACK_COLOURS)]
    pattern = BACK_PATTERNS[(number // len(BACK_COLOURS)) % len(BACK_PATTERNS)]
    scale = 2
    width, height = CARD_WIDTH_PX * scale, CARD_HEIGHT_PX * scale
    base = _shade(BACK_COLOURS[colour_name], rng)
    light = tuple(int(c + (255 - c) * rng.uniform(0.55, 0.9)) for c in base)
    paper = (rng.randint(235, 250),) * 3
    image: np.ndarray = np.empty((height, width, 3), np.uint8)
    image[:] = paper
    border = int(width * rng.choice([0.0, 0.05, 0.07, 0.09]))
    inner = (border, border, width - border, height - border)
    cv2.rectangle(image, inner[:2], (inner[2] - 1, inner[3] - 1), base, -1)
    field: np.ndarray = np.zeros((height, width), np.uint8)
    if pattern == "lattice":
        step = int(width * rng.uniform(0.05, 0.09))
        thickness = max(2, int(step * rng.uniform(0.12, 0.25)))
        for offset in range(-height, width + height, step):
            cv2.line(field, (offset, 0), (offset + height, height), 255, thickness, cv2.LINE_AA)
            cv2.line(field, (offset, height), (offset + height, 0), 255, thickness, cv2.LINE_AA)
    elif pattern == "diagonal":
        step = int(width * rng.uniform(0.03, 0.06))
        thickness = max(2, int(step * rng.uniform(0.25, 0.45)))
        for offset in range(-height, width + height, step):
            cv2.line(field, (offset, 0), (offset + height, height), 255, thickness, cv2.LINE_AA)
    elif pattern == "logo":
        centre = (width // 2, height // 2)
        radius = int(width * rng.uniform(0.2, 0.3))
        cv2.circle(field, centre, radius, 255, max(3, radius // 8), cv2.LINE_AA)
        points = []
        for k in range(10):
            r = radius * (0.75 if k % 2 == 0 else 0.32)
            angle = np.pi / 2 + k * np.pi / 5
            points.append((centre[0] + r * np.cos(angle), centre[1] - r * np.sin(angle)))
        cv2.fillPoly(field, [np.asarray(points).astype(np.int32)], 255, cv2.LINE_AA)
        step = int(width * 0.08)
        for y in range(border + step // 2, height - border, step):
            for x in range(border + step // 2, width - border, step):
                if (x - centre[0]) ** 2 + (y - centre[1]) ** 2 > (radius * 1.25) ** 2:
                    cv2.circle(field, (x, y), max(2, step // 7), 255, -1, cv2.LINE_AA)
    # "solid" keeps the field empty: a bordered plain colour.
    inset = border + int(width * 0.025)
    if rng.random() < 0.6:
        cv2.rectangle(image, (inset, inset), (width - inset, height - inset), light, max(2, width // 120))
    mask = np.zeros((height, width), np.uint8)
    cv2.rectangle(mask, inner[:2], (inner[2] - 1, inner[3] - 1), 255, -1)
    field = cv2.bitwise_and(field, mask)
    weight = field.astype(np.float32)[..., None] / 255.0
    image = (image * (1 - weight) + np.array(light, np.float32) * weight).astype(np.uint8)
    image = cv2.resize(image, (CARD_WIDTH_PX, CARD_HEIGHT_PX), interpolation=cv2.INTER_AREA)
    alpha = _rounded_alpha(CARD_WIDTH_PX, CARD_HEIGHT_PX, CARD_WIDTH_PX * rng.uniform(0.05, 0.08))
    edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    image = np.minimum(image, (255 - edge[..., None] * 0.35).astype(np.uint8))
    return np.dstack([image, alpha])
