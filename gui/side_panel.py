"""The right-hand panel: the hint with its reason and win estimate, the legal moves, the game's events."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QProgressBar, QVBoxLayout, QWidget

from spider_vision.engine import Move, Position, STANDARD, Variant, legal_moves
from spider_vision.hint import Hint

from gui.style import big_font

__all__ = ["SidePanel", "moves_of"]


def moves_of(position: Position | None, variant: Variant = STANDARD) -> list[Move]:
    """The legal moves, or none when the position cannot be judged (cards not read yet)."""
    if position is None:
        return []
    try:
        return list(legal_moves(position, variant))
    except ValueError:
        return []


class SidePanel(QWidget):
    """Hint on top (large), legal moves below it, then the events of the game."""

    moveSelected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Moves and hint")
        self.hint_title = QLabel("Hint")
        self.hint_title.setFont(big_font(18))
        self.hint_label = QLabel("\u2014")
        self.hint_label.setFont(big_font(40))
        self.hint_label.setAccessibleName("Hint move")
        self.hint_label.setStyleSheet("color: #0a8f3c;")
        self.reason_label = QLabel("")
        self.reason_label.setWordWrap(True)
        self.reason_label.setFont(big_font(18, bold=False))
        self.reason_label.setAccessibleName("Hint reason")
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(8)
        self.busy.setTextVisible(False)
        self.busy.setAccessibleName("Hint being computed")
        self.busy.hide()
        self.moves_title = QLabel("Legal moves")
        self.moves_title.setFont(big_font(18))
        self.moves_list = QListWidget()
        self.moves_list.setAccessibleName("Legal moves")
        self.moves_list.setFont(big_font(22))
        self.moves_list.currentItemChanged.connect(self._selected)
        self.events_title = QLabel("Game log")
        self.events_title.setFont(big_font(18))
        self.events_list = QListWidget()
        self.events_list.setAccessibleName("Game log events")
        self.events_list.setFont(big_font(15, bold=False))
        self.events_list.setWordWrap(True)
        self.events_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        for widget in (self.hint_title, self.hint_label, self.reason_label, self.busy, self.moves_title):
            layout.addWidget(widget)
        layout.addWidget(self.moves_list, 3)
        layout.addWidget(self.events_title)
        layout.addWidget(self.events_list, 2)
        self.moves: list[Move] = []

    # --- hint -------------------------------------------------------------------------

    def set_hint_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)

    def set_hint(self, advice: Hint | None) -> None:
        if advice is None:
            self.hint_label.setText("\u2014")
            self.reason_label.setText("")
            return
        self.hint_label.setText(str(advice.move) if advice.move is not None else "none")
        words = advice.estimate_words()
        estimate = f"\n{words}" if words else ""
        self.reason_label.setText(f"{advice.reason}{estimate}")

    # --- moves ------------------------------------------------------------------------

    def set_moves(self, moves: list[Move]) -> None:
        """Fill the list; keeps the selection when the same move is still legal."""
        current = self.selected_move()
        self.moves = moves
        self.moves_list.blockSignals(True)
        self.moves_list.clear()
        for move in moves:
            item = QListWidgetItem(_describe(move))
            item.setData(Qt.ItemDataRole.UserRole, move)
            self.moves_list.addItem(item)
        texts = [str(m) for m in moves]
        kept = current is not None and str(current) in texts
        self.moves_list.setCurrentRow(texts.index(str(current)) if kept else -1)
        self.moves_list.blockSignals(False)
        if current is not None and not kept:
            self.moveSelected.emit(None)
        self.moves_title.setText(f"Legal moves ({len(moves)})")

    def selected_move(self) -> Move | None:
        item = self.moves_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def select(self, text: str) -> bool:
        for row in range(self.moves_list.count()):
            if str(self.moves_list.item(row).data(Qt.ItemDataRole.UserRole)) == text:
                self.moves_list.setCurrentRow(row)
                return True
        return False

    def _selected(self, current: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        self.moveSelected.emit(current.data(Qt.ItemDataRole.UserRole) if current is not None else None)

    # --- events -----------------------------------------------------------------------

    def set_events(self, lines: list[str], current: int | None = None) -> None:
        """Show the game's events; ``current`` is the one to select (-1: none, at the start; None: the last)."""
        self.events_list.clear()
        self.events_list.addItems(lines)
        if current is not None and 0 <= current < len(lines):
            self.events_list.setCurrentRow(current)
        elif current == -1:
            self.events_list.scrollToTop()
        else:
            self.events_list.scrollToBottom()

    def add_event(self, line: str) -> None:
        self.events_list.addItem(line)
        self.events_list.scrollToBottom()


def _describe(move: Move) -> str:
    text = str(move)
    if text == "deal":
        return "deal  (from the stock)"
    count = getattr(move, "count", 1)
    return f"{text}   {count} card{'s' if count != 1 else ''} {text[0]} \u2192 {text[1]}"
