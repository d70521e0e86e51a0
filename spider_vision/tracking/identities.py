"""Who each face-up card is: evidence gathered over frames, and what the legal moves imply.

Every card the camera has seen face up gets an id that travels with it
through moves (``follow``). Each stable period gives it one vote: the mean of
the reader's log-likelihood ratios over the period's frames. Its evidence is
the mean vote, however many there are: the frames and periods of one card
are far from independent (a reader that confuses a 4 with a 6 in some deck
does so every time it sees the card), so a card seen for long must not grow
surer than one look makes it, beyond what the rules can still overrule. (Two
votes' worth made a doubtful card cost more to read again than a rule break,
and the bench games' 4-6 confusions turned legal moves into flagged ones.)
The mean is weighted: a period in which the card is its pile's exposed card
(its whole index shows) counts ``EXPOSED_WEIGHT`` times one in which the
next card covers part of its index.
Each legal move also says something: the moved cards form a run and the base
goes on a card one rank higher, so a legal move records constraints between
card ids.
``score`` weighs an identity by its evidence and the constraints it keeps;
a misread is an identity whose score another one beats clearly.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np

from spider_vision.engine import Card, Deal, Position, Step, TableauMove
from spider_vision.vision.reading import card_classes, class_index

__all__ = ["EXPOSED_WEIGHT", "CardBook", "Constraint", "LEGAL_PRIOR"]

LEGAL_PRIOR = 5.0
"""Nats a kept constraint of a legal move is worth: players mostly play by the rules."""
ALTERNATIVES = 6
"""Identities (by evidence) considered when a card may have been misread."""
SPREAD_DOUBT = 3.5
"""Nats within which further identities, beyond the ``ALTERNATIVES`` likeliest, are doubts as well: a
reader unsure between many (an index hidden under the next column's card) leaves the true one a few
nats short (bench game 748002: an Ah read from the echo of the next column's 5h lay 3.0 nats short
of the 2h it was taken for, and its move onto a 2h was flagged as a 2 put on a 2). Further
ones let a relabelled move explain a table where nothing moved (bench game 735001: a Kh read as the
5h it is 4.9 nats short of, seventh)."""

EXPOSED_WEIGHT = 4.0
"""Weight of a vote from a period in which the card lay exposed, against one while covered. On
rendered tables the reader reads 98.4% of whole indices right and 83% of covered ones
(``bench/vision.py``). In bench game 700004 a 9h read as such while exposed was read as 3h at 0.96
or more once a card lay on it, and after six such periods it was corrected to 3h, so a legal move
onto it was flagged."""

CLASSES = card_classes()


@dataclass(frozen=True)
class Constraint:
    """What a legal move showed: ``upper`` is one rank above ``lower`` (and of its suit when ``suited``)."""

    upper: int
    lower: int
    suited: bool

    def kept(self, upper: Card | None, lower: Card | None) -> bool:
        if upper is None or lower is None:
            return True
        return upper.rank == lower.rank + 1 and (not self.suited or upper.suit == lower.suit)


@dataclass
class CardBook:
    """Ids of the face-up cards (parallel to the position's piles), their evidence and constraints."""

    ids: list[list[int]]
    allowed: np.ndarray
    votes: dict[int, tuple[np.ndarray, float]] = field(default_factory=dict)
    constraints: list[Constraint] = field(default_factory=list)
    next_id: int = 0

    @classmethod
    def for_position(cls, position: Position, allowed: np.ndarray) -> CardBook:
        book = cls([], allowed)
        book.ids = [[book.new_id() for _ in pile.up] for pile in position.columns]
        return book

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def id_at(self, column: int, slot: int) -> int:
        return self.ids[column][slot]

    def evidence_of(self, card_id: int) -> np.ndarray:
        """The card's weighted mean vote (zero before its first)."""
        if card_id not in self.votes:
            return np.zeros(52)
        total, weight = self.votes[card_id]
        return total / weight

    def lead(self, card_id: int, card: Card) -> float:
        """How far the evidence puts ``card`` ahead of the card's likeliest other identity (negative
        when behind, zero before the first vote): how sure the reader has been of it."""
        evidence = np.where(self.allowed, self.evidence_of(card_id), -np.inf)
        own = float(evidence[class_index(card)])
        evidence[class_index(card)] = -np.inf
        return own - float(evidence.max())

    def seen(self, card_id: int) -> bool:
        """Whether the camera has given the card any evidence yet."""
        return card_id in self.votes

    def vote(self, card_id: int, mean: np.ndarray, weight: float = 1.0) -> None:
        """Add one period's mean evidence for a card, with its weight."""
        total, weights = self.votes.get(card_id, (np.zeros(52), 0.0))
        self.votes[card_id] = (total + weight * mean, weights + weight)

    def settle(self, card_id: int, card: Card) -> None:
        """The player named the card: no evidence of the camera outweighs that."""
        certain = np.full(52, -1000.0)
        certain[class_index(card)] = 1000.0
        self.votes[card_id] = (certain, 1.0)

    # --- following the game ------------------------------------------------------------

    def follow(self, step: Step) -> None:
        """Move the ids along with the cards of ``step``; cards turned over or dealt get new ids."""
        piles = self.ids
        move = step.move
        if isinstance(move, TableauMove):
            source = piles[move.source]
            group = source[len(source) - move.count:]
            piles[move.source] = source[: len(source) - move.count]
            piles[move.target] = piles[move.target] + group
        elif isinstance(move, Deal):
            dealt = len(step.before.stock) - len(step.after.stock)
            for column in range(min(dealt, 10)):
                piles[column] = piles[column] + [self.new_id()]
        for removed in step.removals:
            piles[removed.column] = piles[removed.column][:-13]
        for flip in step.flips:
            piles[flip.column] = piles[flip.column] + [self.new_id()]
        for column, pile in enumerate(step.after.columns):
            if len(piles[column]) != len(pile.up):
                piles[column] = [self.new_id() for _ in pile.up]

    def record_legal(self, step: Step) -> None:
        """The constraints a legal tableau move shows (call before ``follow``)."""
        move = step.move
        if not step.legal or not isinstance(move, TableauMove):
            return
        source = self.ids[move.source]
        group = source[len(source) - move.count:]
        for upper, lower in zip(group, group[1:]):
            self.constraints.append(Constraint(upper, lower, True))
        target = self.ids[move.target]
        if target and group:
            self.constraints.append(Constraint(target[-1], group[0], False))

    def add_votes(self, sums: dict[int, np.ndarray], counts: dict[int, int], exposed: Collection[int] = ()) -> None:
        """One vote per card from a stable period: its mean evidence over the period's frames, weighing
        ``EXPOSED_WEIGHT`` for the cards ``exposed`` in the period."""
        for card_id, total in sums.items():
            weight = EXPOSED_WEIGHT if card_id in exposed else 1.0
            self.vote(card_id, total / max(counts.get(card_id, 1), 1), weight)

    def snapshot(self) -> tuple[list[list[int]], int]:
        return [list(pile) for pile in self.ids], len(self.constraints)

    def restore(self, snapshot: tuple[list[list[int]], int]) -> None:
        ids, constraints = snapshot
        self.ids = [list(pile) for pile in ids]
        del self.constraints[constraints:]

    # --- judging identities --------------------------------------------------------------

    def cards_by_id(self, position: Position) -> dict[int, Card | None]:
        return {card_id: card for pile, ids in zip(position.columns, self.ids) for card, card_id in zip(pile.up, ids)}

    def score(self, card_id: int, card: Card, known: dict[int, Card | None]) -> float:
        """Evidence for ``card`` plus the legal-move constraints it would keep or break."""
        value = float(self.evidence_of(card_id)[class_index(card)])
        for constraint in self.constraints:
            if constraint.upper == card_id:
                if not constraint.kept(card, known.get(constraint.lower)):
                    value -= LEGAL_PRIOR
            elif constraint.lower == card_id:
                if not constraint.kept(known.get(constraint.upper), card):
                    value -= LEGAL_PRIOR
        return value

    def candidates(self, card_id: int, position: Position, current: Card | None,
                   floor: float | None = None, *, placed: bool = False) -> list[Card]:
        """The likeliest identities by evidence that the suit mode still has a copy of (or, with
        ``placed``, those whose every copy is placed as well): the best ``ALTERNATIVES`` and every
        other one whose evidence is above ``floor``, or all of them for a card never seen (dealt past
        the picture's edge, say), which has no likeliest ones.

        The floor matters where the reader is unsure: a card whose index it cannot see clearly
        spreads its evidence over many identities, and the one a legal move needs may come
        seventh."""
        known = position.known_cards()
        copies = position.mode.copies
        evidence = self.evidence_of(card_id)
        ev = np.where(self.allowed, evidence, -np.inf)
        limit = ALTERNATIVES if card_id in self.votes else len(CLASSES)
        out: list[Card] = []
        for k in np.argsort(-ev, kind="stable"):
            if not self.allowed[k]:
                break
            if len(out) >= limit and (floor is None or evidence[k] <= floor):
                break
            card = CLASSES[int(k)]
            if placed or card == current or known[card] < copies:
                out.append(card)
        return out

    def best(self, card_id: int, position: Position, current: Card | None) -> tuple[Card | None, float]:
        """The best-scoring identity and its lead over ``current`` (over the runner-up when unknown)."""
        known = self.cards_by_id(position)
        options = self.candidates(card_id, position, current)
        if current is not None and current not in options:
            options.append(current)
        if not options:
            return current, 0.0
        scored = sorted(((self.score(card_id, card, known), card) for card in options),
                        key=lambda pair: -pair[0])
        top_score, top = scored[0]
        if current is not None:
            return top, top_score - self.score(card_id, current, known)
        return top, top_score - scored[1][0] if len(scored) > 1 else 0.0
