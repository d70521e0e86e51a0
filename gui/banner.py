"""The warning banner: one problem at a time, in large type, coloured by how serious it is."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from gui.messages import SEVERITY_ORDER, Warning
from gui.style import SEVERITY_COLOURS, big_font

__all__ = ["WarningBanner"]


class WarningBanner(QWidget):
    """Shows the most serious current warning; Esc or the close button dismisses it."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Warning")
        self.setAutoFillBackground(True)
        self.warning: Warning | None = None
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setFont(big_font(26))
        self.label.setAccessibleName("Warning text")
        self.close_button = QPushButton("\u2715", self)
        self.close_button.setAccessibleName("Dismiss warning")
        self.close_button.setToolTip("Dismiss (Esc)")
        self.close_button.setFlat(True)
        self.close_button.setFont(big_font(22))
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 8, 8)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    @property
    def text(self) -> str:
        """The warning shown (or set to show once the window is), else an empty string."""
        parent = self.parentWidget()
        shown = self.isVisibleTo(parent) if parent is not None else self.isVisible()
        return self.label.text() if shown or self.warning else ""

    def show_warning(self, warning: Warning, *, force: bool = False) -> None:
        """Show ``warning`` unless a more serious one is showing (``force`` replaces it anyway)."""
        if self.warning is not None and not force:
            if SEVERITY_ORDER.index(warning.severity) < SEVERITY_ORDER.index(self.warning.severity):
                return
        self.warning = warning
        colour = SEVERITY_COLOURS[warning.severity]
        self.setStyleSheet(f"background-color: {colour.name()}; color: white;")
        self.label.setText(warning.text)
        self.setAccessibleDescription(warning.text)
        self.show()

    def clear(self, keys: tuple[str, ...] | None = None) -> None:
        """Hide the banner (only when it shows one of ``keys``, if given)."""
        if self.warning is None or (keys is not None and self.warning.key not in keys):
            return
        self.warning = None
        self.label.setText("")
        self.hide()

    def dismiss(self) -> None:
        self.clear()
        self.dismissed.emit()
