"""The bars under the views: tracking controls (live) and the replay timeline (replay mode).

Plain widgets with signals; the window connects them to what they do.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSlider, QWidget

from gui.style import big_font

__all__ = ["LiveBar", "ReplayBar", "PLAY", "PAUSE"]

PLAY = "Play"
PAUSE = "Pause"


class LiveBar(QWidget):
    """Pause/resume, undo, the tracking state and the source's name."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Tracking controls")
        self.pause_button = QPushButton("Pause")
        self.pause_button.setAccessibleName("Pause or resume tracking")
        self.pause_button.setToolTip("Pause or resume tracking (Space)")
        self.undo_button = QPushButton("Undo last")
        self.undo_button.setAccessibleName("Undo the last accepted event")
        self.undo_button.setToolTip("Undo the last accepted move (Ctrl+Z)")
        self.state_label = QLabel("")
        self.state_label.setAccessibleName("Tracking state")
        self.state_label.setFont(big_font(18))
        self.source_label = QLabel("")
        self.source_label.setAccessibleName("Source")
        self.source_label.setFont(big_font(16, bold=False))
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Position in the video")
        self.progress.setFormat("%v / %m")
        self.progress.setMaximumWidth(260)
        self.progress.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for button in (self.pause_button, self.undo_button):
            button.setFont(big_font(16))
            layout.addWidget(button)
        layout.addWidget(self.state_label)
        layout.addStretch(1)
        layout.addWidget(self.progress)
        layout.addWidget(self.source_label)

    def set_length(self, frames: int) -> None:
        """How many frames the source has (0: a camera, no progress to show)."""
        self.progress.setRange(0, max(frames, 1))
        self.progress.setValue(0)
        self.progress.setVisible(frames > 0)

    def set_frame(self, index: int) -> None:
        if self.progress.isVisible():
            self.progress.setValue(min(index + 1, self.progress.maximum()))


class ReplayBar(QWidget):
    """Step buttons, play/pause and the timeline slider; ``stepTo`` and ``stepBy`` say where to go."""

    stepTo = Signal(int)
    stepBy = Signal(int)
    playToggled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Replay controls")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, QPushButton] = {}
        for key, text, name, slot in (
            ("first", "|\u25c0", "First event (Home)", lambda: self.stepTo.emit(0)),
            ("back", "\u25c0", "Step back (Left)", lambda: self.stepBy.emit(-1)),
            ("play", PLAY, "Play or pause the replay (P)", self.playToggled.emit),
            ("forward", "\u25b6", "Step forward (Right)", lambda: self.stepBy.emit(1)),
            ("last", "\u25b6|", "Last event (End)", lambda: self.stepTo.emit(10**9)),
        ):
            button = QPushButton(text)
            button.setAccessibleName(name)
            button.setToolTip(name)
            button.setFont(big_font(18))
            button.clicked.connect(slot)
            layout.addWidget(button)
            self.buttons[key] = button
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setAccessibleName("Replay timeline")
        self.slider.valueChanged.connect(self.stepTo.emit)
        layout.addWidget(self.slider, 1)
        self.label = QLabel("")
        self.label.setAccessibleName("Replay step")
        self.label.setFont(big_font(16))
        layout.addWidget(self.label)

    def set_playing(self, playing: bool) -> None:
        self.buttons["play"].setText(PAUSE if playing else PLAY)
