"""Asks the player what a misread card really is: one big button per card of the game's suits."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from spider_vision.engine import Card, SuitMode

from gui.style import SUIT_SYMBOLS, big_font, card_label

__all__ = ["CorrectionDialog"]


class CorrectionDialog(QDialog):
    """A grid of ranks by suits; ``chosen`` is the card picked (None when cancelled)."""

    def __init__(self, where: str, was: Card | None, mode: SuitMode | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Correct a card")
        self.setAccessibleName("Correct a card")
        self.chosen: Card | None = None
        layout = QVBoxLayout(self)
        read = card_label(was) if was is not None else "not read"
        question = QLabel(f"{where}: read as {read}. What is the card?")
        question.setFont(big_font(20))
        layout.addWidget(question)
        grid = QGridLayout()
        suits = mode.suits if mode is not None else "shdc"
        for row, suit in enumerate(suits):
            for rank in range(1, 14):
                card = Card(rank, suit)
                button = QPushButton(card_label(card))
                button.setFont(big_font(18))
                button.setAccessibleName(f"{card_label(card)} ({SUIT_SYMBOLS[suit]})")
                button.setMinimumSize(52, 44)
                button.clicked.connect(lambda _=False, c=card: self._choose(c))
                grid.addWidget(button, row, rank - 1)
        layout.addLayout(grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _choose(self, card: Card) -> None:
        self.chosen = card
        self.accept()

    @staticmethod
    def ask(where: str, was: Card | None, mode: SuitMode | None, parent: QWidget | None = None) -> Card | None:
        dialog = CorrectionDialog(where, was, mode, parent)
        dialog.exec()
        return dialog.chosen
