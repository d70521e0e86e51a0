"""The camera picture with what was read drawn on top: outlines, labels, confidence, columns, the hint arrow.

The overlay is painted with QPainter over the scaled picture (not burnt into
the image) so that a click can be mapped back to the card under it:
``cardClicked(column, index)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from spider_vision.engine import Move, TableauMove
from spider_vision.vision import CardReading, TableReading

from gui.board_view import draw_arrow
from gui.style import COLUMN_LETTERS, HINT, SELECTED, big_font, card_label, confidence_colour

__all__ = ["LiveView", "OverlayCard", "image_from_bgr"]


def image_from_bgr(image: np.ndarray) -> QImage:
    """A QImage (its own copy) of a BGR uint8 picture; safe to make in a worker thread."""
    height, width = image.shape[:2]
    data = np.ascontiguousarray(image)
    return QImage(data.data, width, height, data.strides[0], QImage.Format.Format_BGR888).copy()


@dataclass(frozen=True)
class OverlayCard:
    """One card as the overlay draws it: its label, outline colour and outline in picture pixels."""

    column: int | None
    index: int
    face_up: bool
    label: str
    colour: QColor
    polygon: QPolygonF


def overlay_cards(reading: TableReading) -> list[OverlayCard]:
    """What the overlay draws for a reading, lowest cards first (later ones are drawn on top)."""
    cards = sorted(reading.cards, key=lambda c: (c.column is None, c.column or 0, c.index))
    out = []
    for card in cards:
        polygon = QPolygonF([QPointF(float(x), float(y)) for x, y in card.polygon])
        if card.face_up:
            colour = confidence_colour(card.confidence, card.card is not None)
            label = card_label(card.card)
        else:
            colour = QColor(120, 170, 255)
            label = ""
        out.append(OverlayCard(card.column, card.index, card.face_up, label, colour, polygon))
    return out


class LiveView(QWidget):
    """The picture of the table, scaled to fit, with the reading drawn over it."""

    cardClicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Live view")
        self.setAccessibleDescription("The camera picture with the cards read: click a card to correct it")
        self.setMinimumSize(480, 270)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.image: QImage | None = None
        self.reading: TableReading | None = None
        self.overlay: list[OverlayCard] = []
        self.hint: Move | None = None
        self.selected: Move | None = None
        self.message = "Starting..."
        self.zoom = True
        self.moving = False
        self._crop: QRectF | None = None

    def set_frame(self, image: QImage | None, reading: TableReading | None) -> None:
        """Show a new picture; ``reading`` None keeps the last reading (frames that were not read)."""
        self.image = image
        if reading is not None:
            self.reading = reading
            self.overlay = overlay_cards(reading)
            self._follow_cards()
        if image is None:
            self._crop = None
        self.update()

    def set_state(self, state: str) -> None:
        """While hands move over the table the last reading is drawn faintly (it may be out of date)."""
        self.moving = state != "stable"

    def set_zoom(self, zoom: bool) -> None:
        """Show only the part of the picture around the cards (True) or the whole picture."""
        self.zoom = zoom
        self.update()

    def _follow_cards(self) -> None:
        """Move the zoomed part smoothly towards the columns' bounding box (with a margin)."""
        cards = [card for card in self.overlay if card.column is not None] or self.overlay
        if not cards:
            return
        box = cards[0].polygon.boundingRect()
        for card in cards[1:]:
            box = box.united(card.polygon.boundingRect())
        margin = max(box.width(), box.height()) * 0.08
        box = box.adjusted(-margin, -margin, margin, margin)
        if self._crop is None:
            self._crop = box
            return
        old = self._crop
        blend = 0.35
        self._crop = QRectF(old.x() + (box.x() - old.x()) * blend, old.y() + (box.y() - old.y()) * blend,
                            old.width() + (box.width() - old.width()) * blend,
                            old.height() + (box.height() - old.height()) * blend)

    def view_rect(self) -> QRectF:
        """The part of the picture shown (picture pixels), shaped like the widget."""
        assert self.image is not None
        whole = QRectF(0, 0, self.image.width(), self.image.height())
        if not self.zoom or self._crop is None:
            return whole
        crop = QRectF(self._crop)
        aspect = self.width() / max(self.height(), 1)
        if crop.width() / max(crop.height(), 1e-6) < aspect:
            grow = crop.height() * aspect - crop.width()
            crop.adjust(-grow / 2, 0, grow / 2, 0)
        else:
            grow = crop.width() / aspect - crop.height()
            crop.adjust(0, -grow / 2, 0, grow / 2)
        crop.moveLeft(min(max(crop.left(), 0.0), max(whole.width() - crop.width(), 0.0)))
        crop.moveTop(min(max(crop.top(), 0.0), max(whole.height() - crop.height(), 0.0)))
        return crop.intersected(whole)

    def clear_reading(self) -> None:
        self.reading = None
        self.overlay = []
        self.update()

    def set_hint(self, move: Move | None) -> None:
        self.hint = move
        self.update()

    def set_selected(self, move: Move | None) -> None:
        self.selected = move
        self.update()

    def set_message(self, text: str) -> None:
        self.message = text
        self.update()

    # --- geometry -------------------------------------------------------------------

    def _transform(self) -> tuple[float, float, float]:
        """Scale and offset from picture pixels to widget pixels."""
        if self.image is None or self.image.isNull():
            return 1.0, 0.0, 0.0
        view = self.view_rect()
        scale = min(self.width() / view.width(), self.height() / view.height())
        dx = (self.width() - view.width() * scale) / 2 - view.x() * scale
        dy = (self.height() - view.height() * scale) / 2 - view.y() * scale
        return scale, dx, dy

    def to_widget(self, point: QPointF) -> QPointF:
        scale, dx, dy = self._transform()
        return QPointF(point.x() * scale + dx, point.y() * scale + dy)

    def to_picture(self, point: QPointF) -> QPointF:
        scale, dx, dy = self._transform()
        return QPointF((point.x() - dx) / scale, (point.y() - dy) / scale)

    def card_at(self, point: QPointF) -> OverlayCard | None:
        """The top card under a widget point (picture cards drawn later lie on top)."""
        where = self.to_picture(point)
        for card in reversed(self.overlay):
            if card.column is not None and card.polygon.containsPoint(where, Qt.FillRule.OddEvenFill):
                return card
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt name
        card = self.card_at(event.position())
        if card is not None and card.column is not None and event.button() == Qt.MouseButton.LeftButton:
            self.cardClicked.emit(card.column, card.index)
        super().mousePressEvent(event)

    # --- drawing --------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#111111"))
        if self.image is None or self.image.isNull():
            painter.setPen(QColor("white"))
            painter.setFont(big_font(max(18, self.height() * 0.05)))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            return
        scale, dx, dy = self._transform()
        view = self.view_rect()
        target = QRectF(view.x() * scale + dx, view.y() * scale + dy, view.width() * scale, view.height() * scale)
        painter.drawImage(target, self.image, view)
        painter.translate(dx, dy)
        painter.scale(scale, scale)
        painter.setOpacity(0.35 if self.moving else 1.0)
        line = 2.0 / scale
        label_px = self._label_size(scale) / scale
        for card in self.overlay:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(card.colour, line * (1.5 if card.face_up else 1.0)))
            painter.drawPolygon(card.polygon)
        painter.setFont(big_font(label_px))
        metrics = QFontMetricsF(painter.font())
        for card in self.overlay:
            if not card.face_up:
                continue
            corner = card.polygon.boundingRect().topLeft()
            box = QRectF(corner.x(), corner.y(), metrics.horizontalAdvance(card.label) + label_px * 0.4,
                         label_px * 1.2)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(card.colour)
            painter.drawRoundedRect(box, label_px * 0.2, label_px * 0.2)
            painter.setPen(QColor("black"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, card.label)
        self._draw_letters(painter, label_px)
        painter.setOpacity(1.0)
        painter.resetTransform()
        for move, colour, arrow in ((self.selected, SELECTED, False), (self.hint, HINT, True)):
            if isinstance(move, TableauMove):
                self._draw_move(painter, move, colour, arrow)

    def _label_size(self, scale: float) -> float:
        """Label height in widget pixels: about 0.4 of a card's width, at least 12 px."""
        widths = [float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in (self.reading.cards if self.reading else ())
                  if c.face_up]
        card = float(np.median(widths)) * scale if widths else 40.0
        return max(12.0, min(card * 0.42, 44.0))

    def column_tops(self) -> dict[int, QPointF]:
        """For each column seen, a point just above its first card (picture pixels)."""
        tops: dict[int, QPointF] = {}
        if self.reading is None:
            return tops
        for column in range(10):
            cards = self.reading.column(column)
            if not cards:
                continue
            quad = cards[0].quad
            top_mid = (quad[0] + quad[1]) / 2
            height = float(np.linalg.norm(quad[3] - quad[0]))
            tops[column] = QPointF(float(top_mid[0]), float(top_mid[1]) - height * 0.18)
        return tops

    def _draw_letters(self, painter: QPainter, size: float) -> None:
        painter.setFont(big_font(size))
        for column, point in self.column_tops().items():
            box = QRectF(point.x() - size * 0.7, point.y() - size * 0.7, size * 1.4, size * 1.4)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 170))
            painter.drawEllipse(box)
            painter.setPen(QColor("white"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, COLUMN_LETTERS[column])

    def _cards_of(self, column: int) -> list[CardReading]:
        return self.reading.column(column) if self.reading is not None else []

    def _draw_move(self, painter: QPainter, move: TableauMove, colour: QColor, arrow: bool) -> None:
        source = [c for c in self._cards_of(move.source) if c.face_up]
        target = self._cards_of(move.target)
        if not source:
            return
        moving = source[-move.count:]
        points = np.concatenate([c.polygon for c in moving])
        width = max(4.0, self.width() / 200)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, width))
        group = QPolygonF([self.to_widget(QPointF(float(x), float(y))) for x, y in points]).boundingRect()
        painter.drawRoundedRect(group.adjusted(-3, -3, 3, 3), 6, 6)
        if target:
            quad = target[-1].quad
            end = self.to_widget(QPointF(float(quad[:, 0].mean()), float((quad[0, 1] + 2 * quad[3, 1]) / 3)))
        else:
            top = self.column_tops().get(move.target)
            if top is None:
                return
            end = self.to_widget(QPointF(top.x(), top.y() + 40))
        if arrow:
            start = self.to_widget(QPointF(float(moving[0].quad[:, 0].mean()), float(moving[0].quad[:, 1].min())))
            start = QPointF(start.x(), start.y() + group.height() * 0.15)
            draw_arrow(painter, start, end, colour, width * 1.6)
