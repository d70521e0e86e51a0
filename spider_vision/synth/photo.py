"""What a phone or webcam does to the light: shading, glare, vignetting, colour cast, blur, noise, JPEG.

All effects work at frame size with OpenCV on uint8 pictures where they can
(saturating arithmetic), because training wants many pictures a second.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from spider_vision.synth.scene import Scene

__all__ = ["add_glare", "finish_photo"]

_NOISE_SIGMA = 8.0


@functools.lru_cache(maxsize=4)
def _noise_pool(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """A fixed field of Gaussian noise (sigma 8) split into its positive and negative parts."""
    rng = np.random.default_rng(12345)
    field = rng.normal(0, _NOISE_SIGMA, (height + 64, width + 64, 3)).astype(np.float32)
    luma = rng.normal(0, _NOISE_SIGMA * 0.7, (height + 64, width + 64, 1)).astype(np.float32)
    field = field * 0.7 + luma
    return (np.clip(field, 0, 255).astype(np.uint8), np.clip(-field, 0, 255).astype(np.uint8))


def add_glare(canvas: np.ndarray, coverage: np.ndarray, scene: Scene, centre: tuple[float, float]) -> None:
    """A soft specular patch on the glossy cards (not on the cloth), in place."""
    if scene.glare <= 0:
        return
    height, width = canvas.shape[:2]
    scale = 8
    sw, sh = width // scale + 1, height // scale + 1
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    radius = 0.12 * math.hypot(sw, sh)
    blob = np.exp(-(((x - centre[0] / scale) / (radius * 1.6)) ** 2 + ((y - centre[1] / scale) / radius) ** 2))
    blob = cv2.resize((blob * 255 * scene.glare).astype(np.uint8), (width, height))
    weight = cv2.multiply(blob, coverage, scale=1 / 255.0)
    weight = cv2.merge([weight, weight, weight])
    lift = cv2.multiply(cv2.subtract(np.full_like(canvas, 250), canvas), weight, scale=1 / 255.0)
    cv2.add(canvas, lift, dst=canvas)


def _gain_map(scene: Scene, width: int, height: int) -> np.ndarray:
    """Directional light, vignetting and white balance as one per-channel gain (x128) map."""
    scale = 16
    sw, sh = width // scale + 2, height // scale + 2
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    cx, cy = (sw - 1) / 2, (sh - 1) / 2
    r0 = math.hypot(cx, cy)
    a = math.radians(scene.light_azimuth)
    along = ((x - cx) * math.cos(a) + (y - cy) * math.sin(a)) / r0
    light = scene.ambient * (1.0 + scene.light_gradient * along)
    radius = np.hypot(x - cx, y - cy) / r0
    vignette = 1.0 - scene.vignette * radius**2
    gain = (light * vignette)[..., None] * np.array(scene.white_balance, np.float32)
    gain = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
    return cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)


@functools.lru_cache(maxsize=32)
def _tone_curve(contrast: float) -> np.ndarray:
    """An S-shaped (contrast > 1) or flattened (< 1) tone curve around mid-grey, as a LUT."""
    x = np.arange(256, dtype=np.float32) / 255.0
    curve = 0.5 + (x - 0.5) * contrast - (contrast - 1.0) * 0.6 * (x - 0.5) ** 3 * 4
    return np.clip(curve * 255.0, 0, 255).astype(np.uint8)


def _motion_kernel(length: float, angle: float) -> np.ndarray:
    size = max(3, int(math.ceil(length)) | 1)
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def finish_photo(image: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """Apply the camera's light response, blur, noise and compression to the output picture."""
    height, width = image.shape[:2]
    image = cv2.multiply(image, _gain_map(scene, width, height), scale=1 / 128.0)
    if scene.defocus > 0:
        image = cv2.GaussianBlur(image, (0, 0), scene.defocus)
    if scene.motion_blur > 1:
        image = cv2.filter2D(image, -1, _motion_kernel(scene.motion_blur, scene.motion_angle))
    if scene.sharpen > 0:
        # Phone pipelines sharpen: a faint halo along every edge.
        soft = cv2.GaussianBlur(image, (0, 0), 1.2)
        image = cv2.addWeighted(image, 1 + scene.sharpen, soft, -scene.sharpen, 0)
    if scene.contrast != 1.0:
        image = cv2.LUT(image, _tone_curve(round(scene.contrast, 3)))
    if scene.noise > 0:
        positive, negative = _noise_pool(width, height)
        ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        factor = scene.noise / _NOISE_SIGMA
        pos = positive[oy : oy + height, ox : ox + width]
        neg = negative[oy : oy + height, ox : ox + width]
        if abs(factor - 1) > 0.05:
            pos = cv2.convertScaleAbs(pos, alpha=factor)
            neg = cv2.convertScaleAbs(neg, alpha=factor)
        image = cv2.subtract(cv2.add(image, pos), neg)
    if scene.jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg_quality)])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            image = decoded
    return image
