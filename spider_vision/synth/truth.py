"""Ground truth of a rendered picture: for every card, where it is and how much of it shows.

Coordinates are output-picture pixels after lens distortion. Visibility is
computed from the pixels each card keeps after every card above it and every
hand piece has been drawn, clipped to the frame; the same polygons drew the
picture, so the truth matches the pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import cv2
import numpy as np

from spider_vision.engine import Card, card_text, parse_card

__all__ = ["CardTruth", "lowest_face_up", "visible_parts"]

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def _points(array: np.ndarray | None) -> tuple[Point, ...]:
    if array is None:
        return ()
    return tuple((round(float(x), 2), round(float(y), 2)) for x, y in np.asarray(array).reshape(-1, 2))


@dataclass(frozen=True)
class CardTruth:
    """One card of a picture.

    ``pile`` is ``tableau`` (``column`` 0..9, ``index`` from the bottom of the
    pile), ``stock`` (``column`` = stock pile in dealing order, ``index`` = the
    column the card will be dealt to), ``removed`` (``column`` = completed run,
    ``index`` 0 = King) or ``hand`` (cards being carried). ``card`` is ``None``
    for an unknown face-down card. ``quad`` is the whole card (top-left,
    top-right, bottom-right, bottom-left corners of the card itself);
    ``visible_polygon`` the largest visible piece; ``index_box`` the
    axis-aligned box (x0, y0, x1, y1) of the top-left corner index (``None``
    for a face-down card) and ``index_visible`` the fraction of it that shows.
    Decks that print the index in both top corners also give
    ``second_index_box`` and ``second_index_visible``. ``suit_visible`` is the
    fraction of the top-left index's suit pip that shows: where a cascade
    covers the pip, a four-suit card's suit cannot be read from the picture.
    """

    pile: str
    column: int
    index: int
    card: Card | None
    face_up: bool
    quad: tuple[Point, ...]
    visible_polygon: tuple[Point, ...]
    visible_fraction: float
    index_box: Box | None = None
    index_quad: tuple[Point, ...] = ()
    index_visible: float = 0.0
    second_index_box: Box | None = None
    second_index_visible: float = 0.0
    suit_visible: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pile": self.pile,
            "column": self.column,
            "index": self.index,
            "card": card_text(self.card),
            "face_up": self.face_up,
            "quad": [list(p) for p in self.quad],
            "visible_polygon": [list(p) for p in self.visible_polygon],
            "visible_fraction": round(self.visible_fraction, 4),
        }
        if self.index_box is not None:
            data["index_box"] = [round(v, 2) for v in self.index_box]
            data["index_quad"] = [list(p) for p in self.index_quad]
            data["index_visible"] = round(self.index_visible, 4)
            data["suit_visible"] = round(self.suit_visible, 4)
        if self.second_index_box is not None:
            data["second_index_box"] = [round(v, 2) for v in self.second_index_box]
            data["second_index_visible"] = round(self.second_index_visible, 4)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardTruth:
        def box(key: str) -> Box | None:
            value = data.get(key)
            return tuple(value) if value is not None else None  # type: ignore[return-value]

        return cls(
            pile=data["pile"],
            column=int(data["column"]),
            index=int(data["index"]),
            card=parse_card(data["card"]),
            face_up=bool(data["face_up"]),
            quad=tuple(tuple(p) for p in data["quad"]),  # type: ignore[misc]
            visible_polygon=tuple(tuple(p) for p in data["visible_polygon"]),  # type: ignore[misc]
            visible_fraction=float(data["visible_fraction"]),
            index_box=box("index_box"),
            index_quad=tuple(tuple(p) for p in data.get("index_quad", ())),  # type: ignore[misc]
            index_visible=float(data.get("index_visible", 0.0)),
            second_index_box=box("second_index_box"),
            second_index_visible=float(data.get("second_index_visible", 0.0)),
            suit_visible=float(data.get("suit_visible", 0.0)),
        )


def lowest_face_up(cards: Iterable[CardTruth]) -> dict[int, tuple[CardTruth, int]]:
    """Each tableau column's lowest face-up card and the number of face-down cards under it."""
    piles: dict[int, list[CardTruth]] = {}
    for card in cards:
        if card.pile == "tableau":
            piles.setdefault(card.column, []).append(card)
    lowest = {}
    for column, pile in piles.items():
        ups = [card for card in pile if card.face_up]
        if ups:
            lowest[column] = (min(ups, key=lambda card: card.index), sum(not card.face_up for card in pile))
    return lowest


def _fixed(polygon: np.ndarray, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Polygon vertices as 4-bit fixed point for sub-pixel ``fillPoly``."""
    return np.round((np.asarray(polygon) - origin) * 16).astype(np.int32)


def _mask(polygon: np.ndarray, origin: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [_fixed(polygon, origin)], 255, cv2.LINE_8, shift=4)
    return mask


def visible_parts(
    shapes: list[np.ndarray],
    extra_covers: list[np.ndarray],
    frame: tuple[int, int],
    probes: dict[int, list[np.ndarray]],
) -> list[tuple[np.ndarray, float, list[float]]]:
    """For each shape: its largest visible polygon, visible fraction, and visible fraction of each probe.

    ``shapes`` are polygons in output pixels, bottom to top; ``extra_covers``
    (hands) lie above everything; ``probes[i]`` are regions of shape ``i``
    (its corner indices) whose visible fraction is wanted. The shapes are
    painted bottom to top into a label picture of the frame, the way the
    renderer paints the cards, so what each keeps is what shows.
    """
    width, height = frame
    labels = np.zeros((height, width), np.uint16)
    for number, shape in enumerate(shapes):
        cv2.fillPoly(labels, [_fixed(shape)], number + 1, cv2.LINE_8, shift=4)
    for cover in extra_covers:
        cv2.fillPoly(labels, [_fixed(cover)], 0, cv2.LINE_8, shift=4)
    counts = np.bincount(labels.ravel(), minlength=len(shapes) + 1)
    results = []
    for i, shape in enumerate(shapes):
        wanted = probes.get(i, [])
        shown = int(counts[i + 1])
        if not shown:
            results.append((np.zeros((0, 2)), 0.0, [0.0] * len(wanted)))
            continue
        x0, y0 = np.floor(shape.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(shape.max(axis=0)).astype(int) + 2
        full_area = max(float(cv2.contourArea(shape.astype(np.float32))), 1.0)
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        visible = np.zeros((y1 - y0, x1 - x0), np.uint8)
        visible[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = (labels[cy0:cy1, cx0:cx1] == i + 1).view(np.uint8)
        contours, _ = cv2.findContours(visible, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        largest = max(contours, key=cv2.contourArea)
        polygon = cv2.approxPolyDP(largest, 1.0, True).reshape(-1, 2).astype(np.float64) + (x0, y0)
        fractions = []
        for probe in wanted:
            probe_mask = _mask(probe, (x0, y0), (x1 - x0, y1 - y0))
            total = int(np.count_nonzero(probe_mask))
            kept = int(np.count_nonzero(visible[probe_mask > 0]))
            fractions.append(kept / total if total else 0.0)
        results.append((polygon, min(shown / full_area, 1.0), fractions))
    return results
