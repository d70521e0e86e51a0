"""Deal numbering: deal number and suit mode to the starting position, as the spec fixes it."""

from __future__ import annotations

from spider_vision.engine.cards import Card, SuitMode, make_card
from spider_vision.engine.errors import NotationError
from spider_vision.engine.position import Column, Position

__all__ = ["MAX_DEAL", "deal_order", "deal_position", "index_card", "splitmix64"]

MAX_DEAL = 2**32
_MASK = 2**64 - 1
_TABLEAU_CARDS = 54


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: return the new state and the output."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def deal_order(number: int) -> list[int]:
    """The shuffled card indices 0..103 of deal ``number``."""
    if not 0 <= number < MAX_DEAL:
        raise NotationError(f"deal number {number} is not between 0 and 4294967295")
    order = list(range(104))
    state = number
    for i in range(103, 0, -1):
        state, value = splitmix64(state)
        j = value % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def index_card(index: int, mode: SuitMode) -> Card:
    """Card index 0..103 to its card: rank ``i % 13 + 1``, suit by ``(i // 13) % S``."""
    suits = mode.suits
    return make_card(index % 13 + 1, suits[(index // 13) % len(suits)])


def deal_position(number: int, mode: SuitMode | int) -> Position:
    """The full-information starting position of deal ``number`` in suit mode ``mode``."""
    mode = SuitMode.parse(mode)
    cards = [index_card(index, mode) for index in deal_order(number)]
    piles: list[list[Card]] = [[] for _ in range(10)]
    for k, card in enumerate(cards[:_TABLEAU_CARDS]):
        piles[k % 10].append(card)
    columns = tuple(Column(tuple(pile[:-1]), (pile[-1],)) for pile in piles)
    return Position(columns, tuple(cards[_TABLEAU_CARDS:]), "", mode)
