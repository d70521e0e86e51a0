"""Which frames show the table at rest: no hand over it and no picture moving.

Two cheap tests on a small blurred grey copy of each frame:

* motion: the mean change from the previous frame (a hand moving, the camera
  knocked), against a few times the change seen at rest (the camera's own
  wander and light drift);
* presence: the share of the picture's border that differs from the last
  frame at rest (beyond what a shift of a pixel or two explains). A hand reaches over the table with its arm, and the arm
  crosses the picture's edge; the cards stay inside it.

A frame is ``stable`` once both tests have been quiet for ``hold`` frames in a
row, ``settling`` while they are quiet for fewer, ``moving`` otherwise.
For a folder of photos (``stills``) every picture is at rest unless a hand
shows at the border. When
the border stays changed but nothing moves for ``patience`` frames (an object
left at the edge, a long column reaching it), the new border is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["GateSettings", "StabilityGate"]

REST_FRAMES = 50
"""Stable frames whose motion sets the usual jitter at rest."""
SIZE = (160, 90)
"""Width and height of the grey copy the tests run on."""


@dataclass(frozen=True)
class GateSettings:
    """Thresholds of the stability tests (grey levels 0..255 on the small copy)."""

    motion: float = 1.5
    """The most mean change from the previous frame that still counts as still."""
    calm: float = 3.0
    """Within that, a frame is still when its change is under ``calm`` times the usual change at rest."""
    least_motion: float = 0.6
    border: int = 6
    border_change: float = 18.0
    border_share: float = 0.01
    hold: int = 3
    patience: int = 24
    shift: int = 2
    """Pixels (on the small copy) the picture may shift without the border counting as changed."""
    stills: bool = False
    """Each picture was taken at rest (a folder of photos): only the border test applies."""


class StabilityGate:
    """Classifies each frame as ``moving``, ``settling`` or ``stable``."""

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self._previous: np.ndarray | None = None
        self._reference: np.ndarray | None = None
        self._quiet = 0
        self._still = 0
        self.motion = 0.0
        self.presence = 0.0
        self._rest: list[float] = []

    def update(self, image: np.ndarray) -> str:
        """The state of this frame."""
        s = self.settings
        grey = _small_grey(image)
        if self._previous is None or self._previous.shape != grey.shape:
            self._previous = grey
            self._reference = grey
            self._quiet = 1
            self._still = 1
            self.motion = self.presence = 0.0
            return "stable" if s.hold <= 1 else "settling"
        self.motion = float(np.abs(grey - self._previous).mean())
        self._previous = grey
        still = s.stills or self.motion < self.threshold
        self._still = self._still + 1 if still else 0
        assert self._reference is not None
        ring = _ring(grey.shape, s.border)
        self.presence = float((_change(grey, self._reference, s.shift) > s.border_change)[ring].mean())
        if still and self.presence >= s.border_share and self._still >= s.patience:
            self.presence = 0.0
        quiet = still and self.presence < s.border_share
        self._quiet = self._quiet + 1 if quiet else 0
        if self._quiet >= s.hold:
            self._reference = grey
            self._rest = (self._rest + [self.motion])[-REST_FRAMES:]
            return "stable"
        return "settling" if quiet else "moving"

    @property
    def threshold(self) -> float:
        """The motion under which a frame counts as still: a few times the camera's own jitter at rest."""
        s = self.settings
        if not self._rest:
            return s.motion
        return float(np.clip(s.calm * float(np.median(self._rest)), s.least_motion, s.motion))

    def reset(self) -> None:
        """Forget everything (a new source)."""
        self._previous = self._reference = None
        self._quiet = self._still = 0
        self._rest = []


def _small_grey(image: np.ndarray) -> np.ndarray:
    small = cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)


def _change(grey: np.ndarray, reference: np.ndarray, shift: int) -> np.ndarray:
    """How far each pixel lies outside the range of the reference's pixels around it.

    A camera that wanders a little shifts edges by a pixel or two; they stay
    within their neighbourhood's range, whereas an arm that was not there does not.
    """
    if shift <= 0:
        return np.abs(grey - reference)
    kernel = np.ones((2 * shift + 1, 2 * shift + 1), np.uint8)
    high = cv2.dilate(reference, kernel)
    low = cv2.erode(reference, kernel)
    return np.maximum(grey - high, low - grey)


_RINGS: dict[tuple[tuple[int, int], int], np.ndarray] = {}


def _ring(shape: tuple[int, ...], width: int) -> np.ndarray:
    key = ((int(shape[0]), int(shape[1])), width)
    if key not in _RINGS:
        ring = np.ones(key[0], bool)
        ring[width:-width, width:-width] = False
        _RINGS[key] = ring
    return _RINGS[key]
