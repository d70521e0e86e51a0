"""Starts the window: ``run(source)`` makes the QApplication, shows the window and runs the event loop.

``grab`` (with ``frames``) pauses after that many frames (or at the end of
the source), waits for the hint, saves a picture of the window and quits: how
docs/gui.png is made.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget

from gui.main_window import MainWindow
from gui.settings import APPLICATION, ORGANISATION, Settings

__all__ = ["application", "run", "save_picture"]

GRAB_SIZE = (1600, 900)


def application() -> QApplication:
    """The QApplication (made once), named so that QSettings finds the config folder."""
    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Spider Vision")
    return app


def run(source: str | int | None = None, *, log: str | None = None, speed: float = 1.0,
        grab: Path | None = None, frames: int = 120, size: tuple[int, int] | None = None) -> int:
    """Open the window on ``source`` (None: a camera if one opens, else the sample video) or a game log."""
    app = application()
    window = MainWindow(Settings.open(), speed=speed)
    if size is None and grab is not None:
        size = GRAB_SIZE
    if size is not None:
        window.resize(*size)
    window.show()
    if log is not None:
        window.loader.start()
        window.open_log(log)
    else:
        window.start(source)
    if grab is not None:
        _grab_after(window, app, grab, frames)
    code = app.exec()
    return int(code)


def _grab_after(window: MainWindow, app: QApplication, path: Path, frames: int) -> None:
    """After ``frames`` frames (or the end of the source) pause, wait for the hint, save the window, quit."""
    timer = QTimer(window)
    waited = [0]

    def check() -> None:
        if window.loaded is None or window.busy:
            return
        ended = window.mode != "live" or window.state_label.text() == "Ended"
        if window.frames_shown < frames and not ended:
            return
        if window.worker is not None and not window.worker.paused:
            window.toggle_pause()
        if window.advice is None and window.position is not None and waited[0] < 60:
            waited[0] += 1
            return
        timer.stop()
        save_picture(window, path)
        window.close()
        app.quit()

    timer.timeout.connect(check)
    timer.start(250)


def save_picture(widget: QWidget, path: Path) -> bool:
    """Save a picture of ``widget``; a PNG gets 256 colours (ordered dither) to stay small for docs."""
    image = widget.grab().toImage()
    if path.suffix.lower() == ".png":
        image = image.convertToFormat(QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.OrderedDither)
    return image.save(str(path))
