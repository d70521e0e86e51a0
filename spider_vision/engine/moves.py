"""Moves and their notation: ``ed`` and ``ed3`` for tableau moves, ``deal`` for the stock.

The removal variant adds ``xd``: the player takes the completed run off column d.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from spider_vision.engine.cards import CARDS_IN_GAME
from spider_vision.engine.errors import NotationError

__all__ = [
    "COLUMN_LETTERS",
    "Deal",
    "Move",
    "Removal",
    "TableauMove",
    "column_index",
    "column_letter",
    "parse_move",
]

COLUMN_LETTERS = "abcdefghij"
_TABLEAU_RE = re.compile(r"([a-j])([a-j])([1-9][0-9]?)?")
_REMOVAL_RE = re.compile(r"x([a-j])")


def column_letter(column: int) -> str:
    """``0`` -> ``a``."""
    return COLUMN_LETTERS[column]


def column_index(letter: str) -> int:
    """``a`` -> ``0``; anything but a..j is refused."""
    index = COLUMN_LETTERS.find(letter)
    if len(letter) != 1 or index < 0:
        raise NotationError(f"'{letter}' is not a column: columns are a to j")
    return index


@dataclass(frozen=True, slots=True)
class TableauMove:
    """Move ``count`` face-up cards from column ``source`` to column ``target`` (0-based)."""

    source: int
    target: int
    count: int = 1

    def __post_init__(self) -> None:
        if not (0 <= self.source < 10 and 0 <= self.target < 10):
            raise NotationError("columns are a to j")
        if self.count < 1:
            raise NotationError(f"a move takes at least one card, not {self.count}")
        if self.count > CARDS_IN_GAME:
            raise NotationError(f"a move takes at most {CARDS_IN_GAME} cards, not {self.count}")

    def __str__(self) -> str:
        text = column_letter(self.source) + column_letter(self.target)
        return text if self.count == 1 else f"{text}{self.count}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal one card from the stock onto each of the ten columns."""

    def __str__(self) -> str:
        return "deal"


@dataclass(frozen=True, slots=True)
class Removal:
    """Take a completed King-to-Ace run off a column (only when removal is manual)."""

    column: int

    def __str__(self) -> str:
        return "x" + column_letter(self.column)


Move = Union[TableauMove, Deal, Removal]


def parse_move(text: str) -> tuple[Move, bool]:
    """Read a move; also say whether a tableau move left its count out.

    A move written without a count means one card, but a position may resolve
    it to the only count that is legal (see ``Position.resolve_move``).
    """
    stripped = text.strip()
    if stripped.lower() == "deal":
        return Deal(), False
    match = _TABLEAU_RE.fullmatch(stripped)
    if match is not None:
        source, target, count = match.groups()
        move = TableauMove(column_index(source), column_index(target), int(count) if count else 1)
        return move, count is None
    match = _REMOVAL_RE.fullmatch(stripped)
    if match is not None:
        return Removal(column_index(match.group(1))), False
    raise NotationError(
        f"'{text}' is not a move: write source and target columns and the count, "
        "like ed or ed3, or deal"
    )
