"""Where frames come from: a camera by index, a video file or a folder of images, behind one interface.

``open_source`` picks the kind from its argument; every source yields ``Frame``s
(index, time, BGR picture), says ``None`` at its end and raises
``SourceLostError`` when it fails after it was opened (a camera unplugged, an
image that can no longer be read). Opening failures are ``SourceError``s with
one player-readable line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol, runtime_checkable

import cv2
import numpy as np

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraSource",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "SourceError",
    "SourceLostError",
    "VideoSource",
    "open_source",
]

logger = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""Files of a folder source that are read as frames (case-insensitive)."""

CAMERA_RETRIES = 10
"""Failed reads in a row after which a camera counts as lost."""


class SourceError(ValueError):
    """A source that cannot be opened; the message is one line a player understands."""


class SourceLostError(SourceError):
    """A source that failed after it was opened: a camera gone, a file no longer readable."""


@dataclass(frozen=True)
class Frame:
    """One picture of the table: its number in the source, its time and its BGR pixels."""

    index: int
    t: float
    image: np.ndarray


@runtime_checkable
class FrameSource(Protocol):
    """An iterable of frames that is also a context manager."""

    name: str
    fps: float | None

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __iter__(self) -> Iterator[Frame]: ...

    def __enter__(self) -> FrameSource: ...

    def __exit__(self, *exc: object) -> None: ...


class _Source:
    """What all sources share: iteration and the context manager."""

    name: str = ""
    fps: float | None = None

    def read(self) -> Frame | None:  # pragma: no cover - every source overrides it
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __enter__(self) -> _Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class VideoSource(_Source):
    """A video file read with OpenCV; frame times follow its frame rate (``fps`` overrides it)."""

    def __init__(self, path: str | Path, *, fps: float | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.name
        if not self.path.exists():
            raise SourceError(f"'{self.path}' does not exist")
        if not self.path.is_file():
            raise SourceError(f"'{self.path}' is not a file")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"'{self.path}' is not a video OpenCV can read")
        rate = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps or (rate if 0.0 < rate < 1000.0 else None)
        self._next = 0
        self._first = self._grab()
        if self._first is None:
            self._capture.release()
            raise SourceError(f"'{self.path}' holds no readable frame")

    def _grab(self) -> np.ndarray | None:
        ok, image = self._capture.read()
        return image if ok and image is not None else None

    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end of the file."""
        image: np.ndarray | None
        if self._first is not None:
            image, self._first = self._first, None
        else:
            if not self._capture.isOpened():
                return None
            image = self._grab()
            if image is None:
                return None
        index = self._next
        self._next += 1
        return Frame(index, index / self.fps if self.fps else float(index), image)

    def close(self) -> None:
        self._capture.release()


class CameraSource(_Source):
    """A camera by OpenCV index; a camera that stops giving frames raises ``SourceLostError``."""

    def __init__(self, index: int, *, fps: float | None = None) -> None:
        import time

        self._time = time.monotonic
        self.index = index
        self.name = f"camera {index}"
        self._capture = _quietly(lambda: cv2.VideoCapture(index))
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"camera {index} cannot be opened (is it connected and free?)")
        rate = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps or (rate if 0.0 < rate < 1000.0 else None)
        self._next = 0
        self._start: float | None = None

    def read(self) -> Frame | None:
        """The next frame; ``SourceLostError`` when the camera stops answering."""
        for _ in range(CAMERA_RETRIES):
            ok, image = self._capture.read()
            if ok and image is not None:
                now = self._time()
                if self._start is None:
                    self._start = now
                index = self._next
                self._next += 1
                return Frame(index, now - self._start, image)
        raise SourceLostError(f"camera {self.index} stopped giving pictures (disconnected?)")

    def close(self) -> None:
        self._capture.release()


class ImageFolderSource(_Source):
    """The pictures of a folder in name order; frame times step by ``1 / fps`` (one second without it)."""

    def __init__(self, path: str | Path, *, fps: float | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.name or str(self.path)
        self.fps = fps
        if not self.path.is_dir():
            raise SourceError(f"'{self.path}' is not a folder")
        self._files = sorted(p for p in self.path.iterdir()
                             if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError(f"'{self.path}' holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self._next = 0

    def read(self) -> Frame | None:
        """The next picture; ``SourceLostError`` when a listed file cannot be read any more."""
        if self._next >= len(self._files):
            return None
        path = self._files[self._next]
        try:
            data = np.fromfile(str(path), np.uint8)
        except OSError as error:
            raise SourceLostError(f"cannot read '{path}': {error.strerror or error}") from None
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise SourceLostError(f"'{path}' is not an image OpenCV can read")
        index = self._next
        self._next += 1
        return Frame(index, index / self.fps if self.fps else float(index), image)

    def close(self) -> None:
        self._next = len(self._files)


def _quietly(make):  # type: ignore[no-untyped-def]
    """Run ``make`` with OpenCV's own warnings silenced (a missing camera is reported by us)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        return make()
    finally:
        cv2.utils.logging.setLogLevel(level)


def open_source(spec: str | int | Path, *, fps: float | None = None) -> FrameSource:
    """A camera for an int or a digit string, a folder of images for a folder, else a video file."""
    if isinstance(spec, bool):
        raise SourceError(f"{spec!r} is not a source")
    if isinstance(spec, int):
        return CameraSource(spec, fps=fps)
    text = str(spec)
    if isinstance(spec, str) and text.strip().isdigit() and not Path(text).exists():
        return CameraSource(int(text), fps=fps)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path, fps=fps)
    return VideoSource(path, fps=fps)
