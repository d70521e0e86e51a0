"""Draw a ``TableReading`` over its picture (drawing only; the reading is not changed)."""

from __future__ import annotations

import cv2
import numpy as np

from spider_vision.engine import card_text
from spider_vision.vision.reading import TableReading

__all__ = ["annotate"]

FACE_UP = (60, 200, 60)
FACE_DOWN = (200, 120, 40)
UNCERTAIN = (0, 0, 230)
LOOSE = (0, 200, 230)


def annotate(image: np.ndarray, reading: TableReading) -> np.ndarray:
    """A copy of ``image`` with every card's visible outline, index box, identity and column drawn."""
    out = image.copy()
    scale = max(image.shape[1] / 1280, 0.5)
    for card in reading.cards:
        if card.face_up:
            colour = LOOSE if card.column is None else (FACE_UP if card.card is not None else UNCERTAIN)
        else:
            colour = FACE_DOWN
        polygon = np.round(card.polygon).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [polygon], True, colour, max(1, round(scale)), cv2.LINE_AA)
        if card.index_box is not None:
            x, y, w, h = (round(v) for v in card.index_box)
            cv2.rectangle(out, (x, y), (x + w, y + h), colour, 1, cv2.LINE_AA)
            label = card_text(card.card) if card.card is not None else "??"
            column = "abcdefghij"[card.column] if card.column is not None else "-"
            text = f"{column}{card.index} {label} {card.confidence:.2f}"
            origin = (x + w + 2, y + h // 2)
            cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, (255, 255, 255), 1, cv2.LINE_AA)
    return out
