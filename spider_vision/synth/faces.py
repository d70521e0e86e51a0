"""Card faces: the bundled CC0 Kennard decks and procedurally drawn decks.

A deck gives, for each card, a BGRA sprite (white card with transparent
rounded corners) and the boxes of its top corner indices in card-relative
coordinates (0..1 across and down the card). Procedural decks vary fonts,
index sizes and positions, stroke weights and two- or four-colour schemes,
so that a model cannot learn one deck; some print the index in both top
corners, as real decks do.
"""

from __future__ import annotations

import atexit
import functools
import gc
import logging
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import cv2
import numpy as np

from spider_vision.engine import RANKS, Card

if TYPE_CHECKING:  # Qt is imported lazily (``_qt``): rendering without it must not load it
    from PySide6.QtGui import QColor, QPainter, QPainterPath

__all__ = [
    "CARD_HEIGHT_PX",
    "CARD_WIDTH_PX",
    "KENNARD_STYLES",
    "Deck",
    "Face",
    "deck_for",
    "extra_style_names",
    "style_names",
]

logger = logging.getLogger(__name__)

ASSETS = Path(__file__).resolve().parent / "assets"
CARD_WIDTH_PX = 200
CARD_HEIGHT_PX = 280
KENNARD_STYLES = ("2color", "4color", "2color-bf", "4color-bf")
PROCEDURAL_DECKS = 64
"""How many procedural decks ``style_names`` offers (``proc-0`` .. ``proc-63``)."""
EXTRA_FONT_DECKS = 48
"""How many procedural decks ``extra_style_names`` offers (``extra-0`` .. ``extra-47``)."""

# Where the corner index of a Kennard card lies (fractions of width and height).
_KENNARD_INDEX_REGION = {False: (0.155, 0.30), True: (0.255, 0.46)}


@dataclass(frozen=True)
class Face:
    """One card face: a BGRA sprite and its top corner index boxes (u0, v0, u1, v1), top-left first.

    ``suit_pip`` is the box of the top-left index's suit pip, the part of the
    index that tells the suit: a cascade that covers it leaves a four-suit card
    that no picture alone can name.
    """

    image: np.ndarray
    indices: tuple[tuple[float, float, float, float], ...]
    suit_pip: tuple[float, float, float, float] | None = None

    @property
    def ink(self) -> tuple[int, int, int]:
        """The BGR colour of the index ink (median of the non-paper pixels in the first index box)."""
        height, width = self.image.shape[:2]
        u0, v0, u1, v1 = self.indices[0]
        crop = self.image[int(v0 * height) : int(np.ceil(v1 * height)), int(u0 * width) : int(np.ceil(u1 * width)), :3]
        pixels = crop.reshape(-1, 3).astype(np.int16)
        paper = np.percentile(pixels.sum(axis=1), 95)
        inky = pixels[pixels.sum(axis=1) < paper * 0.6]
        return tuple(int(v) for v in np.median(inky, axis=0)) if len(inky) else (0, 0, 0)  # type: ignore[return-value]


class Deck:
    """A set of faces in one design; faces are drawn once and cached."""

    name: str

    def face(self, card: Card) -> Face:
        raise NotImplementedError


def style_names() -> list[str]:
    """Every deck style the renderer knows."""
    return [f"kennard-{style}" for style in KENNARD_STYLES] + [
        f"proc-{number}" for number in range(PROCEDURAL_DECKS)
    ]


def extra_style_names() -> list[str]:
    """Procedural decks drawn in the further training fonts: more index lettering for the reader to learn.

    They are apart from ``style_names`` so that random scenes, and the
    pictures the benchmarks render from them, stay what they were.
    """
    return [f"extra-{number}" for number in range(EXTRA_FONT_DECKS)]


@functools.lru_cache(maxsize=96)
def deck_for(name: str) -> Deck:
    """The deck called ``name`` (``kennard-2color``, ``proc-17``, ``extra-3``; see ``style_names``)."""
    if name.startswith("kennard-") and name[8:] in KENNARD_STYLES:
        return KennardDeck(name[8:])
    if name.startswith("proc-") and name[5:].isdigit():
        return ProceduralDeck(int(name[5:]))
    if name.startswith("extra-") and name[6:].isdigit():
        return ProceduralDeck(int(name[6:]), extra_font=True)
    raise ValueError(
        f"unknown card style '{name}'; use kennard-2color, kennard-4color, "
        f"kennard-2color-bf, kennard-4color-bf, proc-N or extra-N"
    )


def _rounded_alpha(width: int, height: int, radius: float) -> np.ndarray:
    """An anti-aliased mask of a rounded rectangle filling the sprite."""
    scale = 4
    mask = np.zeros((height * scale, width * scale), np.uint8)
    r = int(radius * scale)
    w, h = width * scale, height * scale
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)


class KennardDeck(Deck):
    """Adrian Kennard's CC0 design in one of its four styles."""

    def __init__(self, style: str) -> None:
        self.name = f"kennard-{style}"
        self._folder = ASSETS / "kennard" / style
        self._region = _KENNARD_INDEX_REGION[style.endswith("-bf")]
        self._cache: dict[Card, Face] = {}

    def face(self, card: Card) -> Face:
        if card not in self._cache:
            path = self._folder / f"{RANKS[card.rank - 1]}{card.suit.upper()}.png"
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None:
                raise FileNotFoundError(f"card art missing: {path}")
            image = _opaque_white_card(image)
            index = _ink_box(image, self._region)
            self._cache[card] = Face(image, (index,), _lowest_ink_rows(image, index))
        return self._cache[card]


def _opaque_white_card(image: np.ndarray) -> np.ndarray:
    """The sprite with colour un-premultiplied onto white where the art is semi-transparent."""
    alpha = image[..., 3:4].astype(np.float32) / 255.0
    bgr = image[..., :3].astype(np.float32)
    # Kennard PNGs are white cards on a transparent ground; only the corners are transparent.
    out = image.copy()
    out[..., :3] = np.clip(bgr * alpha + 255.0 * (1 - alpha), 0, 255).astype(np.uint8)
    return out


def _ink(image: np.ndarray) -> np.ndarray:
    """Where a BGRA sprite (or part of one) is inked: opaque, and dark or strongly coloured."""
    bgr = image[..., :3].astype(np.int16)
    dark = bgr.min(axis=2) < 170
    coloured = (bgr.max(axis=2) - bgr.min(axis=2)) > 80
    return (image[..., 3] > 128) & (dark | coloured)


def _ink_box(image: np.ndarray, region: tuple[float, float]) -> tuple[float, float, float, float]:
    """The box of the ink components lying wholly inside the top-left index region."""
    height, width = image.shape[:2]
    count, _, stats, _ = cv2.connectedComponentsWithStats(_ink(image).astype(np.uint8))
    limit_x, limit_y = region[0] * width, region[1] * height
    margin = 0.02 * width
    x0 = y0 = math.inf
    x1 = y1 = 0.0
    for x, y, w, h, area in stats[1:count]:
        if x >= margin and y >= margin and x + w <= limit_x and y + h <= limit_y and area > 3:
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
    if x0 is math.inf:
        raise ValueError("no corner index found on a card sprite")
    return (x0 / width, y0 / height, x1 / width, y1 / height)


def _lowest_ink_rows(image: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box of the ink below the widest blank band of rows in ``box`` (an index's suit pip under its rank)."""
    height, width = image.shape[:2]
    top, left = int(box[1] * height), int(box[0] * width)
    ink = _ink(image[top : int(math.ceil(box[3] * height)), left : int(math.ceil(box[2] * width))])
    rows = np.flatnonzero(ink.any(axis=1))
    if len(rows) < 2:
        return box
    gaps = np.diff(rows)
    start = int(rows[int(gaps.argmax()) + 1]) if gaps.max() > 1 else int(rows[0])
    columns = np.flatnonzero(ink[start:].any(axis=0))
    return (float(left + columns[0]) / width, float(top + start) / height, float(left + columns[-1] + 1) / width,
            float(box[3]))


# --- procedural decks ----------------------------------------------------------------

_FONT_FILES = (
    "LiberationSans-Bold.ttf",
    "LiberationSerif-Regular.ttf",
    "LiberationMono-Bold.ttf",
    "Carlito-Bold.ttf",
    "Caladea-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed.ttf",
)
_EXTRA_FONT_FILES = (
    "Lato-Bold.ttf",
    "OpenSans-Bold.ttf",
    "OpenSans-CondBold.ttf",
    "Roboto-Bold.ttf",
    "RobotoCondensed-Bold.ttf",
    "LinLibertine_RB.otf",
    "ComicNeue-Bold.otf",
    "texgyreheros-bold.otf",
    "texgyretermes-bold.otf",
    "texgyreschola-bold.otf",
    "texgyrebonum-bold.otf",
    "texgyrepagella-bold.otf",
)
"""Fonts of the ``extra-N`` decks only (training data for the reader and the detector)."""

_PIP_ROWS: dict[int, list[tuple[float, float]]] = {
    # (x, y) in the pip field (0..1 each way) for each number card.
    1: [(0.5, 0.5)],
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3),
        (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1),
    ],
}


_APP: list[object] = []


def _qt() -> tuple[ModuleType, ModuleType]:
    """Import Qt lazily and make sure an application exists (fonts need one).

    A widgets application, not a bare QGuiApplication: a window opened later in
    the same process (the GUI, its tests) needs one, and Qt allows only one.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore, QtGui, QtWidgets

    if QtGui.QGuiApplication.instance() is None:
        _APP.append(QtWidgets.QApplication([]))
        atexit.register(_close_qt)
    return QtCore, QtGui


def _close_qt() -> None:
    """Tear down the application we made before the interpreter does (else PySide6 may crash at exit)."""
    _font_family.cache_clear()
    for app in _APP:
        shutdown = getattr(app, "shutdown", None)
        if shutdown is not None:
            shutdown()
    _APP.clear()
    gc.collect()


@functools.lru_cache(maxsize=None)
def _font_family(file_name: str) -> str:
    _, QtGui = _qt()
    return _load_font(QtGui, file_name)


def _load_font(QtGui: ModuleType, file_name: str) -> str:
    font_id = QtGui.QFontDatabase.addApplicationFont(str(ASSETS / "fonts" / file_name))
    families = QtGui.QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        logger.warning("font %s could not be loaded; using the default font", file_name)
        return ""
    return families[0]


def _suit_path(suit: str) -> QPainterPath:
    """The outline of a suit symbol in the unit square, as a QPainterPath."""
    QtCore, QtGui = _qt()
    path = QtGui.QPainterPath()
    if suit == "d":
        path.moveTo(0.5, 0.0)
        path.quadTo(0.68, 0.3, 0.88, 0.5)
        path.quadTo(0.68, 0.7, 0.5, 1.0)
        path.quadTo(0.32, 0.7, 0.12, 0.5)
        path.quadTo(0.32, 0.3, 0.5, 0.0)
        return path
    if suit == "h":
        path.moveTo(0.5, 0.25)
        path.cubicTo(0.5, 0.0, 0.0, -0.05, 0.02, 0.33)
        path.cubicTo(0.04, 0.6, 0.4, 0.78, 0.5, 1.0)
        path.cubicTo(0.6, 0.78, 0.96, 0.6, 0.98, 0.33)
        path.cubicTo(1.0, -0.05, 0.5, 0.0, 0.5, 0.25)
        return path
    if suit == "s":
        path.moveTo(0.5, 0.0)
        path.cubicTo(0.4, 0.2, 0.02, 0.38, 0.02, 0.6)
        path.cubicTo(0.02, 0.85, 0.38, 0.88, 0.47, 0.7)
        path.lineTo(0.36, 1.0)
        path.lineTo(0.64, 1.0)
        path.lineTo(0.53, 0.7)
        path.cubicTo(0.62, 0.88, 0.98, 0.85, 0.98, 0.6)
        path.cubicTo(0.98, 0.38, 0.6, 0.2, 0.5, 0.0)
        return path
    # clubs: three balls and a flared stem
    path.addEllipse(QtCore.QRectF(0.29, 0.0, 0.42, 0.42))
    path.addEllipse(QtCore.QRectF(0.0, 0.36, 0.42, 0.42))
    path.addEllipse(QtCore.QRectF(0.58, 0.36, 0.42, 0.42))
    stem = QtGui.QPainterPath()
    stem.moveTo(0.46, 0.35)
    stem.lineTo(0.54, 0.35)
    stem.quadTo(0.56, 0.85, 0.68, 1.0)
    stem.lineTo(0.32, 1.0)
    stem.quadTo(0.44, 0.85, 0.46, 0.35)
    path.setFillRule(QtCore.Qt.FillRule.WindingFill)
    return path.united(stem)


@dataclass(frozen=True)
class _DeckDesign:
    font_file: str
    rank_height: float
    suit_height: float
    margin_x: float
    margin_y: float
    stroke: float
    italic_skew: float
    colours: dict[str, tuple[int, int, int]]
    paper: tuple[int, int, int]
    both_corners: bool
    border: bool
    corner_radius: float
    court_colours: tuple[tuple[int, int, int], ...]
    ten_text: str
    condensed: float


def _design(number: int, font_file: str) -> _DeckDesign:
    rng = random.Random(number * 7919 + 17)
    dark = rng.randint(0, 35)
    black = (dark + rng.randint(0, 12), dark + rng.randint(0, 12), dark + rng.randint(0, 12))
    red = (rng.randint(10, 60), rng.randint(0, 40), rng.randint(170, 235))
    colours: dict[str, tuple[int, int, int]]
    if rng.random() < 0.4:
        colours = {
            "s": black,
            "h": red,
            "d": rng.choice([(rng.randint(150, 200), rng.randint(60, 110), 0), (0, rng.randint(110, 150), 235)]),
            "c": (rng.randint(20, 60), rng.randint(110, 150), 0),
        }
    else:
        colours = {"s": black, "c": black, "h": red, "d": red}
    white = rng.randint(236, 252)
    warmth = rng.randint(0, 10)
    paper = (white - warmth, min(255, white - warmth // 3), min(255, white + 2))
    return _DeckDesign(
        font_file=font_file,
        rank_height=rng.uniform(0.085, 0.15),
        suit_height=rng.uniform(0.055, 0.09),
        margin_x=rng.uniform(0.035, 0.08),
        margin_y=rng.uniform(0.03, 0.06),
        stroke=rng.choice([0.0, 0.0, 0.6, 1.2, 2.0]),
        italic_skew=rng.choice([0.0, 0.0, 0.0, -0.12]),
        colours=colours,
        paper=paper,
        both_corners=rng.random() < 0.3,
        border=rng.random() < 0.35,
        corner_radius=rng.uniform(0.035, 0.06),
        court_colours=tuple(
            (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)) for _ in range(3)
        ),
        ten_text=rng.choice(["10", "10", "10", "IO"]) if number % 5 else "10",
        condensed=rng.uniform(0.75, 1.1),
    )


class ProceduralDeck(Deck):
    """A deck drawn with QPainter from a design chosen by its number."""

    def __init__(self, number: int, *, extra_font: bool = False) -> None:
        if extra_font:
            # Designs of their own (seeded apart from proc-N), in the further fonts.
            self.name = f"extra-{number}"
            self.design = _design(100_000 + number, _EXTRA_FONT_FILES[number % len(_EXTRA_FONT_FILES)])
        else:
            self.name = f"proc-{number}"
            self.design = _design(number, _FONT_FILES[number % len(_FONT_FILES)])
        self._cache: dict[Card, Face] = {}

    def face(self, card: Card) -> Face:
        if card not in self._cache:
            _qt()
            self._cache[card] = self._draw(card)
        return self._cache[card]

    def _rank_text(self, card: Card) -> str:
        return self.design.ten_text if card.rank == 10 else RANKS[card.rank - 1]

    def _draw(self, card: Card) -> Face:
        QtCore, QtGui = _qt()
        design = self.design
        width, height = CARD_WIDTH_PX, CARD_HEIGHT_PX
        # Paint straight into a numpy buffer (PySide6's QImage.constBits() corrupts refcounts).
        buffer = np.zeros((height, width, 4), np.uint8)
        image = QtGui.QImage(buffer.data, width, height, width * 4, QtGui.QImage.Format.Format_ARGB32)
        image.fill(QtGui.QColor(*design.paper[::-1]))
        painter = QtGui.QPainter(image)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        ink = QtGui.QColor(*design.colours[card.suit][::-1])
        first, pip = self._draw_index(painter, card, ink, mirrored=False)
        indices = [first]
        self._index_right = first[2] * width
        if design.both_corners:
            indices.append(self._draw_index(painter, card, ink, mirrored=True)[0])
        # The bottom corners repeat the index rotated by 180 degrees.
        painter.save()
        painter.translate(width, height)
        painter.rotate(180)
        self._draw_index(painter, card, ink, mirrored=False)
        if design.both_corners:
            self._draw_index(painter, card, ink, mirrored=True)
        painter.restore()
        self._draw_centre(painter, card, ink)
        if design.border:
            pen = QtGui.QPen(ink if card.rank > 10 else QtGui.QColor(90, 90, 160))
            pen.setWidthF(1.2)
            painter.setPen(pen)
            painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            inset = width * 0.03
            painter.drawRoundedRect(QtCore.QRectF(inset, inset, width - 2 * inset, height - 2 * inset), 6, 6)
        painter.end()
        del image
        alpha = _rounded_alpha(width, height, design.corner_radius * width * 1.4)
        buffer[..., 3] = alpha
        edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        buffer[..., :3] = np.minimum(buffer[..., :3], (255 - (edge[..., None] * 0.35)).astype(np.uint8))
        return Face(buffer, tuple(indices), pip)

    def _text_path(self, text: str) -> QPainterPath:
        QtCore, QtGui = _qt()
        font = QtGui.QFont(_font_family(self.design.font_file))
        font.setPixelSize(100)
        path = QtGui.QPainterPath()
        path.addText(0, 0, font, text)
        return path

    def _draw_index(self, painter: QPainter, card: Card, ink: QColor, *,
                    mirrored: bool) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
        """Draw rank over suit in the top-left (or top-right) corner; return its box and its suit pip's."""
        QtCore, QtGui = _qt()
        design = self.design
        width, height = CARD_WIDTH_PX, CARD_HEIGHT_PX
        rank_path = self._text_path(self._rank_text(card))
        bounds = rank_path.boundingRect()
        rank_h = design.rank_height * height
        scale_y = rank_h / max(bounds.height(), 1e-6)
        scale_x = scale_y * design.condensed
        if card.rank == 10:
            scale_x *= 0.8
        rank_w = bounds.width() * scale_x
        suit_h = design.suit_height * height
        suit_w = suit_h * 0.9
        box_w = max(rank_w, suit_w)
        x0 = design.margin_x * width
        if mirrored:
            x0 = width - x0 - box_w
        y0 = design.margin_y * height
        transform = QtGui.QTransform()
        transform.translate(x0 + (box_w - rank_w) / 2, y0)
        transform.shear(design.italic_skew, 0)
        transform.scale(scale_x, scale_y)
        transform.translate(-bounds.left(), -bounds.top())
        glyph = transform.map(rank_path)
        painter.setBrush(ink)
        if design.stroke > 0:
            pen = QtGui.QPen(ink)
            pen.setWidthF(design.stroke)
            pen.setJoinStyle(QtCore.Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
        else:
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.drawPath(glyph)
        suit_top = y0 + rank_h + 0.012 * height
        self._draw_pip(painter, card.suit, ink, x0 + (box_w - suit_w) / 2, suit_top, suit_w, suit_h)
        rect = glyph.boundingRect()
        pad = design.stroke / 2
        left = min(rect.left() - pad, x0 + (box_w - suit_w) / 2)
        right = max(rect.right() + pad, x0 + (box_w + suit_w) / 2)
        top = rect.top() - pad
        bottom = suit_top + suit_h
        pip_left = x0 + (box_w - suit_w) / 2
        return ((left / width, top / height, right / width, bottom / height),
                (pip_left / width, suit_top / height, (pip_left + suit_w) / width, bottom / height))

    def _draw_pip(self, painter: QPainter, suit: str, ink: QColor, x: float, y: float, w: float, h: float,
                  flip: bool = False) -> None:
        QtCore, QtGui = _qt()
        transform = QtGui.QTransform()
        if flip:
            transform.translate(x + w, y + h)
            transform.scale(-w, -h)
        else:
            transform.translate(x, y)
            transform.scale(w, h)
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        painter.drawPath(transform.map(_suit_path(suit)))

    def _draw_centre(self, painter: QPainter, card: Card, ink: QColor) -> None:
        QtCore, QtGui = _qt()
        design = self.design
        width, height = CARD_WIDTH_PX, CARD_HEIGHT_PX
        left = max(0.27 * width, self._index_right + 0.07 * width)
        right = width - left
        top, bottom = 0.2 * height, 0.8 * height
        if card.rank == 1:
            size = 0.3 * width
            self._draw_pip(painter, card.suit, ink, width / 2 - size / 2, height / 2 - size * 0.55, size, size * 1.1)
            return
        if card.rank > 10:
            frame = QtCore.QRectF(left - 0.04 * width, top - 0.02 * height, right - left + 0.08 * width, bottom - top + 0.04 * height)
            colour = QtGui.QColor(*design.court_colours[card.rank - 11])
            colour.setAlpha(70)
            painter.setBrush(colour)
            pen = QtGui.QPen(ink)
            pen.setWidthF(1.5)
            painter.setPen(pen)
            painter.drawRect(frame)
            letter = self._text_path(RANKS[card.rank - 1])
            bounds = letter.boundingRect()
            letter_h = 0.25 * height
            scale = letter_h / bounds.height()
            transform = QtGui.QTransform()
            transform.translate(width / 2 - bounds.width() * scale / 2, height * 0.36)
            transform.scale(scale, scale)
            transform.translate(-bounds.left(), -bounds.top())
            painter.setPen(QtCore.Qt.PenStyle.NoPen)
            painter.setBrush(ink)
            painter.drawPath(transform.map(letter))
            size = 0.13 * height
            self._draw_pip(painter, card.suit, ink, width / 2 - size / 2, height * 0.22, size * 0.9, size)
            self._draw_pip(painter, card.suit, ink, width / 2 - size / 2, height * 0.64, size * 0.9, size, flip=True)
            return
        size = 0.085 * height
        for px, py in _PIP_ROWS[card.rank]:
            cx = left + px * (right - left)
            cy = top + size / 2 + py * (bottom - top - size)
            self._draw_pip(painter, card.suit, ink, cx - size * 0.45, cy - size / 2, size * 0.9, size, flip=py > 0.55)
