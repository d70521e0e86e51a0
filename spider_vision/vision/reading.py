"""The central result of reading one picture: every card seen, and the position when it is consistent.

``TableReading`` is passed from stage to stage (detection, reading, layout,
rules) and finally printed or drawn; drawing lives in ``annotate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from spider_vision.engine import Card, card_text

__all__ = ["CardReading", "TableReading", "card_classes", "class_index"]

SUITS = "shdc"


def card_classes() -> list[Card]:
    """The 52 identities in class order: suit-major (s, h, d, c), rank A..K."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def class_index(card: Card) -> int:
    return SUITS.index(card.suit) * 13 + card.rank - 1


@dataclass(frozen=True)
class CardReading:
    """One card seen in the picture.

    ``column`` is 0..9 (``None`` when the card lies outside the ten columns);
    ``index`` counts from the bottom of its pile, face-down cards included.
    ``card`` is ``None`` for face-down cards and for face-up cards read with
    too little confidence; ``probabilities`` (52, class order of
    ``card_classes``) keeps the belief either way: the reader's, with the deck
    calibration and the column's sequence prior (``rules.column_prior``)
    folded in. Coordinates are in
    the input picture's pixels: ``quad`` the whole card (top-left, top-right,
    bottom-right, bottom-left), ``polygon`` the part that shows, ``index_box``
    the corner index (x, y, w, h). ``suit_shown`` is the share of the corner
    index's suit pip that the next card of the column leaves in sight, as
    the card's frame and the cascade's step put it (1 for a card nothing
    covers): under a half, a four-suit card's suit can only be guessed.
    """

    column: int | None
    index: int
    face_up: bool
    card: Card | None
    confidence: float
    quad: np.ndarray
    polygon: np.ndarray
    index_box: tuple[float, float, float, float] | None = None
    probabilities: np.ndarray | None = field(default=None, repr=False, compare=False)
    embedding: np.ndarray | None = field(default=None, repr=False, compare=False)
    detection_score: float = 1.0
    suit_shown: float = 1.0

    def with_(self, **changes: Any) -> CardReading:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "column": "abcdefghij"[self.column] if self.column is not None else None,
            "index": self.index,
            "face_up": self.face_up,
            "card": card_text(self.card) if self.card is not None else None,
            "confidence": round(float(self.confidence), 4),
            "index_box": [round(float(v), 1) for v in self.index_box] if self.index_box is not None else None,
            "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygon],
        }


@dataclass(frozen=True)
class TableReading:
    """Every card read from one picture, the position in SPN (or ``None``) and what went wrong."""

    cards: tuple[CardReading, ...]
    position: str | None
    warnings: tuple[str, ...]
    suits: int | None
    image_size: tuple[int, int]
    milliseconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "cards": [card.to_json() for card in self.cards],
            "warnings": list(self.warnings),
        }

    def column(self, number: int) -> list[CardReading]:
        """The cards of one column, bottom of the pile first."""
        return sorted((c for c in self.cards if c.column == number), key=lambda c: c.index)
