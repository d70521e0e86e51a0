"""The rules of Spider as a filter on what the reader believes.

* The suit mode limits the suits (given, or the smallest mode that explains
  the confident reads).
* No identity is assigned more often than the mode has copies: the most
  confident reads keep their class, later ones fall back to their best class
  still available.
* A card already known face up (from an earlier picture) keeps its identity.
* A read whose final probability is below ``UNCERTAIN`` is reported as
  uncertain (``card`` None), never guessed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from spider_vision.engine import Card, SuitMode
from spider_vision.vision.reading import CardReading, card_classes, class_index

__all__ = ["UNCERTAIN", "apply_rules", "infer_suits", "joint_probabilities"]

UNCERTAIN = 0.6
"""Below this probability a face-up card is reported as unknown."""

SUITS = "shdc"


def joint_probabilities(rank: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """(n, 52) class probabilities from independent rank (n, 13) and suit (n, 4) heads."""
    return (suit[:, :, None] * rank[:, None, :]).reshape(len(rank), 52)


def infer_suits(probabilities: np.ndarray, confident: float = 0.9) -> int:
    """The smallest suit mode that explains every confident suit read."""
    suit_probs = probabilities.reshape(-1, 4, 13).sum(axis=2)
    seen = {SUITS[s] for s in suit_probs.argmax(axis=1)[suit_probs.max(axis=1) >= confident]}
    if seen <= {"s"}:
        return 1
    if seen <= {"s", "h"}:
        return 2
    return 4


def apply_rules(cards: list[CardReading], suits: int,
                known: dict[tuple[int, int], Card] | None = None) -> tuple[list[CardReading], list[str]]:
    """Identities for the face-up cards under the mode's suits and copy limits; warnings for what was changed."""
    mode = SuitMode(suits)
    allowed = np.zeros(52, bool)
    for card in mode.deck():
        allowed[class_index(card)] = True
    classes = card_classes()
    warnings: list[str] = []
    out = list(cards)
    used: Counter[int] = Counter()
    known = known or {}
    fixed = {}
    for k, card in enumerate(cards):
        if card.face_up and card.column is not None and (card.column, card.index) in known:
            fixed[k] = known[(card.column, card.index)]
            used[class_index(fixed[k])] += 1
    faces = [k for k, card in enumerate(cards) if card.face_up and card.probabilities is not None and k not in fixed]
    beliefs = {k: np.where(allowed, cards[k].probabilities, 0.0) for k in faces}
    for k in faces:
        total = beliefs[k].sum()
        beliefs[k] = beliefs[k] / total if total > 0 else allowed / allowed.sum()
    for k, card in fixed.items():
        out[k] = cards[k].with_(card=card, confidence=1.0)
    for k in sorted(faces, key=lambda k: -beliefs[k].max()):
        belief = beliefs[k].copy()
        best = int(belief.argmax())
        belief[[c for c, n in used.items() if n >= mode.copies]] = 0.0
        # Given that the full classes are ruled out, the rest of the belief is renormalised.
        belief = belief / max(float(belief.sum()), 1e-12)
        choice = int(belief.argmax())
        if choice != best:
            warnings.append(f"more than {mode.copies} copies of {classes[best]} read; one read as "
                            f"{classes[choice]} instead")
        probability = float(belief[choice])
        if probability < UNCERTAIN:
            out[k] = cards[k].with_(card=None, confidence=probability)
            continue
        used[choice] += 1
        out[k] = cards[k].with_(card=classes[choice], confidence=probability)
    return out, warnings
