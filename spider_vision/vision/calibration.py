"""Deck calibration: adapt the reader to a player's own deck from one photo of known cards.

The reader embeds every corner crop in 64 dimensions. A calibration keeps the
mean (unit-length) embedding of each known class seen in the photo; when a
later picture is read, the similarity of each crop to those prototypes is
added to the reader's log-probabilities. Pure numpy, stored as a small .npz.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spider_vision.engine import Card
from spider_vision.vision.reading import class_index

__all__ = ["Calibration", "CalibrationError"]

WEIGHT = 3.0
"""How strongly a prototype similarity (cosine, -1..1) shifts the log-probabilities.

``bench/calibration.py`` (one clean photo of a mid-game table per deck, then 30 other tables of that
deck): against reading uncalibrated, this weight with the best similarity for classes not shown gains
24 and 7 cards (tables 1000 and 2000 of the unseen style's nine decks) and 4 (eight training decks);
weight 6 with the mean similarity, used before, lost 23, 14 and 37 and 18 of 92 exact positions."""


class CalibrationError(ValueError):
    """The calibration photo and the cards named for it do not match."""


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-9)


@dataclass(frozen=True)
class Calibration:
    """Prototype embeddings (k, 64) of the classes ``classes`` (k, 0..51) of one deck."""

    classes: np.ndarray
    prototypes: np.ndarray

    @classmethod
    def from_examples(cls, embeddings: np.ndarray, cards: list[Card]) -> Calibration:
        """Prototypes from crops' embeddings and the cards they show (same order)."""
        if len(embeddings) != len(cards) or not cards:
            raise CalibrationError(f"{len(cards)} cards named for {len(embeddings)} cards seen in the photo")
        ids = np.array([class_index(card) for card in cards])
        classes = np.unique(ids)
        prototypes = np.stack([_unit(_unit(embeddings[ids == c]).mean(axis=0)) for c in classes])
        return cls(classes, prototypes)

    def adjust(self, probabilities: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
        """Class probabilities (n, 52) moved towards the prototypes the embeddings resemble."""
        if not len(probabilities):
            return probabilities
        similarity = _unit(embeddings) @ self.prototypes.T          # (n, k)
        # A class the photo did not show gets the crop's best similarity: the crop may well be one, so
        # it must not lose to the classes shown (with their mean instead, such crops were pushed towards
        # the look-alike shown, and calibrating lost cards on every deck measured).
        bonus = np.repeat(similarity.max(axis=1, keepdims=True), 52, axis=1)
        bonus[:, self.classes] = similarity
        logits = np.log(np.maximum(probabilities, 1e-12)) + WEIGHT * bonus
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def save(self, path: str | Path) -> None:
        with open(path, "wb") as handle:
            np.savez(handle, classes=self.classes, prototypes=self.prototypes, format=np.array("spider-deck-1"))

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            with np.load(path) as data:
                if str(data["format"]) != "spider-deck-1":
                    raise CalibrationError(f"'{path}' is not a Spider Vision deck calibration")
                return cls(data["classes"].astype(np.int64), data["prototypes"].astype(np.float32))
        except (OSError, KeyError, ValueError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"cannot read the deck calibration '{path}': {error}") from None
