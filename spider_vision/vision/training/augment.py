"""Photometric augmentation: room light, white balance, camera noise, blur and compression.

Renders are clean in ways real photos are not; every training picture and
crop goes through ``photometric`` with fresh random choices.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["LOW_RESOLUTION_CHANCE", "LOW_RESOLUTION_SMALLEST", "low_resolution", "photometric"]

LOW_RESOLUTION_CHANCE = 0.3
"""Share of reader crops seen at a lower resolution: a card in a far or small picture spans fewer
pixels than most training cards, and its crop is enlarged, not sharp."""
LOW_RESOLUTION_SMALLEST = 0.45
"""The smallest scale such a crop is shrunk to before it is enlarged back."""


def low_resolution(image: np.ndarray, rng: np.random.Generator, chance: float = LOW_RESOLUTION_CHANCE,
                   smallest: float = LOW_RESOLUTION_SMALLEST) -> np.ndarray:
    """With probability ``chance``, ``image`` shrunk by a random scale (down to ``smallest``) and enlarged
    back: the same crop as a card seen from farther would give."""
    if rng.random() >= chance:
        return image
    h, w = image.shape[:2]
    scale = rng.uniform(smallest, 0.9)
    small = cv2.resize(image, (max(int(round(w * scale)), 4), max(int(round(h * scale)), 4)),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def photometric(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A randomly re-lit, re-coloured, noisier, blurrier or recompressed copy of a BGR uint8 picture."""
    x: np.ndarray = image.astype(np.float32)
    if rng.random() < 0.8:
        gain = np.exp(rng.normal(0, 0.25 * strength)) * np.exp(rng.normal(0, 0.08 * strength, 3))
        x = x * gain.astype(np.float32)
    if rng.random() < 0.5:
        mean = x.mean()
        x = (x - mean) * np.float32(np.exp(rng.normal(0, 0.25 * strength))) + mean
    if rng.random() < 0.3:
        # Uneven light: a linear ramp across the picture.
        h, w = x.shape[:2]
        angle = rng.uniform(0, 2 * np.pi)
        ramp = (np.cos(angle) * np.linspace(-1, 1, w)[None, :] + np.sin(angle) * np.linspace(-1, 1, h)[:, None])
        x = x * (1 + rng.uniform(0, 0.4 * strength) * ramp[..., None]).astype(np.float32)
    if rng.random() < 0.1:
        x = np.repeat(x.mean(axis=2, keepdims=True), 3, axis=2)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.5:
        gamma = np.exp(rng.normal(0, 0.25 * strength))
        x = 255.0 * (x / 255.0) ** gamma
    if rng.random() < 0.3:
        sigma = rng.uniform(0.3, 1.3 * strength)
        x = cv2.GaussianBlur(x, (0, 0), sigma)
    if rng.random() < 0.6:
        x = x + rng.normal(0, rng.uniform(1, 8 * strength), x.shape).astype(np.float32)
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out
