"""Starts the window: ``run(source)`` makes the QApplication, shows the window and runs the event loop.

``grab`` (with ``frames``) saves a picture of the window once that many frames
have been shown (or the source ended) and quits: how docs/gui.png is made.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from gui.main_window import MainWindow
from gui.settings import APPLICATION, ORGANISATION, Settings

__all__ = ["application", "run"]


def application() -> QApplication:
    """The QApplication (made once), named so that QSettings finds the config folder."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Spider Vision")
    return app  # type: ignore[return-value]


def run(source: str | int | None = None, *, log: str | None = None, speed: float = 1.0,
        grab: Path | None = None, frames: int = 120, size: tuple[int, int] | None = None) -> int:
    """Open the window on ``source`` (None: a camera if one opens, else the sample video) or a game log."""
    app = application()
    window = MainWindow(Settings.open(), speed=speed)
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
    """Save the window to ``path`` after ``frames`` frames (or at the end of the source), then quit."""
    timer = QTimer(window)
    hinted = {"waited": 0}

    def check() -> None:
        ended = window.worker is None or window.state_label.text() == "Ended" or window.mode != "live"
        if window.frames_shown >= frames or (ended and window.loaded is not None):
            if window.advice is None and hinted["waited"] < 40:
                hinted["waited"] += 1
                return
            timer.stop()
            window.grab().save(str(path))
            window.close()
            app.quit()

    timer.timeout.connect(check)
    timer.start(250)
