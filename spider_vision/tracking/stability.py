"""Which frames show the table at rest: no hand over it and no picture moving.

Two cheap tests on a small blurred colour copy of each frame, both tolerant of
the shift of a pixel that a camera's own wander causes (a pixel counts as
changed only when it leaves the range of the pixels around it before):

* motion: the mean change from the previous frame over the whole picture (a
  hand moving, the camera knocked) and over each small tile of it (a small
  hand over a table far from the camera);
* presence: a hand reaches over the table with its arm, and the arm crosses
  the picture's edge; the cards stay inside. The border is cut into short
  segments, and one segment largely changed since the last frame at rest
  means an arm. The border is compared with dark levels spread apart: a
  dark sleeve over a dark table differs from it by only a few levels.

A frame is ``stable`` once both tests have been quiet for ``hold`` frames in a
row, ``settling`` while they are quiet for fewer, ``moving`` otherwise. When
the border stays changed but hardly changes from one frame to the next for
``patience`` frames while the whole picture is nearly still (an object left
at the edge, a long column reaching it; not an arm whose hand carries cards
slowly), the new border is accepted, and the frame is at rest at once: those
frames were still (a tightly framed table changes its border with many moves,
and the pause between two moves may be hardly longer than the patience).
For a folder of photos (``stills``) every picture is at rest unless a hand
shows at the border.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["GateSettings", "StabilityGate"]

SIZE = (160, 90)
"""Width and height of the small copy the tests run on."""
LIFT_GREY = 128.0
"""The level whose changes ``_lift`` keeps at their size."""
LIFT_FLOOR = 32.0
"""Below this level ``_lift`` spreads levels no further (a nearly black channel is mostly noise)."""
MAX_LIFT = float(np.sqrt(LIFT_GREY / LIFT_FLOOR))
"""How much ``_lift`` spreads the levels at and below ``LIFT_FLOOR``."""
REST_WEIGHT = 0.1
"""Weight of each stable frame in the running mean of the motion at rest."""


@dataclass(frozen=True)
class GateSettings:
    """Thresholds of the stability tests (levels 0..255 of a colour channel on the small copy)."""

    motion: float = 0.6
    """The most mean change from the previous frame that still counts as still."""
    border: int = 6
    """Width of the border (pixels of the small copy) where an arm is looked for."""
    inset: int = 1
    """Outermost pixels of the small copy left out of the border: the picture's very edge changes with
    a camera's drift or vignette (and the blur's reflection doubles it), an arm covers the border's depth."""
    segment: int = 20
    """Length of the border's segments along the top and bottom (the sides get proportionally shorter)."""
    change: float = 18.0
    """Levels by which a border pixel must leave its old neighbourhood's range to count as changed, once
    ``_lift`` has spread dark levels apart (a navy sleeve over dark wood differs from it by only 10-15
    grey levels)."""
    presence: float = 0.14
    """Share of one border segment that, changed, means an arm over the table."""
    shift: int = 1
    """Pixels (of the small copy) the picture may shift without counting as changed."""
    local_motion: float = 3.0
    """The most mean change from the previous frame in any one tile of the picture: a hand over a small
    table far from the camera changes too little of the whole picture for ``motion`` (``bench/stability.py``
    on 66 kept videos: frames at rest with a hand in the picture 376 without this test, 64 with it, 48 at
    2 levels and 81 at 4; pauses never found at rest 1, 2 at 2 levels)."""
    tile: int = 10
    """Side of the square tiles (pixels of the small copy) for ``local_motion``."""
    hold: int = 3
    patience: int = 8
    """Still frames after which a changed border counts as the new rest (a pause of a hand is shorter)."""
    frozen: float = 0.2
    """The most mean change from the previous frame while a changed border waits to count as the new
    rest: far below ``motion``, since a hand carrying cards slowly over the table (its arm lying
    across the border, unchanging) moves less than ``motion`` but more than a table at rest. A noisy
    camera raises it (``rest_noise``)."""
    frozen_border: float = 0.06
    """The largest share of a border segment that may change between two frames while the border counts
    as frozen. Not none: a video's coding noise flickers along the edges of cards that reach the border,
    1-6% of a segment between still frames (``bench/tracking.py`` game 761000, where a long column lay on
    the bottom edge and no rest was found for half the game); an arm moving in the picture changes
    20-100% of a segment in most frames."""
    rest_noise: float = 2.0
    """``frozen`` rises to this many times the running mean of the motion at the rests found so far (the
    camera's own noise): at 8 grey levels of noise the noise alone made the mean change 0.12-0.27, and a
    column that reached the edge was never taken for the new rest (``bench/tracking.py --noise 8``, game
    770004: no rest after 70 s)."""
    stills: bool = False
    """Each picture was taken at rest (a folder of photos): only the border test applies."""


class StabilityGate:
    """Classifies each frame as ``moving``, ``settling`` or ``stable``."""

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self._previous: np.ndarray | None = None
        self._previous_lifted: np.ndarray | None = None
        self._reference: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._quiet = 0
        self._still = 0
        self.motion = 0.0
        self.local_motion = 0.0
        self.presence = 0.0
        self._rest_motion = 0.0

    def update(self, image: np.ndarray) -> str:
        """The state of this frame."""
        s = self.settings
        small = _small(image)
        lifted = _lift(small)
        if self._previous is None or self._previous.shape != small.shape:
            self._previous, self._previous_lifted = small, lifted
            self._reference = self._anchor = lifted
            self._quiet = 1
            self._still = 1
            self.motion = self.local_motion = self.presence = 0.0
            return "stable" if s.hold <= 1 else "settling"
        moved = _change(small, self._previous, s.shift)
        self.motion = float(moved.mean())
        self.local_motion = _tile_change(moved, s.tile)
        still = s.stills or (self.motion < s.motion and self.local_motion < s.local_motion)
        # A border that has hardly changed from the last frame: a card or an object lying
        # there, not an arm (an arm always moves a little, even while it carries).
        assert self._previous_lifted is not None
        border_moved = _change(lifted, self._previous_lifted, s.shift) > s.change / 2
        frozen_limit = max(s.frozen, s.rest_noise * self._rest_motion)
        frozen = (s.stills or self.motion < frozen_limit) and _border_change(border_moved, s) < s.frozen_border
        self._previous, self._previous_lifted = small, lifted
        if frozen and not self._still:
            self._anchor = lifted
        self._still = self._still + 1 if frozen else 0
        assert self._reference is not None
        self.presence = _border_change(_change(lifted, self._reference, s.shift) > s.change, s)
        if (still and self.presence >= s.presence and self._still >= s.patience
                and self._border_kept(lifted)):
            # The frozen frames were at rest all along, only the border held them back: a
            # player's pause between moves may be hardly longer than the patience.
            self.presence = 0.0
            self._quiet = max(self._quiet, self._still - 1)
        quiet = still and self.presence < s.presence
        self._quiet = self._quiet + 1 if quiet else 0
        if self._quiet >= s.hold:
            self._reference = lifted
            self._rest_motion += REST_WEIGHT * (self.motion - self._rest_motion)
            return "stable"
        return "settling" if quiet else "moving"

    def _border_kept(self, lifted: np.ndarray) -> bool:
        """Whether the border is still as it was when the frozen frames began: an arm carrying cards
        very slowly changes it too little from one frame to the next, but over the patience it
        changes as much as an arm coming in (a camera's slow drift does not)."""
        assert self._anchor is not None
        changed = _change(lifted, self._anchor, self.settings.shift) > self.settings.change
        return _border_change(changed, self.settings) < self.settings.presence

    def reset(self) -> None:
        """Forget everything (a new source)."""
        self._previous = self._previous_lifted = self._reference = self._anchor = None
        self._quiet = self._still = 0
        self._rest_motion = 0.0


def _small(image: np.ndarray) -> np.ndarray:
    """A small blurred colour copy (a sleeve may have the table's brightness, rarely its colour)."""
    small = cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)


def _lift(small: np.ndarray) -> np.ndarray:
    """The small copy with dark levels spread apart, for the border test: a dark sleeve over a dark
    table changes a pixel by fewer levels than over a bright one (as the eye sees it, the same step).
    Mid grey keeps its scale; a level of 30 counts about twice, white about 0.7 times."""
    return (2.0 * np.sqrt(LIFT_GREY * np.maximum(small, LIFT_FLOOR))
            + MAX_LIFT * np.minimum(small - LIFT_FLOOR, 0.0)).astype(np.float32)


def _change(small: np.ndarray, reference: np.ndarray, shift: int) -> np.ndarray:
    """How far each pixel lies outside the range of the reference's pixels around it (largest over colours).

    A camera that wanders a little shifts edges by a pixel; they stay within
    their neighbourhood's range, whereas a hand that was not there does not.
    """
    if shift <= 0:
        change = np.abs(small - reference)
    else:
        kernel = np.ones((2 * shift + 1, 2 * shift + 1), np.uint8)
        high = cv2.dilate(reference, kernel)
        low = cv2.erode(reference, kernel)
        change = np.maximum(np.maximum(small - high, low - small), 0.0)
    return change.max(axis=2) if change.ndim == 3 else change


def _tile_change(moved: np.ndarray, tile: int) -> float:
    """The largest mean change over the square tiles of side ``tile`` that fit the picture."""
    height, width = moved.shape[0] // tile * tile, moved.shape[1] // tile * tile
    if height == 0 or width == 0:
        return float(moved.mean())
    tiles = moved[:height, :width].reshape(height // tile, tile, width // tile, tile)
    return float(tiles.mean(axis=(1, 3)).max())


def _border_change(changed: np.ndarray, s: GateSettings) -> float:
    """The largest share of changed pixels in one segment of the picture's border."""
    if s.inset > 0:
        changed = changed[s.inset:-s.inset, s.inset:-s.inset]
    height, width = changed.shape
    w = s.border
    across = max(s.segment, 1)
    down = max(round(across * height / width), 1)
    shares = [0.0]
    for x in range(0, width, across):
        shares.append(float(changed[:w, x:x + across].mean()))
        shares.append(float(changed[height - w:, x:x + across].mean()))
    for y in range(0, height, down):
        shares.append(float(changed[y:y + down, :w].mean()))
        shares.append(float(changed[y:y + down, width - w:].mean()))
    return max(shares)
