"""Everything slow runs here, off the UI thread: loading the models, following the video, computing hints.

Each worker is a QThread that talks to the window only through signals
(queued into the UI thread). The tracker lives entirely in its worker thread:
corrections, undo and pause reach it as commands between two frames.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
from PySide6.QtCore import QThread, Signal
from PySide6.QtGui import QImage

from spider_vision.engine import Card, Position
from spider_vision.hint import HintLimits, HintSession
from spider_vision.tracking import SourceError, SourceLostError, Tracker, TrackUpdate, open_source
from spider_vision.vision import Calibration, CalibrationError, Models, VisionError

from gui.live_view import image_from_bgr
from gui.sources import PICTURE_SUFFIXES

__all__ = ["HintWorker", "LiveSnapshot", "LoadedModels", "ModelLoader", "TaskWorker", "TrackingWorker"]

logger = logging.getLogger(__name__)

MAX_IN_FLIGHT = 3
"""Snapshots sent but not yet drawn before the worker drops pictures that bring nothing else."""


@dataclass(frozen=True)
class LoadedModels:
    models: Models
    calibration: Calibration | None


class ModelLoader(QThread):
    """Loads the ONNX models (and the deck calibration, when one is set) with progress."""

    progress = Signal(int, str)
    loaded = Signal(object)
    failed = Signal(str)

    def __init__(self, calibration: str = "", loader: Callable[[], Models] = Models.load) -> None:
        super().__init__()
        self._calibration = calibration
        self._loader = loader

    def run(self) -> None:
        self.progress.emit(10, "Loading the card reader models...")
        try:
            models = self._loader()
        except (VisionError, OSError, RuntimeError) as error:
            self.failed.emit(f"the vision models cannot be loaded: {error}")
            return
        calibration = None
        if self._calibration:
            self.progress.emit(80, "Loading your deck calibration...")
            try:
                calibration = Calibration.load(self._calibration)
            except (CalibrationError, OSError, ValueError) as error:
                logger.warning("calibration %s not loaded: %s", self._calibration, error)
        self.progress.emit(100, "Models ready")
        self.loaded.emit(LoadedModels(models, calibration))


@dataclass(frozen=True)
class LiveSnapshot:
    """What one frame changed, ready for the UI thread: the picture as a QImage, moves and score."""

    update: TrackUpdate
    image: QImage
    moves: int | None
    score: int | None


class TrackingWorker(QThread):
    """Reads a source frame by frame, feeds the tracker and sends a snapshot of each frame.

    Videos play at their own frame rate times ``speed`` (``speed`` 0: as fast
    as they can be read); cameras and folders as fast as they are read. At the
    end of a source the worker keeps the tracker alive for corrections and
    undo until it is stopped.
    """

    snapshot = Signal(object)
    corrected = Signal(object, object)
    undone = Signal(object, object)
    commandFailed = Signal(str)
    opened = Signal(str, int)
    failed = Signal(str)
    broke = Signal(str)
    ended = Signal()

    def __init__(self, spec: str | int, loaded: LoadedModels, *, suits: int | None, log_path: Path | None,
                 kind: str, speed: float = 1.0) -> None:
        super().__init__()
        self.spec = spec
        self._loaded = loaded
        self._suits = suits
        self._log_path = log_path
        self._kind = kind
        self.speed = speed
        self._commands: queue.Queue[tuple[str, tuple[Any, ...]]] = queue.Queue()
        self._stop = threading.Event()
        self._paused = threading.Event()
        self.source_name = str(spec)
        self.frames = 0
        self.tracker: Tracker | None = None
        self._lock = threading.Lock()
        self._in_flight = 0

    # --- called from the UI thread ----------------------------------------------------

    def stop(self) -> None:
        self._stop.set()
        self._commands.put(("wake", ()))

    def set_paused(self, paused: bool) -> None:
        (self._paused.set if paused else self._paused.clear)()
        self._commands.put(("wake", ()))

    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    def delivered(self) -> None:
        """The window has drawn one snapshot (it may be sent more)."""
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)

    def correct(self, column: int, index: int, card: Card) -> None:
        self._commands.put(("correct", (column, index, card)))

    def undo_last(self) -> None:
        self._commands.put(("undo", ()))

    # --- the worker thread ------------------------------------------------------------

    def _make_tracker(self) -> Tracker:
        return Tracker(self._loaded.models, suits=self._suits, log_path=self._log_path, source_name=self._kind,
                       calibration=self._loaded.calibration)

    def run(self) -> None:
        try:
            source = open_source(self.spec)
        except SourceError as error:
            self.failed.emit(str(error))
            return
        self.source_name = source.name
        self.opened.emit(source.name, _length(self.spec, self._kind))
        tracker = self._make_tracker()
        self.tracker = tracker
        period = 1.0 / source.fps if source.fps and self._kind == "video" else 0.0
        due = time.monotonic()
        ended = False
        try:
            while not self._stop.is_set():
                self._run_commands(tracker, block=ended or self._paused.is_set())
                if ended or self._paused.is_set() or self._stop.is_set():
                    continue
                if period and self.speed > 0:
                    wait = due - time.monotonic()
                    if wait > 0 and self._stop.wait(wait):
                        break
                    due = max(due + period / self.speed, time.monotonic())
                try:
                    frame = source.read()
                except SourceLostError as error:
                    self.failed.emit(str(error))
                    ended = True
                    continue
                if frame is None:
                    ended = True
                    self.ended.emit()
                    continue
                try:
                    update = tracker.feed(frame)
                except Exception as error:  # noqa: BLE001 - the window must learn that following stopped
                    logger.exception("tracking stopped at frame %d", frame.index)
                    self.broke.emit(f"at frame {frame.index}: {error}")
                    ended = True
                    continue
                self.frames += 1
                news = bool(update.events or update.flags or update.reading is not None)
                if not news and self._in_flight >= MAX_IN_FLIGHT:
                    continue  # the window is behind: drop a picture that changes nothing else
                game = tracker.game
                with self._lock:
                    self._in_flight += 1
                self.snapshot.emit(LiveSnapshot(update, image_from_bgr(frame.image),
                                                game.moves_made if game is not None else None,
                                                game.score if game is not None else None))
        finally:
            tracker.close()
            source.close()

    def _run_commands(self, tracker: Tracker, block: bool) -> None:
        while True:
            try:
                name, args = self._commands.get(timeout=0.1) if block else self._commands.get_nowait()
            except queue.Empty:
                return
            block = False
            try:
                if name == "correct":
                    self.corrected.emit(tracker.correct(*args), tracker.position)
                elif name == "undo":
                    self.undone.emit(tracker.undo_last(), tracker.position)
            except (ValueError, LookupError) as error:
                self.commandFailed.emit(str(error))


def _length(spec: str | int, kind: str) -> int:
    """Frames in a video or pictures in a folder (0 for a camera or when unknown), for the progress bar."""
    if kind == "video":
        capture = cv2.VideoCapture(str(spec))
        try:
            return max(int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0), 0)
        finally:
            capture.release()
    if kind == "images" and not isinstance(spec, int):
        folder = Path(spec)
        if folder.is_dir():
            return sum(1 for path in folder.iterdir() if path.suffix.lower() in PICTURE_SUFFIXES)
    return 0


class HintWorker(QThread):
    """Computes hints in the background for the latest position asked; older requests are dropped.

    One ``HintSession`` serves one game (it carries its worlds from move to
    move); ``new_game`` starts another.
    """

    started_hint = Signal(str)
    ready = Signal(str, object)

    def __init__(self, seconds: float = 0.5) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        self._request: Position | None = None
        self._limits = HintLimits(movetime=seconds)
        self._session = HintSession(self._limits)

    def request(self, position: Position) -> None:
        with self._lock:
            self._request = position
        self._wake.set()

    def new_game(self, seconds: float | None = None) -> None:
        with self._lock:
            if seconds is not None:
                self._limits = HintLimits(movetime=seconds)
            self._session = HintSession(self._limits)
            self._request = None

    def stop(self) -> None:
        self._stop = True
        self._wake.set()

    def run(self) -> None:
        while not self._stop:
            self._wake.wait()
            with self._lock:
                position, self._request = self._request, None
                session = self._session
                self._wake.clear()
            if position is None or self._stop:
                continue
            key = position.spn()
            self.started_hint.emit(key)
            try:
                advice = session.hint(position)
            except Exception:  # noqa: BLE001 - a failed hint must not end the worker; the next position gets one
                logger.exception("no hint for %s", key)
                continue
            self.ready.emit(key, advice)


class TaskWorker(QThread):
    """Runs one slow function (reading a still picture, calibrating a deck) and reports its result."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, function: Callable[[], Any], errors: tuple[type[BaseException], ...] = (ValueError, OSError)) -> None:
        super().__init__()
        self._function = function
        self._errors = errors

    def run(self) -> None:
        try:
            result = self._function()
        except self._errors as error:
            self.failed.emit(str(error))
            return
        self.done.emit(result)
