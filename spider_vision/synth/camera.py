"""A pinhole camera over the table plane, with radial lens distortion.

The table is the plane z = 0 in millimetres (x to the right of the player,
y toward the player). The camera is placed by the point it looks at, its
distance, its tilt from straight down and the azimuth of that tilt, and a
roll that turns the layout in the picture. Rendering happens in an ideal
(undistorted) canvas with a margin; ``distortion_maps`` turns the canvas into
the output picture and ``distort_points`` moves any point the same way, so
that ground truth and pixels agree.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Camera"]


def _rot_x(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass(frozen=True)
class Camera:
    """Camera pose and lens; ``homography`` maps table millimetres to canvas pixels."""

    width: int
    height: int
    focal: float
    target: tuple[float, float]
    distance: float
    tilt_deg: float
    tilt_azimuth_deg: float
    roll_deg: float
    k1: float

    @property
    def margin(self) -> tuple[int, int]:
        """Extra canvas pixels on each side needed by barrel distortion."""
        if self.k1 >= 0:
            return (2, 2)
        # The output corner (r = 1) comes from radius 1 / (1 + k1) in the canvas.
        grow = 1.0 / (1.0 + self.k1) - 1.0
        return (int(math.ceil(self.width / 2 * grow)) + 2, int(math.ceil(self.height / 2 * grow)) + 2)

    @property
    def canvas_size(self) -> tuple[int, int]:
        mx, my = self.margin
        return (self.width + 2 * mx, self.height + 2 * my)

    @functools.cached_property
    def homography(self) -> np.ndarray:
        """3x3 map from table (x, y) in mm to canvas pixels."""
        rotation = (
            _rot_z(math.radians(self.tilt_azimuth_deg))
            @ _rot_x(math.radians(self.tilt_deg))
            @ _rot_z(math.radians(self.roll_deg - self.tilt_azimuth_deg))
        )
        forward = rotation[:, 2]
        target = np.array([self.target[0], self.target[1], 0.0])
        centre = target - self.distance * forward
        world_to_camera = rotation.T
        translation = -world_to_camera @ centre
        mx, my = self.margin
        intrinsics = np.array(
            [[self.focal, 0, self.width / 2 + mx], [0, self.focal, self.height / 2 + my], [0, 0, 1]]
        )
        extrinsics = np.column_stack([world_to_camera[:, 0], world_to_camera[:, 1], translation])
        homography = intrinsics @ extrinsics
        return homography / homography[2, 2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table points (N, 2) in mm to canvas pixels (N, 2)."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        homogeneous = np.column_stack([points, np.ones(len(points))]) @ self.homography.T
        return homogeneous[:, :2] / homogeneous[:, 2:3]

    def distort_points(self, canvas_points: np.ndarray) -> np.ndarray:
        """Canvas pixels (N, 2) to output-picture pixels after lens distortion."""
        points = np.asarray(canvas_points, np.float64).reshape(-1, 2)
        mx, my = self.margin
        centre = np.array([self.width / 2, self.height / 2])
        offset = points - np.array([mx, my]) - centre
        if self.k1 == 0:
            return offset + centre
        r0 = math.hypot(*centre)
        r_u = np.hypot(offset[:, 0], offset[:, 1]) / r0
        k = self.k1
        with np.errstate(divide="ignore", invalid="ignore"):
            disc = np.maximum(1 - 4 * k * r_u * r_u, 0.0)
            r_d = (1 - np.sqrt(disc)) / (2 * k * r_u)
            ratio = np.where(r_u > 1e-9, r_d / r_u, 1.0)
        return offset * ratio[:, None] + centre

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``cv2.remap`` maps from output pixels to canvas pixels (None without distortion)."""
        if self.k1 == 0:
            return None
        return _maps(self.width, self.height, self.k1, self.margin)


@functools.lru_cache(maxsize=16)
def _maps(width: int, height: int, k1: float, margin: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Remap tables, computed on a coarse grid and enlarged (the field is smooth; 16x cheaper).

    Coarse sample k sits where ``cv2.resize`` puts it, (k - 1) * step + (step - 1) / 2,
    one sample beyond each edge, so the enlarged table is exact to a small fraction of a pixel.
    """
    step = 4
    cx, cy = width / 2, height / 2
    r0 = math.hypot(cx, cy)
    columns, rows = width // step + 3, height // step + 3
    xs = (np.arange(columns) - 1) * step + (step - 1) / 2
    ys = (np.arange(rows) - 1) * step + (step - 1) / 2
    dx, dy = np.meshgrid(xs - cx, ys - cy)
    factor = 1.0 / (1.0 + k1 * (dx * dx + dy * dy) / (r0 * r0))
    coarse_x = (dx * factor + cx + margin[0]).astype(np.float32)
    coarse_y = (dy * factor + cy + margin[1]).astype(np.float32)
    size = (columns * step, rows * step)
    map_x = cv2.resize(coarse_x, size, interpolation=cv2.INTER_LINEAR)[step : step + height, step : step + width]
    map_y = cv2.resize(coarse_y, size, interpolation=cv2.INTER_LINEAR)[step : step + height, step : step + width]
    return np.ascontiguousarray(map_x), np.ascontiguousarray(map_y)
