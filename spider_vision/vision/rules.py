"""The rules of Spider as a filter on what the reader believes.

* The suit mode limits the suits (given, or the smallest mode that explains
  the confident reads).
* No identity is assigned more often than the mode has copies: the most
  confident reads keep their class, later ones fall back to their best class
  still available.
* A card already known face up (from an earlier picture) keeps its identity.
* Face-down counts stay within what each column was dealt, and the tableau
  leaves a whole stock and whole removed runs where the counter's beliefs
  allow it (``choose_down_counts``).
* A read whose final probability is below ``UNCERTAIN`` is reported as
  uncertain (``card`` None), never guessed.
* Face-up cards of a column mostly descend one rank at a time, often in one
  suit (``column_prior``): a card the reader is unsure of leans towards what
  its neighbours make likely.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from spider_vision.engine import Card, SuitMode
from spider_vision.vision.position import split_rest
from spider_vision.vision.reading import CardReading, card_classes, class_index

__all__ = [
    "DEALT_DOWN", "UNCERTAIN", "CountTable", "apply_rules", "choose_down_counts", "column_prior", "count_table",
    "infer_suits", "joint_probabilities", "letter_beliefs",
]

UNCERTAIN = 0.6
"""Below this probability a face-up card is reported as unknown."""

SUITS = "shdc"


def joint_probabilities(rank: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """(n, 52) class probabilities from independent rank (n, 13) and suit (n, 4) heads."""
    return (suit[:, :, None] * rank[:, None, :]).reshape(len(rank), 52)


DESCENDING = 0.3
"""Prior chance that a face-up card lies on the card one rank higher.

68% of the pairs in renders of random play do, 70% of those in one suit; the
prior is set lower (0.3 and 0.5, the best of three settings on 100 held-out
tables) because a strong prior also pulls right reads towards a misread
neighbour.
"""
SAME_SUIT = 0.5
"""Prior chance that a card lying on the card one rank higher has its suit."""


def _transitions() -> np.ndarray:
    """(52, 52) chance of the next card of a column given the card it lies on (class order suit-major)."""
    rank = np.tile(np.arange(13), 4)
    suit = np.repeat(np.arange(4), 13)
    onto = rank[None, :] == rank[:, None] - 1
    same = suit[None, :] == suit[:, None]
    following = np.where(same, SAME_SUIT, (1 - SAME_SUIT) / 3) * onto
    return DESCENDING * following + (1 - DESCENDING) / 52


TRANSITIONS = _transitions()


def column_prior(probabilities: np.ndarray, columns: list[list[int]]) -> np.ndarray:
    """Beliefs (n, 52) with each column's sequence prior folded in (forward-backward along each column).

    ``columns`` list the rows of ``probabilities`` of each column's face-up
    cards in the order they lie, the card that was there first (highest on
    the table) first; rows in no column keep their belief.
    """
    out = probabilities.copy()
    for column in columns:
        if len(column) < 2:
            continue
        evidence = np.maximum(probabilities[column], 1e-12)
        forward = np.zeros_like(evidence)
        backward = np.ones_like(evidence)
        forward[0] = evidence[0] / evidence[0].sum()
        for k in range(1, len(column)):
            f = (forward[k - 1] @ TRANSITIONS) * evidence[k]
            forward[k] = f / f.sum()
        for k in range(len(column) - 2, -1, -1):
            b = TRANSITIONS @ (evidence[k + 1] * backward[k + 1])
            backward[k] = b / b.sum()
        posterior = forward * backward
        out[column] = posterior / posterior.sum(axis=1, keepdims=True)
    return out


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
    for kind in mode.deck():
        allowed[class_index(kind)] = True
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
    beliefs: dict[int, np.ndarray] = {}
    for k, card in enumerate(cards):
        if card.face_up and card.probabilities is not None and k not in fixed:
            belief = np.where(allowed, card.probabilities, 0.0)
            total = belief.sum()
            beliefs[k] = belief / total if total > 0 else allowed / allowed.sum()
    for k, known_card in fixed.items():
        out[k] = cards[k].with_(card=known_card, confidence=1.0)
    for k in sorted(beliefs, key=lambda k: -beliefs[k].max()):
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


DEALT_DOWN = (5, 5, 5, 5, 4, 4, 4, 4, 4, 4)
"""Face-down cards dealt to columns a..j; a column never holds more."""


FORCED_COST = 3.0
"""Nats the counts may lose against the counter's likeliest to make a whole card total (20 to 1). On
100+100 tables forcing at any cost moved sure counts to make up for a face-up card missed or found twice
elsewhere: face-down counts 93.2% / 94.9% against 94.2% / 95.5% with a limit of 4.6. Swept from 0 to 12
on the first 100 + 100 tables of ``bench/vision.py`` and checked on the next (``--first 200``), 3 counts
8 more of 3566 columns right than 4.6 (800 against 795 of 836, 873 / 872 of 928, 873 / 871 of 896, the
unseen style's first sample the same) and loses none, with the same exact positions; 2 and under lose
exact positions, 6 and over lose columns."""


RUN_COST = 3.0
"""Nats a whole card total pays for each completed run it assumes beyond those in sight (cards off the
columns read as Aces or Kings: ``completed.runs_in_sight``), with all 44 cards still face down; in
proportion to the face-down cards it gives, since runs are completed once much of the deal is turned
over. A removed run is 13 cards, 3 more than a deal: three columns' counts each read one short (a fresh
deal's 5s read as 4s), or one count one too many, made a total that a deal fewer and a run removed
explained, and the position came out with a run removed that no card in sight showed (as many as 4 runs
with 42 cards face down). On the first 800 + 800 tables of ``bench/vision.py`` (cached reads, 1123 full
views) exact positions 564 with no cost, 580 with 3 (and with a flat 2 nats a run); face-down counts
14104 and 14142 of 14489 columns. On 100 + 100 late tables (``--late``: runs removed in every one, laid
face down in two in five) the flat cost lost one exact position of 126 and 5 counts of 1413; this one
keeps both (21 exact; 1332 counts against 1333)."""


def letter_beliefs(letters: tuple[int | None, ...], beliefs: np.ndarray) -> np.ndarray:
    """The counter's beliefs (10, k) by column letter, from ``beliefs`` (one row per pile, lettered by
    ``letters``); a letter with no pile is an empty column, which holds no face-down card."""
    by_letter = np.zeros((10, beliefs.shape[1]))
    by_letter[:, 0] = 1.0
    for row, letter in zip(beliefs, letters):
        by_letter[letter] = row
    return by_letter


CountTable = dict[int, tuple[float, list[int]]]
"""For each total of face-down cards, the likeliest counts that make it and their log-likelihood."""


def count_table(probabilities: np.ndarray) -> CountTable:
    """The likeliest face-down counts of ten columns for each total, no column holding more than it was
    dealt; ``probabilities`` (10, k) are the counter's beliefs per column (0..k-1 cards). It depends on
    the beliefs only, so a caller trying several face-up totals works it out once."""
    logs = np.log(np.maximum(probabilities, 1e-9))
    best: CountTable = {0: (0.0, [])}
    for column in range(10):
        nxt: CountTable = {}
        for total, (score, counts) in best.items():
            for count in range(min(DEALT_DOWN[column], logs.shape[1] - 1) + 1):
                candidate = (score + logs[column, count], counts + [count])
                if total + count not in nxt or candidate[0] > nxt[total + count][0]:
                    nxt[total + count] = candidate
        best = nxt
    return best


def choose_down_counts(probabilities: np.ndarray | CountTable, face_up: int,
                       runs_in_sight: int = 0) -> tuple[list[int], bool]:
    """The likeliest face-down counts of ten columns that Spider allows.

    ``probabilities`` (10, k) are the counter's beliefs per column (0..k-1
    cards), or their ``count_table``; no column holds more than it was
    dealt, and the cards on the tableau (``face_up`` plus the counts) must
    leave a whole stock and whole removed runs. When no such choice is
    within ``FORCED_COST`` of the likeliest counts, the face-up cards are the
    likelier error (one missed or found twice) and the likeliest counts come
    back instead. A total that assumes more removed runs than
    ``runs_in_sight`` pays ``RUN_COST`` for each, the more the more cards it
    leaves face down. Returns the counts and whether they make a whole card
    total.
    """
    best = probabilities if isinstance(probabilities, dict) else count_table(probabilities)
    valid = []
    for total, (score, counts) in best.items():
        split = split_rest(104 - total - face_up)
        if split is not None:
            cost = RUN_COST * total / sum(DEALT_DOWN) * max(0, split[1] - runs_in_sight)
            valid.append((score - cost, score, counts))
    likeliest = max(best.values(), key=lambda entry: entry[0])
    if not valid:
        return likeliest[1], False
    _, score, counts = max(valid, key=lambda entry: entry[0])
    if score < likeliest[0] - FORCED_COST:
        return likeliest[1], False
    return counts, True
