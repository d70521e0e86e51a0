"""A clean drawing of the reconstructed tableau: cards, face-down counts, stock, completed runs, moves, score.

Drawn with QPainter at a size that scales with the widget, so the cards stay
readable from across a table. A click on a card emits ``cardClicked(column,
index)`` (index from the bottom of the pile, face-down cards included).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from spider_vision.engine import Card, Deal, Move, Position, SuitMode, TableauMove

from gui.style import (
    CARD_BACK, CARD_FACE, COLUMN_LETTERS, DOUBT, FELT, HINT, SELECTED, SUIT_SYMBOLS, big_font, card_label, suit_colour,
)

__all__ = ["BoardView", "CardSpot", "draw_arrow"]

MIN_STEP = 0.2
STUB = 0.3
"""Height of the face-down stack (with its count) as a share of a card's height."""
"""The least share of a face-up card's height that shows under the next card (its index must stay readable)."""


@dataclass(frozen=True)
class CardSpot:
    """Where one card of the position is drawn; ``rect`` is its whole face, ``hit`` the part that shows."""

    column: int
    index: int
    card: Card | None
    face_up: bool
    rect: QRectF
    hit: QRectF


def draw_arrow(painter: QPainter, start: QPointF, end: QPointF, colour: QColor, width: float) -> None:
    """A thick arrow with an outline, visible on any background."""
    line = end - start
    length = max((line.x() ** 2 + line.y() ** 2) ** 0.5, 1e-6)
    ux, uy = line.x() / length, line.y() / length
    head = min(width * 3.2, length * 0.5)
    base = QPointF(end.x() - ux * head, end.y() - uy * head)
    normal = QPointF(-uy, ux)
    path = QPainterPath(start)
    path.lineTo(base)
    tip = QPainterPath(end)
    tip.lineTo(base + normal * head * 0.6)
    tip.lineTo(base - normal * head * 0.6)
    tip.closeSubpath()
    for pen_colour, extra in ((QColor(0, 0, 0, 200), width * 0.6), (colour, 0.0)):
        painter.setPen(QPen(pen_colour, width + extra, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        painter.setPen(QPen(pen_colour, max(extra, 1.0)))
        painter.setBrush(colour if extra == 0 else pen_colour)
        painter.drawPath(tip)


class BoardView(QWidget):
    """The tableau as the engine sees it, with the selected move and the hint drawn on it."""

    cardClicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Board")
        self.setAccessibleDescription("The reconstructed tableau: click a card to correct it")
        self.setMinimumSize(420, 320)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.position: Position | None = None
        self.moves: int | None = None
        self.score: int | None = None
        self.selected: Move | None = None
        self.hint: Move | None = None
        self.message = "Waiting for the first clear view of the table"
        self.spots: list[CardSpot] = []
        self.marked: dict[tuple[int, int], Card | None] = {}
        self._slots: list[QRectF] = []
        self._stock_rect = QRectF()

    # --- data ---------------------------------------------------------------------

    def set_position(self, position: Position | None, *, moves: int | None = None, score: int | None = None) -> None:
        self.position = position
        self.moves = moves
        self.score = score
        self.marked = {key: card for key, card in self.marked.items() if self._card(*key) == card}
        self._layout()
        self.update()

    def set_selected(self, move: Move | None) -> None:
        self.selected = move
        self.update()

    def set_hint(self, move: Move | None) -> None:
        self.hint = move
        self.update()

    def set_message(self, text: str) -> None:
        self.message = text
        self.update()

    def mark(self, column: int, index: int) -> None:
        """Outline a doubtful card (until it is corrected or another card lies there)."""
        self.marked[(column, index)] = self._card(column, index)
        self.update()

    def unmark(self, column: int, index: int) -> None:
        self.marked.pop((column, index), None)
        self.update()

    def _card(self, column: int, index: int) -> Card | None:
        if self.position is None:
            return None
        pile = self.position.columns[column].cards()
        return pile[index] if 0 <= index < len(pile) else None

    def column_cards(self, column: int) -> list[CardSpot]:
        return [spot for spot in self.spots if spot.column == column]

    # --- geometry -------------------------------------------------------------------

    def _metrics(self) -> tuple[float, float, float, float, float]:
        width, height = float(self.width()), float(self.height())
        header = max(34.0, height * 0.085)
        letters = max(24.0, height * 0.06)
        pitch = width / 10
        card_w = pitch * 0.9
        return header, letters, pitch, card_w, height

    def _layout(self) -> None:
        self.spots = []
        self._slots = []
        if self.position is None:
            return
        header, letters, pitch, card_w, height = self._metrics()
        top = header + letters
        bottom = height - 4
        need = max((STUB * bool(column.down) + 1 + MIN_STEP * max(len(column.up) - 1, 0)
                    for column in self.position.columns), default=1.0)
        card_h = min(card_w * 1.4, (bottom - top) / need)
        card_w = min(card_w, card_h / 1.4)
        stub = card_h * STUB
        self._stock_rect = QRectF(4, 4, header * 1.6, header - 8)
        for number, column in enumerate(self.position.columns):
            x = number * pitch + (pitch - card_w) / 2
            self._slots.append(QRectF(x, top, card_w, card_h))
            down = len(column.down)
            y = top
            if down:
                rect = QRectF(x, y, card_w, card_h)
                for index, card in enumerate(column.down):
                    self.spots.append(CardSpot(number, index, card, False, rect, QRectF(x, y, card_w, stub)))
                y += stub
            up = len(column.up)
            if not up:
                continue
            step = card_h * 0.3
            if up > 1:
                step = max(card_h * MIN_STEP, min(step, (bottom - y - card_h) / (up - 1)))
            for k, card in enumerate(column.up):
                rect = QRectF(x, y + k * step, card_w, card_h)
                shown = card_h if k == up - 1 else step
                self.spots.append(CardSpot(number, down + k, card, True, rect, QRectF(x, rect.y(), card_w, shown)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt name
        self._layout()
        super().resizeEvent(event)

    def spot_at(self, point: QPointF) -> CardSpot | None:
        for spot in reversed(self.spots):
            if spot.hit.contains(point):
                return spot
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        spot = self.spot_at(event.position())
        if spot is not None and event.button() == Qt.MouseButton.LeftButton:
            self.cardClicked.emit(spot.column, spot.index)
        super().mousePressEvent(event)

    # --- drawing --------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), FELT)
        if self.position is None:
            painter.setPen(QColor("white"))
            painter.setFont(big_font(max(18, self.height() * 0.05)))
            painter.drawText(self.rect().adjusted(20, 20, -20, -20),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            return
        if not self._slots:
            self._layout()
        self._draw_header(painter)
        self._draw_letters(painter)
        four = self.position.mode == SuitMode.FOUR
        for number in range(10):
            spots = self.column_cards(number)
            if not spots:
                self._draw_empty(painter, self._slots[number])
            down = [s for s in spots if not s.face_up]
            if down:
                self._draw_down(painter, down[0].rect, down[0].hit, len(down))
            for spot in spots:
                if spot.face_up:
                    self._draw_card(painter, spot, four)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(DOUBT, max(3.0, self.width() / 250), Qt.PenStyle.DashLine))
        for spot in self.spots:
            if (spot.column, spot.index) in self.marked:
                painter.drawRoundedRect(spot.hit.adjusted(-2, -2, 2, 2), 6, 6)
        if self.selected is not None:
            self._draw_move(painter, self.selected, SELECTED, arrow=False)
        if self.hint is not None:
            self._draw_move(painter, self.hint, HINT, arrow=True)

    def _draw_header(self, painter: QPainter) -> None:
        assert self.position is not None
        header, _, _, _, _ = self._metrics()
        painter.setPen(QColor("white"))
        deals = self.position.deals_left
        stock = f"Stock: {deals} deal{'s' if deals != 1 else ''}"
        runs = "".join(SUIT_SYMBOLS[s] for s in self.position.removed) or "none"
        parts = [stock, f"Runs: {runs}"]
        if self.moves is not None:
            parts.append(f"Moves: {self.moves}")
        if self.score is not None:
            parts.append(f"Score: {self.score}")
        box = QRectF(8, 0, self.width() - 16, header)
        text = "    ".join(parts)
        size = header * 0.5
        painter.setFont(big_font(size))
        while size > 9 and painter.fontMetrics().horizontalAdvance(text) > box.width():
            size *= 0.92
            painter.setFont(big_font(size))
        painter.drawText(box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        if isinstance(self.selected, Deal) or isinstance(self.hint, Deal):
            colour = HINT if isinstance(self.hint, Deal) else SELECTED
            metrics = painter.fontMetrics()
            painter.setPen(QPen(colour, 4))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(4, 4, metrics.horizontalAdvance(stock) + 12, header - 8), 6, 6)

    def _draw_letters(self, painter: QPainter) -> None:
        header, letters, pitch, _, _ = self._metrics()
        painter.setFont(big_font(letters * 0.8))
        painter.setPen(QColor("#d7f5e3"))
        for number in range(10):
            painter.drawText(QRectF(number * pitch, header, pitch, letters), Qt.AlignmentFlag.AlignCenter,
                             COLUMN_LETTERS[number])

    def _draw_empty(self, painter: QPainter, rect: QRectF) -> None:
        painter.setPen(QPen(QColor(255, 255, 255, 120), 2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, 8, 8)

    def _draw_down(self, painter: QPainter, rect: QRectF, stub: QRectF, count: int) -> None:
        radius = rect.width() * 0.07
        for depth in (2, 1, 0):
            painter.setPen(QPen(QColor("white"), 1.5))
            painter.setBrush(CARD_BACK.darker(100 + 12 * depth))
            painter.drawRoundedRect(QRectF(rect.x(), stub.y() - depth * 3, rect.width(), stub.height() + 8),
                                    radius, radius)
        painter.setPen(QColor("white"))
        painter.setFont(big_font(min(stub.height() * 0.75, rect.width() * 0.4)))
        painter.drawText(QRectF(stub.x(), stub.y(), stub.width(), stub.height()), Qt.AlignmentFlag.AlignCenter,
                         f"{count}")

    def _draw_card(self, painter: QPainter, spot: CardSpot, four: bool) -> None:
        rect = spot.rect
        radius = rect.width() * 0.07
        painter.setPen(QPen(QColor("#444444"), 1.2))
        painter.setBrush(CARD_FACE)
        painter.drawRoundedRect(rect, radius, radius)
        label = card_label(spot.card)
        painter.setPen(suit_colour(spot.card, four))
        size = min(rect.width() * 0.36, max(spot.hit.height() * 0.7, 10) if spot.hit.height() < rect.height()
                   else rect.width() * 0.36)
        painter.setFont(big_font(size))
        painter.drawText(QRectF(rect.x() + rect.width() * 0.06, rect.y(), rect.width() * 0.92, size * 1.25),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
        if spot.hit.height() >= rect.height():
            painter.setFont(big_font(rect.width() * 0.5))
            painter.drawText(QRectF(rect.x(), rect.y() + rect.height() * 0.3, rect.width(), rect.height() * 0.65),
                             Qt.AlignmentFlag.AlignCenter, label)

    def _group(self, move: TableauMove) -> tuple[QRectF | None, QRectF | None]:
        source = [s for s in self.column_cards(move.source) if s.face_up]
        moving = source[-move.count:] if move.count <= len(source) else source
        target = self.column_cards(move.target)
        group = None
        if moving:
            group = moving[0].rect.united(moving[-1].rect)
        end = target[-1].rect if target else self._slots[move.target]
        return group, end

    def _draw_move(self, painter: QPainter, move: Move, colour: QColor, arrow: bool) -> None:
        if not isinstance(move, TableauMove) or not self._slots:
            return
        group, end = self._group(move)
        width = max(4.0, self.width() / 180)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, width))
        if group is not None:
            painter.drawRoundedRect(group.adjusted(-3, -3, 3, 3), 8, 8)
        if end is not None:
            painter.drawRoundedRect(end.adjusted(-3, -3, 3, 3), 8, 8)
        if arrow and group is not None and end is not None:
            start = QPointF(group.center().x(), group.top() + min(group.height(), end.height()) * 0.35)
            finish = QPointF(end.center().x(), end.top() + end.height() * 0.55)
            draw_arrow(painter, start, finish, colour, width * 1.6)
