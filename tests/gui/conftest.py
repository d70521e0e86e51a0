"""GUI test set-up: offscreen Qt (tests/conftest.py), settings and game logs in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from PySide6.QtCore import QSettings

from gui.app import application
from gui.main_window import MainWindow
from gui.settings import Settings
from gui.sources import sample_video

HINT_SECONDS = 0.2


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings stored under ``tmp_path`` (never the user's config folder)."""
    application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "config"))
    store = Settings.open()
    store.games_folder = tmp_path / "games"
    store.hint_seconds = HINT_SECONDS
    store.suits = 2
    return store


@pytest.fixture
def window(qtbot, settings: Settings):
    """The main window, videos played as fast as they are read; its workers are stopped afterwards."""
    main = MainWindow(settings, speed=0)
    qtbot.addWidget(main)
    main.resize(1400, 800)
    main.show()
    yield main
    main.shutdown()


@pytest.fixture
def clip(tmp_path: Path):
    """Call as ``clip(first, last)``: frames ``first`` to ``last - 1`` of the sample video as a video file."""
    return lambda first, last: _cut(first, last, tmp_path / f"clip-{first}-{last}.mp4")


def _cut(first: int, last: int, path: Path) -> Path:
    capture = cv2.VideoCapture(str(sample_video()))
    fps = capture.get(cv2.CAP_PROP_FPS)
    capture.set(cv2.CAP_PROP_POS_FRAMES, first)
    ok, frame = capture.read()
    assert ok
    height, width = frame.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    for _ in range(first, last):
        writer.write(frame)
        ok, frame = capture.read()
        if not ok:
            break
    writer.release()
    capture.release()
    return path
