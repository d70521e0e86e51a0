"""Photometric augmentation: room light, white balance, camera noise, blur and compression.

Renders are clean in ways real photos are not; every training picture and
crop goes through ``photometric`` with fresh random choices.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["photometric"]


def photometric(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A randomly re-lit, re-coloured, noisier, blurrier or recompressed copy of a BGR uint8 picture."""
    x = image.astype(np.float32)
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
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out
