"""Render a Spider position as a photo-like picture of a table, with exact ground truth.

``render(position, scene, seed)`` is the entry point for stills;
``render_table`` is the shared core that the video renderer also drives
with its own camera, hands and in-between tables.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import cv2
import numpy as np

from spider_vision.engine import Position
from spider_vision.synth.backs import back_image
from spider_vision.synth.camera import Camera
from spider_vision.synth.clutter import draw_clutter, draw_table_edge
from spider_vision.synth.faces import CARD_HEIGHT_PX, CARD_WIDTH_PX, Face, deck_for
from spider_vision.synth.hands import Hand, draw_hands, hand_pieces
from spider_vision.synth.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, PlacedCard, Table, lay_out
from spider_vision.synth.photo import add_glare, finish_photo
from spider_vision.synth.scene import REFERENCE_HEIGHT, Scene, random_scene
from spider_vision.synth.surfaces import TEXTURE_MM, TEXTURE_PX, surface_texture
from spider_vision.synth.truth import CardTruth, visible_parts

__all__ = ["Rendering", "card_width_px", "make_camera", "render", "render_table", "single_threaded"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rendering:
    """A rendered picture (BGR uint8) with the truth of every card and the hands over it."""

    image: np.ndarray
    cards: tuple[CardTruth, ...]
    scene: Scene
    seed: int
    spn: str = ""
    hands: tuple[tuple[tuple[float, float], ...], ...] = ()

    @property
    def suits(self) -> int | None:
        """The suit mode of the position shown (the SPN's last field), or ``None`` where no SPN was given."""
        return int(self.spn.split()[-1]) if self.spn else None

    def to_json(self) -> dict[str, Any]:
        height, width = self.image.shape[:2]
        return {
            "format": "spider-render",
            "version": 1,
            "width": width,
            "height": height,
            "spn": self.spn,
            "seed": self.seed,
            "scene": self.scene.to_json(),
            "hands": [[list(p) for p in polygon] for polygon in self.hands],
            "cards": [card.to_json() for card in self.cards],
        }

    def save(self, image_path: str | Path, truth_path: str | Path | None = None) -> Path:
        """Write the picture and its truth JSON (beside it by default); returns the JSON path."""
        image_path = Path(image_path)
        truth_path = Path(truth_path) if truth_path else image_path.with_suffix(".json")
        if not cv2.imwrite(str(image_path), self.image):
            raise OSError(f"could not write the image '{image_path}' (unknown extension or unwritable path)")
        truth_path.write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n")
        return truth_path


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """Run OpenCV on one thread: its thread pool costs more than it gains on card-sized pictures."""
    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(previous)


def render(position: Position, scene: Scene | None = None, seed: int = 0) -> Rendering:
    """Render ``position``; ``scene`` None draws one at random from ``seed``."""
    if scene is None:
        scene = random_scene(seed)
    rng = random.Random(seed)
    table = Table.from_position(position, rng)
    placed, _ = lay_out(table, scene, seed)
    camera = make_camera(scene, placed)
    hands = _random_hands(scene, camera, placed, rng)
    with single_threaded():
        return render_table(table, scene, seed, camera=camera, hands=hands, spn=position.spn(), placed=placed)


def _bounds(placed: Sequence[PlacedCard]) -> tuple[np.ndarray, np.ndarray]:
    corners = np.concatenate([card.corners for card in placed]) if placed else np.zeros((1, 2))
    return corners.min(axis=0), corners.max(axis=0)


def make_camera(scene: Scene, placed: Sequence[PlacedCard], *, jitter: Sequence[float] | None = None) -> Camera:
    """The camera of a scene, aimed at the layout (and pulled back until it fits when ``fit_view``),
    then moved by ``jitter`` (dx mm, dy mm, roll and tilt degrees): a video's wander moves the
    camera it fitted once, and a small wander never changes the fit by a jump."""
    low, high = _bounds(placed)
    if scene.fit_view:
        target = (low + high) / 2 + np.array(scene.view_offset) * (high - low)
    else:
        # A partial view aims at the cards themselves: a quantile of the card centres.
        centres = np.array([card.corners.mean(axis=0) for card in placed if card.pile == "tableau"]
                           or [card.corners.mean(axis=0) for card in placed] or [[0.0, 0.0]])
        quantiles = np.clip(0.5 + np.array(scene.view_offset), 0.0, 1.0)
        target = np.array([np.quantile(centres[:, 0], quantiles[0]), np.quantile(centres[:, 1], quantiles[1])])
    focal = scene.focal_factor * scene.width
    distance = focal * CARD_HEIGHT_MM / scene.card_px
    wander = tuple(jitter) if jitter is not None else (0.0, 0.0, 0.0, 0.0)

    def build(target: np.ndarray, distance: float, moved: Sequence[float] = (0.0, 0.0, 0.0, 0.0)) -> Camera:
        dx, dy, droll, dtilt = moved
        return Camera(
            width=scene.width, height=scene.height, focal=focal,
            target=(float(target[0] + dx), float(target[1] + dy)), distance=distance,
            tilt_deg=scene.tilt + dtilt, tilt_azimuth_deg=scene.tilt_azimuth,
            roll_deg=scene.roll + droll, k1=scene.k1,
        )

    camera = build(target, distance)
    if not scene.fit_view or not placed:
        return build(target, distance, wander)
    corners = np.concatenate([card.corners for card in placed])
    for _ in range(4):
        points = camera.distort_points(camera.project(corners))
        lo, hi = points.min(axis=0), points.max(axis=0)
        span = hi - lo
        ratio = max(span[0] / (scene.width * 0.94), span[1] / (scene.height * 0.94))
        centre_error = (lo + hi) / 2 - np.array([scene.width / 2, scene.height / 2])
        if ratio <= 1.0 and np.all(np.abs(centre_error) < 0.03 * np.array([scene.width, scene.height])):
            break
        # Move the aim by the table distance between the picture's centre and the layout's centre.
        mx, my = camera.margin
        inverse = np.linalg.inv(camera.homography)
        centres = np.array([[scene.width / 2 + mx, scene.height / 2 + my, 1.0],
                            [(lo[0] + hi[0]) / 2 + mx, (lo[1] + hi[1]) / 2 + my, 1.0]]) @ inverse.T
        centres = centres[:, :2] / centres[:, 2:3]
        target = target + (centres[1] - centres[0])
        if ratio > 1.0:
            # Pull back to fit, but never so far that cards drop under 90 px at 1080p: cut instead.
            nearest = focal * CARD_HEIGHT_MM / (90 * scene.height / REFERENCE_HEIGHT)
            distance = min(distance * ratio * 1.02, max(nearest, distance))
        camera = build(target, distance)
    return build(target, distance, wander)


def _random_hands(scene: Scene, camera: Camera, placed: Sequence[PlacedCard], rng: random.Random) -> list[Hand]:
    """Hands reaching from the near edge (or a side) toward random tableau cards."""
    tableau = [card for card in placed if card.pile == "tableau"]
    if not scene.hands or not tableau:
        return []
    hands = []
    card_w = card_width_px(camera)
    for _ in range(scene.hands):
        goal = rng.choice(tableau)
        tip = camera.project(goal.corners.mean(axis=0, keepdims=True))[0]
        tip += np.array([rng.gauss(0, card_w * 0.4), rng.gauss(0, card_w * 0.4)])
        from_side = rng.random() < 0.3
        angle = rng.choice([0.0, 180.0]) + rng.gauss(0, 20) if from_side else -90 + rng.gauss(0, 25)
        hands.append(Hand(
            tip=(float(tip[0]), float(tip[1])), angle=angle, size=card_w * rng.uniform(1.15, 1.5),
            skin=scene.skin, sleeve=scene.sleeve, spread=rng.uniform(0.1, 0.5), closed=rng.random() < 0.2,
        ))
    return hands


def card_width_px(camera: Camera) -> float:
    """How wide a card looks, in pixels, where the camera aims."""
    centre = np.array([camera.target])
    a = camera.project(centre)[0]
    b = camera.project(centre + [CARD_WIDTH_MM, 0])[0]
    return float(np.hypot(*(b - a)))


def _sprite_level(sprite: np.ndarray, scale: float) -> tuple[np.ndarray, float]:
    """A pre-shrunk copy of a sprite when the card is drawn much smaller (avoids aliasing)."""
    factor = 1.0
    while scale * factor < 0.5 and sprite.shape[0] > 40:
        sprite = _pyr_down(sprite)
        factor *= 2
    return sprite, factor


_PYRAMID: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _pyr_down(sprite: np.ndarray) -> np.ndarray:
    """Half-size copy of a sprite, cached (sprites are long-lived cached arrays)."""
    entry = _PYRAMID.get(id(sprite))
    if entry is None or entry[0] is not sprite:
        if len(_PYRAMID) > 20000:
            _PYRAMID.clear()
        entry = (sprite, cv2.pyrDown(sprite))
        _PYRAMID[id(sprite)] = entry
    return entry[1]


_PREMULTIPLIED: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _premultiplied(sprite: np.ndarray) -> np.ndarray:
    """The sprite with its colour multiplied by its alpha (cached): compositing is then one multiply and an add."""
    entry = _PREMULTIPLIED.get(id(sprite))
    if entry is None or entry[0] is not sprite:
        if len(_PREMULTIPLIED) > 20000:
            _PREMULTIPLIED.clear()
        alpha = sprite[..., 3:4].astype(np.float32) / 255.0
        premultiplied = sprite.copy()
        premultiplied[..., :3] = np.round(sprite[..., :3] * alpha).astype(np.uint8)
        entry = (sprite, premultiplied)
        _PREMULTIPLIED[id(sprite)] = entry
    return entry[1]


def _card_matrix(corners: np.ndarray) -> np.ndarray:
    """Affine map from sprite pixels to table mm for a card with these corners."""
    tl, tr, _, bl = corners
    ex = (tr - tl) / CARD_WIDTH_PX
    ey = (bl - tl) / CARD_HEIGHT_PX
    return np.array([[ex[0], ey[0], tl[0]], [ex[1], ey[1], tl[1]], [0, 0, 1]])


def _densify(polygons: np.ndarray, parts: int = 4) -> np.ndarray:
    """Split each edge of one polygon (V, 2) or of many (N, V, 2) so that lens distortion bends it faithfully."""
    if parts == 1:
        return polygons
    nxt = np.roll(polygons, -1, axis=-2)
    steps = np.linspace(0, 1, parts, endpoint=False)[:, None]
    dense = polygons[..., :, None, :] + (nxt - polygons)[..., :, None, :] * steps
    return dense.reshape(*polygons.shape[:-2], -1, 2)


def render_table(
    table: Table,
    scene: Scene,
    seed: int,
    *,
    camera: Camera | None = None,
    hands: Sequence[Hand] = (),
    carried: Sequence[PlacedCard] = (),
    spn: str = "",
    placed: list[PlacedCard] | None = None,
    layout_seed: int | None = None,
    clutter_around: tuple[float, float, float, float] | None = None,
) -> Rendering:
    """Draw a table: surface, clutter, cards with shadows, carried cards, hands, light, lens and sensor.

    The layout's jitter and the clutter follow ``layout_seed`` (default ``seed``); the clutter lies
    around ``clutter_around`` (x0, y0, x1, y1 in mm, default the cards' extent). A video passes the
    same values for every frame, so that nothing on the table moves unless a hand moves it.
    """
    layout_seed = seed if layout_seed is None else layout_seed
    if placed is None:
        placed, _ = lay_out(table, scene, layout_seed)
    cards = sorted(list(placed) + list(carried), key=lambda card: card.z)
    if camera is None:
        camera = make_camera(scene, placed)
    np_rng = np.random.default_rng(seed)
    canvas_w, canvas_h = camera.canvas_size
    homography = camera.homography

    # Table surface, tiled in perspective.
    texture = surface_texture(scene.surface, scene.surface_variant)
    mm_per_texel = TEXTURE_MM * scene.surface_scale / TEXTURE_PX
    a = math.radians(scene.surface_angle)
    texture_to_mm = np.array([
        [math.cos(a) * mm_per_texel, -math.sin(a) * mm_per_texel, 0],
        [math.sin(a) * mm_per_texel, math.cos(a) * mm_per_texel, 0],
        [0, 0, 1],
    ])
    # Drawn at half size and enlarged: a table is out of focus detail anyway, and this is 4x cheaper.
    half = np.diag([0.5, 0.5, 1.0])
    small = cv2.warpPerspective(texture, half @ homography @ texture_to_mm, ((canvas_w + 1) // 2, (canvas_h + 1) // 2),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    canvas = cv2.resize(small, (canvas_w, canvas_h), interpolation=cv2.INTER_LINEAR)
    if clutter_around is None:
        low, high = _bounds(placed)
        clutter_around = (*low, *high)
    if scene.table_edge > 0:
        draw_table_edge(canvas, homography, clutter_around[3] + scene.table_edge,
                        (clutter_around[0] + clutter_around[2]) / 2, scene.floor, random.Random(layout_seed * 17 + 3))
    if scene.clutter:
        draw_clutter(canvas, camera.project, clutter_around, scene.clutter, random.Random(layout_seed * 31 + 5))
    coverage = np.zeros((canvas_h, canvas_w), np.uint8) if scene.glare > 0 else None

    deck = deck_for(scene.deck)
    back = back_image(scene.back)
    all_corners = np.stack([card.corners for card in cards]) if cards else np.zeros((0, 4, 2))
    projected = camera.project(all_corners.reshape(-1, 2)).reshape(-1, 4, 2) if cards else all_corners
    light = math.radians(scene.light_azimuth)
    shadow_dir = np.array([-math.cos(light), -math.sin(light)])
    shadow_mm = shadow_dir * scene.shadow_length
    faces = {number: deck.face(card.card) for number, card in enumerate(cards)
             if card.face_up and card.card is not None}
    truth = _truth(cards, projected, faces, camera, hands)
    for number, card in enumerate(cards):
        shown = truth[number].visible_fraction
        # Hidden cards add no pixel; slivers inside a squared pile look like the pile's bottom card.
        if shown == 0 or (card.pile in ("stock", "removed") and shown < 0.03 and card.index not in (0, 9, 12)):
            continue
        quad = projected[number]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        scale = float(np.hypot(*(quad[3] - quad[0]))) / CARD_HEIGHT_PX
        # In a squared pile only the bottom card's shadow reaches the table.
        if scene.shadow_strength > 0 and (card.pile in ("tableau", "hand") or card.index == 0):
            _cast_shadow(canvas, card, homography, scale, shadow_mm, scene.shadow_strength)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, canvas_w), min(y1, canvas_h)
        if x0 >= x1 or y0 >= y1:
            continue
        roi = canvas[y0:y1, x0:x1]
        sprite = _premultiplied(faces[number].image if number in faces else back)
        sprite, factor = _sprite_level(sprite, scale)
        to_sprite = np.diag([factor, factor, 1.0])
        matrix = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ homography @ _card_matrix(card.corners) @ to_sprite
        warped = cv2.warpPerspective(sprite, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        # Premultiplied "over"; contiguous planes keep OpenCV on its fast paths.
        transparency = cv2.bitwise_not(np.ascontiguousarray(warped[..., 3]))
        kept = cv2.multiply(roi, cv2.merge([transparency, transparency, transparency]), scale=1 / 255.0)
        roi[:] = cv2.add(kept, cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR))
        if coverage is not None:
            np.maximum(coverage[y0:y1, x0:x1], warped[..., 3], out=coverage[y0:y1, x0:x1])

    if coverage is not None:
        glare_centre = (scene.glare_at[0] * canvas_w, scene.glare_at[1] * canvas_h)
        add_glare(canvas, coverage, scene, glare_centre)
    draw_hands(canvas, list(hands), (float(shadow_dir[0]), float(shadow_dir[1])), scene.shadow_strength)

    maps = camera.distortion_maps()
    if maps is None:
        mx, my = camera.margin
        image = canvas[my : my + scene.height, mx : mx + scene.width].copy()
    else:
        image = cv2.remap(canvas, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    image = finish_photo(image, scene, np_rng)
    hand_polygons = tuple(
        tuple((round(float(x), 1), round(float(y), 1)) for x, y in camera.distort_points(piece))
        for hand in hands for _, piece in hand_pieces(hand)
    )
    return Rendering(image=image, cards=truth, scene=scene, seed=seed, spn=spn, hands=hand_polygons)


@functools.lru_cache(maxsize=4)
def _shadow_sprite(lifted: bool) -> tuple[np.ndarray, int]:
    """The soft shadow of a card in sprite pixels, with its padding (a raised card casts a softer one)."""
    sigma = CARD_HEIGHT_PX * (0.07 if lifted else 0.012)
    pad = int(3 * sigma) + 2
    mask = np.zeros((CARD_HEIGHT_PX + 2 * pad, CARD_WIDTH_PX + 2 * pad), np.uint8)
    cv2.rectangle(mask, (pad, pad), (pad + CARD_WIDTH_PX - 1, pad + CARD_HEIGHT_PX - 1), 255, -1)
    return cv2.GaussianBlur(mask, (0, 0), sigma), pad


def _cast_shadow(canvas: np.ndarray, card: PlacedCard, homography: np.ndarray, scale: float,
                 offset_mm: np.ndarray, strength: float) -> None:
    """Darken, softly, what lies under a card's shadow (in place)."""
    lift = 6.0 if card.floating else 1.0
    sprite, pad = _shadow_sprite(card.floating)
    shift = np.array([[1, 0, offset_mm[0] * lift], [0, 1, offset_mm[1] * lift], [0, 0, 1]])
    to_mm = shift @ _card_matrix(card.corners) @ np.array([[1, 0, -pad], [0, 1, -pad], [0, 0, 1]])
    height, width = sprite.shape
    corners = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], float) @ (homography @ to_mm).T
    corners = corners[:, :2] / corners[:, 2:3]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    sprite, factor = _sprite_level(sprite, scale * 0.5)
    # The shadow is soft: draw it at half size (pixel j stands for 2j + 0.5) and enlarge.
    half = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])
    matrix = half @ np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ homography @ to_mm @ np.diag([factor, factor, 1.0])
    small = cv2.warpPerspective(sprite, matrix, ((x1 - x0 + 1) // 2, (y1 - y0 + 1) // 2), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    mask = cv2.resize(small, ((x1 - x0 + 1) // 2 * 2, (y1 - y0 + 1) // 2 * 2))[: y1 - y0, : x1 - x0]
    shade = cv2.convertScaleAbs(mask, alpha=-strength / (1.5 if card.floating else 1.0), beta=255)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, cv2.merge([shade, shade, shade]), scale=1 / 255.0)


def _placed(box: tuple[float, float, float, float], matrix: np.ndarray, camera: Camera) -> np.ndarray:
    """A card-relative box (u0, v0, u1, v1) as a densified quad in output pixels, ``matrix`` taking card
    pixels to the undistorted picture."""
    u0, v0, u1, v1 = box
    corners = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]]) * [CARD_WIDTH_PX, CARD_HEIGHT_PX]
    homogeneous = np.column_stack([corners, np.ones(4)]) @ matrix.T
    return camera.distort_points(_densify(homogeneous[:, :2] / homogeneous[:, 2:3], 3))


def _truth(cards: Sequence[PlacedCard], projected: np.ndarray, faces: dict[int, Face], camera: Camera,
           hands: Sequence[Hand]) -> tuple[CardTruth, ...]:
    """Ground truth in output pixels for every card (bottom to top)."""
    if not cards:
        return ()
    parts = 4 if camera.k1 else 1
    outline = _densify(projected, parts)
    shapes = list(camera.distort_points(outline.reshape(-1, 2)).reshape(len(cards), -1, 2))
    quads = camera.distort_points(projected.reshape(-1, 2)).reshape(len(cards), 4, 2)
    hand_covers = [camera.distort_points(_densify(piece, 2)) for hand in hands for _, piece in hand_pieces(hand)]
    probes: dict[int, list[np.ndarray]] = {}
    index_quads: dict[int, list[np.ndarray]] = {}
    for number, face in faces.items():
        matrix = camera.homography @ _card_matrix(cards[number].corners)
        index_quads[number] = [_placed(box, matrix, camera) for box in face.indices]
        # The suit pip's share comes last among the probes.
        probes[number] = index_quads[number] + ([_placed(face.suit_pip, matrix, camera)] if face.suit_pip else [])
    visible = visible_parts(shapes, hand_covers, (camera.width, camera.height), probes)
    truth = []
    for number, card in enumerate(cards):
        polygon, fraction, fractions = visible[number]
        kwargs: dict[str, Any] = {}
        if number in index_quads:
            quads_here = index_quads[number]
            first = quads_here[0]
            kwargs.update(
                index_box=(*map(float, first.min(axis=0)), *map(float, first.max(axis=0))),
                index_quad=tuple((round(float(x), 2), round(float(y), 2)) for x, y in first[::3]),
                index_visible=fractions[0],
                suit_visible=fractions[-1] if faces[number].suit_pip else 0.0,
            )
            if len(quads_here) > 1:
                second = quads_here[1]
                kwargs.update(
                    second_index_box=(*map(float, second.min(axis=0)), *map(float, second.max(axis=0))),
                    second_index_visible=fractions[1],
                )
        truth.append(CardTruth(
            pile=card.pile, column=card.column, index=card.index, card=card.card, face_up=card.face_up,
            quad=tuple((round(float(x), 2), round(float(y), 2)) for x, y in quads[number]),
            visible_polygon=tuple((round(float(x), 2), round(float(y), 2)) for x, y in polygon),
            visible_fraction=float(fraction),
            **kwargs,
        ))
    return tuple(truth)
