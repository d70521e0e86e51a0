"""A minimal stand-in for ``spider_vision.tracking``, used only while that package is missing.

It keeps the tracking contract's names and shapes (``open_source``, ``Frame``,
``Flag``, ``TrackUpdate``, ``Tracker``) so the window runs on live video and
still pictures, but it does not follow the game: every frame is read on its own
with ``spider_vision.vision.read_table``, the position shown is the latest
whole reading, no moves are logged and ``undo_last`` has nothing to take back.
Corrections are kept and written to the game log. ``gui.tracking_bridge``
picks the real package whenever it can be imported.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from spider_vision.engine import STANDARD, Card, Column, Game, Position, PositionError, NotationError, Variant
from spider_vision.gamelog import CorrectionEvent, Event, LogWriter
from spider_vision.vision import Models, TableReading, VisionError, read_table

__all__ = ["Flag", "Frame", "SourceError", "SourceLostError", "TrackUpdate", "Tracker", "open_source"]

logger = logging.getLogger(__name__)

PICTURES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
DOUBTFUL = 0.6


class SourceError(ValueError):
    """A source that cannot be opened (one player-readable line)."""


class SourceLostError(SourceError):
    """A camera that went away or a file that stopped being readable mid-run."""


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    image: np.ndarray


@dataclass(frozen=True)
class Flag:
    kind: str
    message: str
    column: int | None = None
    index: int | None = None
    frame: int | None = None


@dataclass(frozen=True)
class TrackUpdate:
    frame: Frame
    state: str
    reading: TableReading | None
    position: Position | None
    events: tuple[Event, ...]
    flags: tuple[Flag, ...]


class _CaptureSource:
    """A camera or a video file read with OpenCV."""

    def __init__(self, capture: cv2.VideoCapture, name: str, fps: float | None, camera: bool) -> None:
        self._capture = capture
        self.name = name
        self.fps = fps
        self._camera = camera
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            if self._camera:
                raise SourceLostError(f"{self.name} stopped sending pictures")
            return None
        index = self._index
        self._index += 1
        t = index / self.fps if self.fps else float(index)
        return Frame(index, t, image)

    def close(self) -> None:
        self._capture.release()

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> _CaptureSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class _FolderSource:
    """The pictures of a folder, sorted by name, one frame each."""

    files: list[Path]
    name: str
    fps: float | None = None
    _next: int = 0

    def read(self) -> Frame | None:
        while self._next < len(self.files):
            path = self.files[self._next]
            index = self._next
            self._next += 1
            image = cv2.imdecode(np.fromfile(str(path), np.uint8), cv2.IMREAD_COLOR)
            if image is not None:
                return Frame(index, float(index), image)
            logger.warning("%s is not a picture; skipped", path)
        return None

    def close(self) -> None:
        self._next = len(self.files)

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> _FolderSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_source(spec: str | int | Path, *, fps: float | None = None) -> _CaptureSource | _FolderSource:
    """A camera (int or digit string), a video file, a folder of pictures or one picture."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        number = int(spec)
        capture = cv2.VideoCapture(number)
        if not capture.isOpened():
            raise SourceError(f"camera {number} cannot be opened (is it connected and free?)")
        return _CaptureSource(capture, f"camera {number}", fps, camera=True)
    path = Path(spec)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in PICTURES)
        if not files:
            raise SourceError(f"the folder {path} holds no pictures")
        return _FolderSource(files, path.name, fps)
    if not path.is_file():
        raise SourceError(f"{path} does not exist")
    if path.suffix.lower() in PICTURES:
        return _FolderSource([path], path.name, fps)
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise SourceError(f"{path.name} is not a video OpenCV can read")
    rate = fps or capture.get(cv2.CAP_PROP_FPS) or None
    return _CaptureSource(capture, path.name, rate, camera=False)


@dataclass
class Tracker:
    """Reads every frame on its own; shows a whole position once it was read the same ``settle_frames``
    times in a row; logs corrections only."""

    models: Models
    suits: int | None = None
    variant: Variant = STANDARD
    log: LogWriter | None = None
    log_path: str | Path | None = None
    source_name: str = "video"
    position: Position | None = None
    game: Game | None = None
    history: list[Event] = field(default_factory=list)
    settle_frames: int = 3
    _fixes: dict[tuple[int, int], Card] = field(default_factory=dict)
    _candidate: str = ""
    _seen: int = 0

    def feed(self, frame: Frame) -> TrackUpdate:
        try:
            reading = read_table(frame.image, self.models, suits=self.suits, known=dict(self._fixes) or None)
        except VisionError as error:
            flag = Flag("camera", str(error), frame=frame.index)
            return TrackUpdate(frame, "moving", None, self.position, (), (flag,))
        flags = tuple(
            Flag("doubtful-card", f"the card at {'abcdefghij'[card.column]}{card.index} could not be read "
                 "with confidence", card.column, card.index, frame.index)
            for card in reading.cards
            if card.face_up and card.column is not None and card.card is None
        )
        position = self._position(reading)
        state = "moving"
        if position is not None:
            key = position.spn()
            self._seen = self._seen + 1 if key == self._candidate else 1
            self._candidate = key
            state = "settling"
            if self._seen >= self.settle_frames or self.position is None and self.settle_frames <= 1:
                state = "stable"
                self.position = position
                self._start_log(position)
        return TrackUpdate(frame, state, reading, self.position, (), flags)

    def _position(self, reading: TableReading) -> Position | None:
        if reading.position is None:
            return None
        try:
            position = Position.from_spn(reading.position, validate=False)
        except (NotationError, PositionError):
            return None
        return _with_fixes(position, self._fixes)

    def _start_log(self, position: Position) -> None:
        if self.log is None and self.log_path is not None:
            source = self.source_name if self.source_name in ("camera", "video", "images") else "video"
            self.log = LogWriter.create(self.log_path, position, variant=self.variant, source=source)

    def correct(self, column: int, index: int, card: Card) -> CorrectionEvent:
        if self.position is None:
            raise ValueError("there is no table read yet to correct")
        pile = self.position.columns[column].cards()
        if not 0 <= index < len(pile):
            raise ValueError(f"column {'abcdefghij'[column]} has no card {index}")
        was = pile[index]
        self._fixes[(column, index)] = card
        self.position = _with_fixes(self.position, {(column, index): card})
        if self.log is not None:
            event = self.log.correction(column, index, was, card, self.position)
        else:
            event = CorrectionEvent(len(self.history) + 1, 0.0, column, index, was, card, self.position.spn())
        self.history.append(event)  # type: ignore[arg-type]
        return event  # type: ignore[return-value]

    def undo_last(self) -> Event | None:
        return None

    def close(self) -> None:
        if self.log is not None:
            self.log.close()


def _with_fixes(position: Position, fixes: dict[tuple[int, int], Card]) -> Position:
    columns = dict(enumerate(position.columns))
    for (column, index), card in fixes.items():
        pile = columns[column]
        cards = list(pile.cards())
        if index < len(cards):
            cards[index] = card
            down = len(pile.down)
            columns[column] = Column(tuple(cards[:down]), tuple(cards[down:]))
    return position.with_columns(columns)
