"""Table surfaces drawn procedurally: wood grain, felt, woven cloth and patterned tablecloths.

A surface is a seamless-enough BGR texture of ``TEXTURE_PX`` pixels square
that stands for ``TEXTURE_MM`` millimetres of table; the renderer tiles it
in perspective under the cards.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

__all__ = ["SURFACE_KINDS", "TEXTURE_MM", "TEXTURE_PX", "surface_texture"]

SURFACE_KINDS = ("wood", "felt", "cloth", "gingham", "stripes", "dots", "laminate")
TEXTURE_PX = 512
TEXTURE_MM = 400.0

_FELT = [(40, 110, 30), (110, 60, 20), (40, 40, 120), (70, 70, 70), (50, 30, 90), (30, 80, 90)]
_WOOD = [(40, 80, 140), (30, 60, 110), (70, 120, 170), (25, 45, 75), (90, 140, 190)]
_CLOTH = [(200, 200, 200), (170, 150, 120), (60, 60, 140), (140, 100, 60), (120, 160, 180), (50, 50, 50)]


def _smooth_noise(rng: np.random.Generator, size: int, cells: int, cells_y: int | None = None) -> np.ndarray:
    """Low-frequency noise in [-1, 1] that tiles (wrapped before resizing)."""
    small = rng.uniform(-1, 1, (cells_y or cells, cells)).astype(np.float32)
    tiled = np.tile(small, (3, 3))
    big = cv2.resize(tiled, (size * 3, size * 3), interpolation=cv2.INTER_CUBIC)
    return big[size : 2 * size, size : 2 * size]


def _mix(a: np.ndarray, colour_a: tuple[int, ...], colour_b: tuple[int, ...]) -> np.ndarray:
    """Blend two colours by a weight image in [0, 1]."""
    ca = np.array(colour_a, np.float32)
    cb = np.array(colour_b, np.float32)
    return a[..., None] * cb + (1 - a[..., None]) * ca


@functools.lru_cache(maxsize=48)
def surface_texture(kind: str, variant: int) -> np.ndarray:
    """The BGR texture of surface ``kind`` in its ``variant`` (colours and scale follow from it)."""
    if kind not in SURFACE_KINDS:
        raise ValueError(f"unknown surface '{kind}'; use one of {', '.join(SURFACE_KINDS)}")
    rng = np.random.default_rng(variant * 31 + SURFACE_KINDS.index(kind))
    n = TEXTURE_PX
    y, x = np.mgrid[0:n, 0:n].astype(np.float32) / n
    fine = rng.normal(0, 1, (n, n)).astype(np.float32)
    if kind == "wood":
        base = np.array(_WOOD[variant % len(_WOOD)], np.float32)
        warp = _smooth_noise(rng, n, 2, 6) * 1.2 + _smooth_noise(rng, n, 4, 24) * 0.25
        planks = rng.integers(2, 5)
        rings = np.sin((y * rng.integers(10, 22) + warp) * 2 * np.pi)
        rings = np.sign(rings) * np.abs(rings) ** 0.5
        streak = cv2.GaussianBlur(fine, (0, 0), sigmaX=25, sigmaY=0.7)
        streak = streak / (streak.std() + 1e-6)
        value = 0.78 + 0.08 * rings + 0.07 * streak
        plank = np.floor(y * planks)
        value += (np.sin(plank * 12.9898) * 0.5) * 0.15
        image = base[None, None, :] * value[..., None]
        seam = (np.abs((y * planks) % 1.0) < 0.006)[..., None]
        image = np.where(seam, image * 0.45, image)
    elif kind == "felt":
        base = np.array(_FELT[variant % len(_FELT)], np.float32)
        mottle = _smooth_noise(rng, n, 10)
        value = 1.0 + 0.06 * mottle + 0.07 * fine
        image = base[None, None, :] * value[..., None]
    elif kind == "cloth":
        base = np.array(_CLOTH[variant % len(_CLOTH)], np.float32)
        threads = rng.integers(90, 160)
        weave = np.sin(x * threads * 2 * np.pi) * np.sin(y * threads * 2 * np.pi)
        value = 0.92 + 0.07 * weave + 0.05 * fine + 0.05 * _smooth_noise(rng, n, 8)
        image = base[None, None, :] * value[..., None]
    elif kind == "gingham":
        colour = _CLOTH[(variant + 2) % len(_CLOTH)]
        checks = int(rng.integers(6, 14))
        a = (np.floor(x * checks) % 2).astype(np.float32)
        b = (np.floor(y * checks) % 2).astype(np.float32)
        weight = 0.5 * a + 0.5 * b
        image = _mix(weight, (235, 235, 235), colour) * (1 + 0.04 * fine[..., None])
    elif kind == "stripes":
        colours = [_CLOTH[(variant + k) % len(_CLOTH)] for k in range(2)]
        stripes = int(rng.integers(5, 16))
        weight = (np.sin(x * stripes * 2 * np.pi) > 0.3).astype(np.float32)
        weight = cv2.GaussianBlur(weight, (0, 0), 1.2)
        image = _mix(weight, colours[0], colours[1]) * (1 + 0.04 * fine[..., None])
    elif kind == "dots":
        ground = _CLOTH[variant % len(_CLOTH)]
        dot = tuple(int(255 - c * 0.7) for c in ground)
        spacing = int(rng.integers(6, 12))
        cx = ((x * spacing) % 1.0) - 0.5
        cy = ((y * spacing + 0.5 * (np.floor(x * spacing) % 2)) % 1.0) - 0.5
        weight = ((cx * cx + cy * cy) < 0.06).astype(np.float32)
        weight = cv2.GaussianBlur(weight, (0, 0), 1.0)
        image = _mix(weight, ground, dot) * (1 + 0.03 * fine[..., None])
    else:  # laminate: a plain desk with a faint speckle
        grey = float(rng.uniform(120, 230))
        tint = rng.uniform(-12, 12, 3)
        image = (grey + tint)[None, None, :] * (1 + 0.03 * fine[..., None] + 0.03 * _smooth_noise(rng, n, 5)[..., None])
    return np.clip(image, 0, 255).astype(np.uint8)
