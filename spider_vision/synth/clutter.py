"""Things that lie on a real table beside the game: a sheet of paper, a phone, a mug, coins, a pen.

They are drawn on the table surface, under the cards, outside the layout,
so that a model learns that a white rectangle is not always a card.
"""

from __future__ import annotations

import math
import random
from typing import Callable

import cv2
import numpy as np

__all__ = ["draw_clutter", "draw_table_edge"]


def _circle(cx: float, cy: float, radius: float, points: int = 40) -> np.ndarray:
    angles = np.linspace(0, 2 * math.pi, points, endpoint=False)
    return np.column_stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)])


def _rectangle(cx: float, cy: float, width: float, height: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [width / 2, height / 2]
    return half @ np.array([[c, -s], [s, c]]).T + [cx, cy]


def _objects(rng: random.Random, cx: float, cy: float) -> list[tuple[np.ndarray, tuple[int, int, int], float]]:
    """Polygons in table mm with their BGR colours and shadow strength; the first is the outline."""
    kind = rng.choice(["paper", "phone", "mug", "coin", "pen"])
    angle = rng.uniform(0, math.pi)
    if kind == "paper":
        tone = rng.randint(225, 250)
        shapes = [(_rectangle(cx, cy, 148, 210, angle), (tone - 5, tone, tone), 0.15)]
        c, s = math.cos(angle), math.sin(angle)
        for line in range(rng.randint(0, 14)):
            offset = -90 + line * 12
            length = rng.uniform(60, 120)
            centre = np.array([cx, cy]) + np.array([-s, c]) * offset + np.array([c, s]) * (length / 2 - 60)
            shapes.append((_rectangle(centre[0], centre[1], length, 2.2, angle), (110, 110, 110), 0.0))
        return shapes
    if kind == "phone":
        return [(_rectangle(cx, cy, 72, 150, angle), (25, 25, 28), 0.4),
                (_rectangle(cx, cy, 64, 136, angle), (45, 40, 40), 0.0)]
    if kind == "mug":
        rim = rng.choice([(230, 230, 230), (60, 60, 160), (40, 40, 40), (180, 120, 60)])
        return [(_circle(cx, cy, 45), rim, 0.45), (_circle(cx, cy, 39), (30, 50, 80), 0.0)]
    if kind == "coin":
        metal = rng.choice([(60, 140, 180), (170, 170, 170)])
        worn = (int(metal[0] * 0.85), int(metal[1] * 0.85), int(metal[2] * 0.85))
        return [(_circle(cx, cy, 12), metal, 0.3), (_circle(cx, cy, 10), worn, 0.0)]
    colour = rng.choice([(160, 60, 20), (30, 30, 30), (30, 30, 180), (200, 200, 200)])
    return [(_rectangle(cx, cy, 9, 140, angle), colour, 0.35)]


def draw_clutter(canvas: np.ndarray, project: Callable[[np.ndarray], np.ndarray],
                 extent: tuple[float, float, float, float], count: int, rng: random.Random) -> None:
    """Draw ``count`` objects around the layout ``extent`` (x0, y0, x1, y1 in mm), in place."""
    x0, y0, x1, y1 = extent
    for _ in range(count):
        side = rng.choice(["left", "right", "top", "bottom"])
        gap = rng.uniform(60, 180)
        if side == "left":
            cx, cy = x0 - gap, rng.uniform(y0, y1)
        elif side == "right":
            cx, cy = x1 + gap, rng.uniform(y0, y1)
        elif side == "top":
            cx, cy = rng.uniform(x0, x1), y0 - gap
        else:
            cx, cy = rng.uniform(x0, x1), y1 + gap
        for number, (polygon, colour, shadow) in enumerate(_objects(rng, cx, cy)):
            points = project(polygon)
            if not np.all(np.isfinite(points)) or np.abs(points).max() > 1e5:
                break
            fixed = np.round(points * 16).astype(np.int32)
            if shadow > 0:
                _shadow(canvas, points, shadow)
            cv2.fillPoly(canvas, [fixed], colour, cv2.LINE_AA, shift=4)


def _shadow(canvas: np.ndarray, points: np.ndarray, strength: float) -> None:
    height, width = canvas.shape[:2]
    size = float(np.ptp(points, axis=0).max())
    pad = int(size * 0.1) + 4
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + pad, [width, height])
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    offset = np.array([size * 0.03, size * 0.04])
    cv2.fillPoly(mask, [np.round((points + offset - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, size * 0.03))
    shade = cv2.convertScaleAbs(mask, alpha=-strength, beta=255)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, cv2.merge([shade, shade, shade]), scale=1 / 255.0)


def draw_table_edge(canvas: np.ndarray, homography: np.ndarray, edge_y: float, centre_x: float,
                    floor: tuple[int, int, int], rng: random.Random) -> None:
    """Cut the table off at ``y = edge_y`` mm (the player's side): a lit rim, then a blurred floor beyond.

    Only the part of the line in front of the camera is used, so the projection stays valid.
    """
    height, width = canvas.shape[:2]
    ends = []
    for x in (centre_x - 900.0, centre_x + 900.0):
        point = homography @ np.array([x, edge_y, 1.0])
        if point[2] <= 1e-6:
            return
        ends.append(point[:2] / point[2])
    inner = homography @ np.array([centre_x, edge_y - 300.0, 1.0])
    if inner[2] <= 1e-6:
        return
    inner = inner[:2] / inner[2]
    a, b = ends
    direction = (b - a) / (np.linalg.norm(b - a) or 1.0)
    normal = np.array([-direction[1], direction[0]])
    if np.dot(inner - a, normal) > 0:
        normal = -normal
    far = 4.0 * (width + height)
    start, end = a - direction * far, a + direction * far
    beyond = np.array([start, end, end + normal * far, start + normal * far])
    rim = np.array([start, end, end + normal * 6, start + normal * 6])
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [np.round(beyond * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    if not mask.any():
        return
    small = np.array(floor, np.float32) * (0.6 + 0.4 * np.random.default_rng(rng.randrange(2**31)).random((8, 14, 1)))
    ground = cv2.resize(small.astype(np.uint8), (width, height), interpolation=cv2.INTER_CUBIC)
    alpha = mask.astype(np.float32)[..., None] / 255.0
    canvas[:] = (canvas * (1 - alpha) + ground * alpha).astype(np.uint8)
    cv2.fillPoly(canvas, [np.round(rim * 16).astype(np.int32)], tuple(int(min(255, c * 1.25 + 20)) for c in floor),
                 cv2.LINE_AA, shift=4)
