"""The rules core of Spider: cards, positions, moves, legality, deals and games. No I/O."""

from __future__ import annotations

from spider_vision.engine.cards import RANKS, SUIT_NAMES, SUITS, Card, MaybeCard, SuitMode, card_text, parse_card, parse_cards
from spider_vision.engine.deals import deal_order, deal_position
from spider_vision.engine.errors import (
    BlockedDealError,
    EmptySourceError,
    EmptyStockError,
    FaceDownCardsError,
    IllegalMoveError,
    MixedSuitGroupError,
    NotARunError,
    NotationError,
    NothingToRemoveError,
    OntoAceError,
    PositionError,
    SameColumnError,
    SpiderError,
    UnknownCardError,
    WrongRankError,
)
from spider_vision.engine.game import Game, NothingToRedoError, NothingToUndoError
from spider_vision.engine.moves import Deal, Move, Removal, TableauMove, column_index, column_letter, parse_move
from spider_vision.engine.position import Column, Position
from spider_vision.engine.rules import (
    STANDARD,
    Flip,
    Removed,
    Step,
    Variant,
    apply_move,
    check_move,
    is_legal,
    legal_moves,
    legal_steps,
    resolve_move,
    reveal,
)

__all__ = [
    "RANKS", "SUIT_NAMES", "SUITS", "STANDARD",
    "BlockedDealError", "Card", "Column", "Deal", "EmptySourceError", "EmptyStockError",
    "FaceDownCardsError", "Flip", "Game", "IllegalMoveError", "MaybeCard", "MixedSuitGroupError",
    "Move", "NotARunError", "NotationError", "NothingToRedoError", "NothingToRemoveError",
    "NothingToUndoError", "OntoAceError", "Position", "PositionError", "Removal", "Removed",
    "SameColumnError", "SpiderError", "Step", "SuitMode", "TableauMove", "UnknownCardError",
    "Variant", "WrongRankError",
    "apply_move", "card_text", "check_move", "column_index", "column_letter", "deal_order",
    "deal_position", "is_legal", "legal_moves", "legal_steps", "parse_card", "parse_cards",
    "parse_move", "resolve_move", "reveal",
]
