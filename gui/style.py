"""Colours, fonts and card labels shared by the views: large, high-contrast, readable across a table."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont

from spider_vision.engine import Card

__all__ = [
    "FELT", "SUIT_SYMBOLS", "CARD_FACE", "CARD_BACK", "HINT", "SELECTED", "DOUBT", "SEVERITY_COLOURS",
    "card_label", "confidence_colour", "suit_colour", "big_font", "COLUMN_LETTERS",
]

COLUMN_LETTERS = "abcdefghij"
FELT = QColor("#0f5132")
CARD_FACE = QColor("#fbfbf6")
CARD_BACK = QColor("#2f4f9e")
HINT = QColor("#22e36b")
SELECTED = QColor("#ffc21a")
DOUBT = QColor("#ff7a00")
SEVERITY_COLOURS = {"info": QColor("#1f5fa8"), "caution": QColor("#b26a00"), "error": QColor("#b3261e")}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
RANK_TEXT = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
FOUR_COLOURS = {"s": QColor("#111111"), "h": QColor("#d01c1c"), "d": QColor("#1c4fd0"), "c": QColor("#0b7a2a")}
TWO_COLOURS = {"s": QColor("#111111"), "h": QColor("#d01c1c"), "d": QColor("#d01c1c"), "c": QColor("#111111")}


def card_label(card: Card | None) -> str:
    """A card as a player reads it: ``10♠``, ``Q♥``; ``?`` when unknown."""
    if card is None:
        return "?"
    return f"{RANK_TEXT.get(card.rank, str(card.rank))}{SUIT_SYMBOLS[card.suit]}"


def suit_colour(card: Card | None, four_colour: bool) -> QColor:
    """Ink of a card: red and black, or one colour a suit in four-suit games."""
    if card is None:
        return QColor("#666666")
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[card.suit]


def confidence_colour(confidence: float, known: bool) -> QColor:
    """Green for a sure read, amber for a doubtful one, red for a card not read."""
    if not known:
        return QColor("#ff3b30")
    if confidence >= 0.9:
        return QColor("#34c759")
    if confidence >= 0.75:
        return QColor("#ffcc00")
    return QColor("#ff9500")


def big_font(pixels: float, bold: bool = True) -> QFont:
    font = QFont()
    font.setPixelSize(max(8, round(pixels)))
    font.setBold(bold)
    return font
