"""What a rendered picture looks like: deck, table, camera, light and imperfections.

A ``Scene`` holds every choice the renderer makes above the position itself;
``random_scene`` draws one from the ranges real phone and webcam photos of a
table cover. The per-card jitter of a picture comes from the render seed, so
one scene can be rendered many times with different small differences.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from spider_vision.synth.backs import BACK_COLOURS, BACK_PATTERNS
from spider_vision.synth.faces import KENNARD_STYLES, PROCEDURAL_DECKS
from spider_vision.synth.surfaces import SURFACE_KINDS

__all__ = ["Scene", "random_scene"]

REFERENCE_HEIGHT = 1080
"""Card heights are drawn as if the picture were 1080 px tall, then scaled."""


@dataclass(frozen=True)
class Scene:
    """Every appearance choice of one picture; angles in degrees, lengths in mm unless named."""

    width: int = 1280
    height: int = 720
    deck: str = "kennard-2color"
    back: int = 0
    surface: str = "felt"
    surface_variant: int = 0
    surface_scale: float = 1.0
    surface_angle: float = 0.0
    # camera
    card_px: float = 150.0
    tilt: float = 0.0
    tilt_azimuth: float = 0.0
    roll: float = 0.0
    focal_factor: float = 0.9
    k1: float = 0.0
    view_offset: tuple[float, float] = (0.0, 0.0)
    """With ``fit_view``, the aim's offset from the layout's centre in layout sizes; without, the quantile
    (minus 0.5) of the tableau cards' centres to aim at, across and down."""
    fit_view: bool = True
    # layout
    column_gap: float = 1.2
    down_step: float = 0.08
    up_step: float = 0.25
    position_jitter: float = 1.0
    angle_jitter: float = 1.0
    column_bend: float = 0.6
    stock_side: str = "top-left"
    removed_face_up: bool = True
    # light and surface
    light_azimuth: float = 45.0
    light_gradient: float = 0.2
    ambient: float = 1.0
    shadow_strength: float = 0.35
    shadow_length: float = 1.0
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.5, 0.5)
    vignette: float = 0.2
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise: float = 3.0
    defocus: float = 0.0
    motion_blur: float = 0.0
    motion_angle: float = 0.0
    jpeg_quality: int = 0
    sharpen: float = 0.0
    contrast: float = 1.0
    hands: int = 0
    clutter: int = 0
    table_edge: float = 0.0
    """How far (mm) below the tableau the table ends on the player's side; 0: it fills the view."""
    floor: tuple[int, int, int] = (40, 45, 50)
    skin: tuple[int, int, int] = (120, 160, 210)
    sleeve: tuple[int, int, int] = (90, 60, 40)

    def to_json(self) -> dict[str, Any]:
        return {key: (list(value) if isinstance(value, tuple) else value)
                for key, value in dataclasses.asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scene:
        names = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {key: (tuple(value) if isinstance(value, list) else value)
                  for key, value in data.items() if key in names}
        return cls(**values)

    def with_(self, **changes: Any) -> Scene:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)


_SKINS = [(170, 190, 230), (120, 160, 215), (90, 130, 190), (60, 95, 150), (40, 65, 110), (140, 175, 225)]
_SLEEVES = [(40, 40, 40), (140, 90, 40), (60, 60, 160), (200, 200, 200), (70, 110, 60), (150, 150, 150)]


def random_scene(seed: int, width: int = 1280, height: int = 720, **overrides: Any) -> Scene:
    """A scene drawn at random from realistic ranges; ``overrides`` fix chosen fields."""
    rng = random.Random(seed * 2654435761 % (2**61) + 99)
    decks = [f"kennard-{style}" for style in KENNARD_STYLES]
    deck = rng.choice(decks) if rng.random() < 0.35 else f"proc-{rng.randrange(PROCEDURAL_DECKS)}"
    scale = height / REFERENCE_HEIGHT
    tilt = rng.choice([rng.uniform(0, 8), rng.uniform(0, 35), rng.uniform(15, 35)])
    roll = rng.gauss(0, 6) if rng.random() < 0.8 else rng.uniform(-180, 180)
    partial = rng.random() < 0.3
    card_px = rng.uniform(120, 250) if partial else rng.uniform(100, 190)
    view_offset = (rng.uniform(-0.45, 0.45), rng.uniform(-0.4, 0.4)) if partial else (
        rng.gauss(0, 0.04), rng.gauss(0.05, 0.05))
    photo_kind = rng.random()
    values: dict[str, Any] = dict(
        width=width,
        height=height,
        deck=deck,
        back=rng.randrange(len(BACK_COLOURS) * len(BACK_PATTERNS) * 3),
        surface=rng.choice(SURFACE_KINDS),
        surface_variant=rng.randrange(12),
        surface_scale=rng.uniform(0.6, 1.6),
        surface_angle=rng.uniform(0, 180),
        card_px=card_px * scale,
        tilt=tilt,
        tilt_azimuth=rng.gauss(0, 20) if rng.random() < 0.8 else rng.uniform(-180, 180),
        roll=roll,
        focal_factor=rng.uniform(0.65, 1.3),
        k1=round(rng.uniform(-0.12, 0.03), 4) if rng.random() < 0.7 else 0.0,
        view_offset=view_offset,
        fit_view=not partial,
        column_gap=rng.uniform(1.04, 1.35) if rng.random() < 0.85 else rng.uniform(0.97, 1.05),
        down_step=rng.uniform(0.05, 0.12),
        up_step=rng.uniform(0.15, 0.40),
        position_jitter=rng.uniform(0.3, 2.5),
        angle_jitter=rng.uniform(0.2, 2.5),
        column_bend=rng.uniform(0.0, 1.5),
        stock_side=rng.choice(["top-left", "top-right", "right", "left"]),
        removed_face_up=rng.random() < 0.6,
        light_azimuth=rng.uniform(0, 360),
        light_gradient=rng.uniform(0.0, 0.45),
        ambient=rng.uniform(0.7, 1.15),
        shadow_strength=rng.uniform(0.15, 0.5),
        shadow_length=rng.uniform(0.3, 2.0),
        glare=rng.uniform(0.2, 0.7) if rng.random() < 0.35 else 0.0,
        glare_at=(rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)),
        vignette=rng.uniform(0.0, 0.45),
        white_balance=(rng.uniform(0.86, 1.1), rng.uniform(0.95, 1.04), rng.uniform(0.88, 1.12)),
        noise=rng.uniform(1.0, 9.0) if photo_kind < 0.6 else rng.uniform(0.5, 3.0),
        defocus=rng.uniform(0.3, 1.6) * scale * 1.5 if rng.random() < 0.35 else 0.0,
        motion_blur=rng.uniform(2, 8) * scale if rng.random() < 0.12 else 0.0,
        motion_angle=rng.uniform(0, 180),
        jpeg_quality=rng.randint(45, 92) if rng.random() < 0.7 else 0,
        sharpen=rng.uniform(0.2, 0.8) if rng.random() < 0.4 else 0.0,
        contrast=rng.uniform(0.85, 1.2),
        hands=rng.choice([0, 0, 0, 0, 1, 1, 2]),
        clutter=rng.choice([0, 0, 0, 1, 1, 2, 3]),
        table_edge=rng.uniform(60, 260) if rng.random() < 0.3 else 0.0,
        floor=rng.choice([(40, 45, 50), (60, 80, 100), (30, 30, 30), (90, 90, 95), (50, 70, 110)]),
        skin=rng.choice(_SKINS),
        sleeve=rng.choice(_SLEEVES),
    )
    values.update(overrides)
    return Scene(**values)
