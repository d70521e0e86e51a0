"""Errors the engine raises, each a ``ValueError`` whose message a player understands.

Notation errors say which text could not be read; rule errors say why a move is
refused and, where it helps, what would be allowed instead.
"""

from __future__ import annotations

__all__ = [
    "BlockedDealError",
    "EmptySourceError",
    "EmptyStockError",
    "FaceDownCardsError",
    "IllegalMoveError",
    "MixedSuitGroupError",
    "NotARunError",
    "NotationError",
    "NothingToRemoveError",
    "OntoAceError",
    "PositionError",
    "SameColumnError",
    "SpiderError",
    "UnknownCardError",
    "WrongRankError",
]


class SpiderError(ValueError):
    """Base of every error the engine raises on purpose."""


class NotationError(SpiderError):
    """Text that is not valid card, move or position notation."""


class PositionError(NotationError):
    """A position that cannot exist: wrong card counts, columns or fields."""


class IllegalMoveError(SpiderError):
    """A move or deal that the rules refuse."""


class SameColumnError(IllegalMoveError):
    """A move whose destination is its own source column."""


class EmptySourceError(IllegalMoveError):
    """A move out of an empty column."""


class FaceDownCardsError(IllegalMoveError):
    """A move that would have to lift face-down cards."""


class MixedSuitGroupError(IllegalMoveError):
    """A group of cards moved together that is not all one suit."""


class NotARunError(IllegalMoveError):
    """A group of cards moved together that does not step down by one rank."""


class WrongRankError(IllegalMoveError):
    """A card put on a card that is not exactly one rank higher."""


class OntoAceError(IllegalMoveError):
    """A card put on an Ace, which nothing may cover."""


class UnknownCardError(IllegalMoveError):
    """A move whose legality depends on a card not yet read."""


class BlockedDealError(IllegalMoveError):
    """A stock deal while a column is empty."""


class EmptyStockError(IllegalMoveError):
    """A stock deal with no stock left."""


class NothingToRemoveError(IllegalMoveError):
    """A manual removal where no completed run lies (removal variant only)."""
