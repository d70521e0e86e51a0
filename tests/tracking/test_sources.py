"""Frame sources: a video file, a folder of pictures, a camera index, and paths that cannot be opened."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from spider_vision.tracking import (
    CameraSource,
    Frame,
    ImageFolderSource,
    SourceError,
    SourceLostError,
    VideoSource,
    open_source,
)


def _picture(level: int) -> np.ndarray:
    image = np.full((120, 160, 3), level, np.uint8)
    image[40:80, 60:100] = 255 - level
    return image


def _video(path: Path, levels: list[int], fps: float = 5.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (160, 120))
    assert writer.isOpened()
    for level in levels:
        writer.write(_picture(level))
    writer.release()
    return path


def test_video_file_frames_in_order_with_times(tmp_path: Path) -> None:
    levels = [20, 60, 100, 140, 180]
    path = _video(tmp_path / "game.avi", levels)
    with open_source(path) as source:
        assert isinstance(source, VideoSource)
        assert source.name == "game.avi" and source.fps == pytest.approx(5.0)
        frames = list(source)
    assert [frame.index for frame in frames] == [0, 1, 2, 3, 4]
    assert [frame.t for frame in frames] == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8])
    assert [int(frame.image[5, 5].mean()) for frame in frames] == pytest.approx(levels, abs=6)
    assert all(isinstance(frame, Frame) and frame.image.shape == (120, 160, 3) for frame in frames)


def test_folder_of_pictures_in_name_order(tmp_path: Path) -> None:
    for name, level in [("b.png", 100), ("a.jpg", 50), ("c.png", 150)]:
        cv2.imwrite(str(tmp_path / name), _picture(level))
    (tmp_path / "notes.txt").write_text("not a picture")
    with open_source(tmp_path, fps=2.0) as source:
        assert isinstance(source, ImageFolderSource)
        frames = list(source)
    assert [int(frame.image[5, 5].mean()) for frame in frames] == pytest.approx([50, 100, 150], abs=3)
    assert [frame.t for frame in frames] == [0.0, 0.5, 1.0]
    assert open_source(str(tmp_path)).fps is None


def test_a_picture_that_becomes_unreadable_loses_the_source(tmp_path: Path) -> None:
    for name in ("1.png", "2.png"):
        cv2.imwrite(str(tmp_path / name), _picture(80))
    source = open_source(tmp_path)
    assert source.read() is not None
    (tmp_path / "2.png").write_bytes(b"broken")
    with pytest.raises(SourceLostError, match="2.png"):
        source.read()


@pytest.mark.parametrize("make, words", [
    (lambda p: p / "missing.mp4", "does not exist"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "holds no images"),
    (lambda p: (p / "text.mp4").write_text("no video") and p / "text.mp4", "not a video"),
])
def test_sources_that_cannot_be_opened(tmp_path: Path, make, words: str) -> None:
    path = make(tmp_path)
    with pytest.raises(SourceError, match=words) as raised:
        open_source(path)
    assert "\n" not in str(raised.value) and str(path.name) in str(raised.value)


@pytest.mark.parametrize("spec", [97, "97"])
def test_a_camera_that_is_not_there(spec) -> None:
    with pytest.raises(SourceError, match="camera 97 cannot be opened"):
        open_source(spec)
    assert issubclass(SourceLostError, SourceError) and CameraSource is not None
