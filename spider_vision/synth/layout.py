"""Where each card lies on the table, as people really lay out Spider.

Ten columns at a realistic spacing, face-down cards stepped 5-12% of the
card height and face-up cards 15-40%, each card a little off in position and
angle, columns not perfectly straight, the stock and completed runs off to a
side. Everything here is in table millimetres; the camera does the rest.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from spider_vision.engine import Card, Position
from spider_vision.synth.scene import Scene

__all__ = ["CARD_HEIGHT_MM", "CARD_WIDTH_MM", "PlacedCard", "Table", "lay_out"]

CARD_HEIGHT_MM = 88.0
CARD_WIDTH_MM = CARD_HEIGHT_MM * 200 / 280


@dataclass(frozen=True)
class Table:
    """What lies on the table: piles bottom first as (card, face up), stock piles, removed runs.

    A ``Position`` becomes a ``Table`` with ``Table.from_position``; the video
    renderer also builds in-between tables (half a deal, cards in a hand).
    """

    columns: tuple[tuple[tuple[Card | None, bool], ...], ...]
    stock: tuple[Card | None, ...] = ()
    removed: str = ""

    @classmethod
    def from_position(cls, position: Position, rng: random.Random | None = None) -> Table:
        """The table of a position; face-up cards not yet read get a plausible identity."""
        unseen = list(position.unseen().elements())
        (rng or random.Random(0)).shuffle(unseen)
        columns = []
        for column in position.columns:
            pile: list[tuple[Card | None, bool]] = [(card, False) for card in column.down]
            for card in column.up:
                if card is None:
                    card = unseen.pop() if unseen else Card(13, "s")
                pile.append((card, True))
            columns.append(tuple(pile))
        return cls(tuple(columns), tuple(position.stock), position.removed)


@dataclass
class PlacedCard:
    """One card on the table: its place in the game and its corners in mm (TL, TR, BR, BL)."""

    pile: str
    column: int
    index: int
    card: Card | None
    face_up: bool
    corners: np.ndarray
    z: float
    floating: bool = False


def _corners(cx: float, cy: float, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2]
    rotation = np.array([[c, -s], [s, c]])
    return half @ rotation.T + [cx, cy]


@dataclass
class Geometry:
    """The layout's frame: column spacing and where the tableau, stock and removed runs go."""

    spacing: float
    column_x: list[float] = field(default_factory=list)

    @property
    def width(self) -> float:
        return self.spacing * 9 + CARD_WIDTH_MM


def _slot_rng(seed: int, *slot: object) -> random.Random:
    """The jitter of one place on the table: the same place jitters the same way in every frame."""
    return random.Random("-".join(str(part) for part in (seed, *slot)))


def lay_out(table: Table, scene: Scene, seed: int) -> tuple[list[PlacedCard], tuple[float, float, float, float]]:
    """Place every card; returns the cards (any order) and the tableau's extent (x0, y0, x1, y1).

    The jitter of each place (column and index in the pile, stock pile,
    removed run) follows from ``seed`` and the place alone, so that a game
    rendered frame by frame keeps every card where it was put.
    """
    spacing = CARD_WIDTH_MM * scene.column_gap
    placed: list[PlacedCard] = []
    height = CARD_HEIGHT_MM
    bottom = height
    for column_number, pile in enumerate(table.columns):
        rng = _slot_rng(seed, "column", column_number)
        x = column_number * spacing + rng.gauss(0, scene.position_jitter) + CARD_WIDTH_MM / 2
        y = rng.gauss(0, scene.position_jitter) + height / 2
        slant = rng.gauss(0, scene.angle_jitter * 0.6)
        drift = 0.0
        for index, (card, face_up) in enumerate(pile):
            rng = _slot_rng(seed, column_number, index)
            angle = slant + rng.gauss(0, scene.angle_jitter)
            corners = _corners(x + drift + rng.gauss(0, scene.position_jitter * 0.4), y, angle)
            placed.append(PlacedCard("tableau", column_number, index, card, face_up, corners,
                                     z=index * 16 + column_number + 1))
            step = scene.up_step if face_up else scene.down_step
            y += height * step * rng.uniform(0.85, 1.15)
            drift += rng.gauss(0, scene.column_bend) + math.sin(math.radians(slant)) * height * step
        bottom = max(bottom, y + height / 2)
    extent = (0.0, 0.0, spacing * 9 + CARD_WIDTH_MM, bottom)
    _place_side_piles(table, scene, seed, spacing, placed)
    return placed, extent


def _place_side_piles(table: Table, scene: Scene, seed: int, spacing: float,
                      placed: list[PlacedCard]) -> None:
    """Stock piles and completed runs, off to one side of the tableau."""
    rng = _slot_rng(seed, "side")
    width, height = CARD_WIDTH_MM, CARD_HEIGHT_MM
    right = spacing * 9 + width
    side = scene.stock_side
    if side == "top-left":
        stock_at, removed_at, fan = (width / 2, -height * 0.75), (right - width / 2, -height * 0.75), (1, 0)
    elif side == "top-right":
        stock_at, removed_at, fan = (right - width / 2, -height * 0.75), (width / 2, -height * 0.75), (-1, 0)
    elif side == "right":
        stock_at, removed_at, fan = (right + width * 0.9, height / 2), (right + width * 0.9, height * 1.8), (0, 1)
    else:
        stock_at, removed_at, fan = (-width * 0.9, height / 2), (-width * 0.9, height * 1.8), (0, 1)
    fanned = rng.random() < 0.6
    stock = table.stock
    piles = len(stock) // 10 if len(stock) % 10 == 0 else math.ceil(len(stock) / 10)
    fan_step = (width * 0.2 if fan[0] else height * 0.12) if fanned else 1.2
    base_angle = rng.gauss(0, 2)
    for pile in range(piles):
        # Pile 0 is dealt first, so it lies on top, nearest the tableau end of the fan.
        order = piles - 1 - pile
        px = stock_at[0] + fan[0] * order * fan_step
        py = stock_at[1] + fan[1] * order * fan_step
        pile_rng = _slot_rng(seed, "stock", order)
        angle = base_angle + pile_rng.gauss(0, 1.5)
        cards = stock[pile * 10 : pile * 10 + 10]
        for index, card in enumerate(cards):
            thickness = (len(cards) - index) * 0.25
            corners = _corners(px - thickness, py - thickness, angle + pile_rng.gauss(0, 0.3))
            placed.append(PlacedCard("stock", pile, index, card, False, corners,
                                     z=5000 + order * 20 + (len(cards) - index)))
    for run, suit in enumerate(table.removed):
        dx = (-fan[0] if fan[0] else 0) * run * (width * 1.1 if fan[0] else 0)
        dy = (fan[1] * run * height * 0.3) if fan[1] else 0.0
        px, py = removed_at[0] + dx, removed_at[1] + dy
        run_rng = _slot_rng(seed, "removed", run)
        angle = run_rng.gauss(0, 3)
        for index, rank in enumerate(range(13, 0, -1)):
            corners = _corners(px + index * 0.15, py + index * 0.15, angle + run_rng.gauss(0, 0.4))
            placed.append(PlacedCard("removed", run, index, Card(rank, suit), scene.removed_face_up,
                                     corners, z=6000 + run * 20 + index))
