"""Hands and arms that reach over the table and hide cards.

A hand is a few convex pieces (forearm, palm, four fingers, thumb) in canvas
pixels; the same pieces draw it and tell the ground truth what it hides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Hand", "draw_hands", "hand_pieces"]


@dataclass(frozen=True)
class Hand:
    """A hand whose fingertips reach ``tip`` (canvas px), pointing along ``angle`` (deg, 0 = right, 90 = down).

    ``size`` is the palm width in pixels; ``spread`` opens the fingers; ``closed`` folds them into a fist
    that holds cards.
    """

    tip: tuple[float, float]
    angle: float
    size: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    spread: float = 0.3
    closed: bool = False


def _capsule(a: np.ndarray, b: np.ndarray, radius_a: float, radius_b: float, points: int = 8) -> np.ndarray:
    """A convex tapered capsule from a to b."""
    direction = b - a
    length = float(np.hypot(*direction)) or 1.0
    u = direction / length
    n = np.array([-u[1], u[0]])
    outline = []
    base = math.atan2(n[1], n[0])
    for k in range(points + 1):
        t = base - math.pi * k / points
        outline.append(b + radius_b * np.array([math.cos(t), math.sin(t)]))
    for k in range(points + 1):
        t = base + math.pi - math.pi * k / points
        outline.append(a + radius_a * np.array([math.cos(t), math.sin(t)]))
    return np.array(outline, np.float32)


def hand_pieces(hand: Hand) -> list[tuple[str, np.ndarray]]:
    """The convex pieces of a hand and its arm, each tagged ``skin`` or ``sleeve``."""
    a = math.radians(hand.angle)
    forward = np.array([math.cos(a), math.sin(a)])
    side = np.array([-forward[1], forward[0]])
    tip = np.array(hand.tip, np.float64)
    s = hand.size
    finger_length = 0.0 if hand.closed else 0.85 * s
    palm_front = tip - forward * finger_length
    palm_back = palm_front - forward * 0.9 * s
    pieces: list[tuple[str, np.ndarray]] = []
    wrist = palm_back - forward * 0.25 * s
    elbow = wrist - forward * 6.0 * s
    pieces.append(("skin", _capsule(wrist - forward * 0.6 * s, palm_back + forward * 0.1 * s, 0.36 * s, 0.38 * s)))
    pieces.append(("sleeve", _capsule(elbow, wrist - forward * 0.5 * s, 0.62 * s, 0.45 * s)))
    palm = _capsule(palm_back, palm_front, 0.45 * s, 0.5 * s, points=10)
    pieces.append(("skin", palm))
    if not hand.closed:
        for k, offset in enumerate((-0.36, -0.12, 0.12, 0.36)):
            fan = hand.spread * offset
            direction = forward * math.cos(fan) + side * math.sin(fan)
            start = palm_front + side * offset * s
            length = finger_length * (0.8, 0.95, 1.0, 0.9)[k]
            pieces.append(("skin", _capsule(start, start + direction * length, 0.11 * s, 0.09 * s, points=6)))
    thumb_start = palm_back + forward * 0.35 * s - side * 0.42 * s
    thumb_dir = forward * 0.7 - side * 0.7
    pieces.append(("skin", _capsule(thumb_start, thumb_start + thumb_dir * 0.7 * s, 0.14 * s, 0.11 * s, points=6)))
    return pieces


def draw_hands(canvas: np.ndarray, hands: list[Hand], light_dir: tuple[float, float], shadow_strength: float) -> None:
    """Draw the hands with a soft shadow cast on what lies below them (in place)."""
    if not hands:
        return
    height, width = canvas.shape[:2]
    scale = 4
    shapes = []
    for hand in hands:
        offset = np.array(light_dir) * hand.size * 0.6
        shapes += [piece + offset for _, piece in hand_pieces(hand)]
    blur = max(1.0, hands[0].size / scale * 0.25)
    pad = int(4 * blur * scale)
    points = np.concatenate(shapes)
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + pad, [width, height])
    if x0 < x1 and y0 < y1:
        small = ((x1 - x0) // scale + 1, (y1 - y0) // scale + 1)
        shadow = np.zeros((small[1], small[0]), np.uint8)
        for shape in shapes:
            cv2.fillConvexPoly(shadow, ((shape - [x0, y0]) / scale).astype(np.int32), 255, cv2.LINE_AA)
        shadow = cv2.GaussianBlur(shadow, (0, 0), blur)
        shadow = cv2.resize(shadow, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        shade = cv2.convertScaleAbs(shadow, alpha=-min(0.6, shadow_strength * 1.3), beta=255)
        roi = canvas[y0:y1, x0:x1]
        roi[:] = cv2.multiply(roi, cv2.merge([shade, shade, shade]), scale=1 / 255.0)
    for hand in hands:
        pieces = hand_pieces(hand)
        for tag, piece in sorted(pieces, key=lambda p: p[0] == "skin"):
            colour = hand.skin if tag == "skin" else hand.sleeve
            _draw_shaded(canvas, piece, colour)


def _draw_shaded(canvas: np.ndarray, piece: np.ndarray, colour: tuple[int, int, int]) -> None:
    """Fill a convex piece with a rounded-looking shading (darker at the rim)."""
    height, width = canvas.shape[:2]
    x0, y0 = np.floor(piece.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(piece.max(axis=0)).astype(int) + 2
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    size = (cx1 - cx0, cy1 - cy0)
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(mask, np.round((piece - [cx0, cy0]) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    # Rounded shading from a blurred copy of the piece, made at a quarter of the size (cheap).
    small = cv2.resize(mask, (max(1, size[0] // 4), max(1, size[1] // 4)), interpolation=cv2.INTER_AREA)
    extent = float(min(x1 - x0, y1 - y0)) / 4
    inner = cv2.GaussianBlur(small, (0, 0), max(1.0, extent * 0.2))
    inner = cv2.resize(inner, size, interpolation=cv2.INTER_LINEAR)
    # Tone = colour * (0.55 + 0.5 * inner), darker at the rim, per channel in saturating uint8.
    tone = cv2.merge([cv2.convertScaleAbs(inner, alpha=0.5 * c / 255.0, beta=0.55 * c) for c in colour])
    alpha = mask.astype(np.float32) * (1 / 255.0)
    roi = canvas[cy0:cy1, cx0:cx1]
    roi[:] = cv2.blendLinear(tone, roi, alpha, 1.0 - alpha)
