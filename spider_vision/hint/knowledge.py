"""What a player knows: the cards still unseen, and worlds consistent with it.

A hint may use only the face-up cards, the removed runs and the cards seen
earlier. ``Knowledge`` holds exactly that; ``determinise`` deals the unseen
cards at random into the hidden places, giving one full-information world
that the solver can search.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from spider_vision.engine import Card, Column, Position, PositionError

__all__ = ["Knowledge", "determinise"]


@dataclass(frozen=True)
class Knowledge:
    """The observed position (face-down and stock cards hidden) and the cards still unseen.

    ``read_earlier`` are cards seen face up before that the position does not
    show as known: they must be among its unread face-up cards (``??``),
    since face-up cards never turn face down again.
    """

    position: Position
    unseen: Counter[Card]
    read_earlier: Counter[Card]

    @classmethod
    def of(cls, position: Position, seen: tuple[Card, ...] = ()) -> Knowledge:
        """Hide what a player cannot see and count the cards still unseen."""
        observed = position.observed()
        known = observed.known_cards()
        deck = observed.mode.deck()
        read_earlier = Counter(seen) - known
        unread_up = sum(column.up.count(None) for column in observed.columns)
        if sum(read_earlier.values()) > unread_up:
            raise PositionError(
                "seen cards: more cards were seen than the position can hold face up"
            )
        for card, count in read_earlier.items():
            if known[card] + count > deck[card]:
                raise PositionError(f"seen cards: {card} was seen more often than it exists")
        unseen = deck - known - read_earlier
        return cls(observed, unseen, read_earlier)

    @property
    def hidden_count(self) -> int:
        """How many cards are face down or in the stock."""
        return sum(self.unseen.values())


def determinise(knowledge: Knowledge, rng: random.Random) -> Position:
    """One full-information world drawn uniformly from those consistent with ``knowledge``."""
    position = knowledge.position
    pool = list(knowledge.unseen.elements())
    earlier = list(knowledge.read_earlier.elements())
    rng.shuffle(pool)
    rng.shuffle(earlier)
    up_slots = [
        (index, slot)
        for index, column in enumerate(position.columns)
        for slot, card in enumerate(column.up)
        if card is None
    ]
    rng.shuffle(up_slots)
    assigned_up: dict[tuple[int, int], Card] = {}
    for place, card in zip(up_slots, earlier):
        assigned_up[place] = card
    for place in up_slots[len(earlier) :]:
        assigned_up[place] = pool.pop()
    columns = []
    for index, column in enumerate(position.columns):
        down = tuple(card if card is not None else pool.pop() for card in column.down)
        up = tuple(
            card if card is not None else assigned_up[(index, slot)]
            for slot, card in enumerate(column.up)
        )
        columns.append(Column(down, up))
    stock = tuple(card if card is not None else pool.pop() for card in position.stock)
    if pool:
        raise PositionError(f"{len(pool)} unseen cards have no place in the position")
    return Position(tuple(columns), stock, position.removed, position.mode)
