"""The main window: live view and board side by side, moves and hint on the right, the banner on top.

Modes: ``live`` (a camera, video or folder followed by the tracker in a
worker), ``still`` (one picture read once), ``replay`` (a game log stepped
through with a timeline). Everything slow is in ``gui.workers``; this class
only wires signals, menus and shortcuts.
"""

from __future__ import annotations

import logging
import shutil
from datetime import datetime
from pathlib import Path
from typing import Callable, TypeVar

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QImage, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from spider_vision.engine import Card, Column, Move, NotationError, Position, PositionError, parse_cards
from spider_vision.gamelog import CorrectionEvent, Event, LogFormatError, MoveEvent, describe, read_log, replay
from spider_vision.hint import Hint
from spider_vision.vision import Models, TableReading, VisionError, calibrate, load_image, read_table

from gui.banner import WarningBanner
from gui.board_view import BoardView
from gui.control_bars import LiveBar, ReplayBar
from gui.correction_dialog import CorrectionDialog
from gui.live_view import LiveView, image_from_bgr
from gui.menus import build_menus
from gui.messages import Warning, reading_warning, warning_for
from gui.replay_model import ReplayModel, move_list_text
from gui.settings import Settings
from gui.side_panel import SidePanel, moves_of
from gui.sources import VIDEO_SUFFIXES, camera_names, cameras_present, sample_video, source_kind
from gui.style import COLUMN_LETTERS, card_label
from gui.workers import HintWorker, LiveSnapshot, LoadedModels, ModelLoader, TaskWorker, TrackingWorker

__all__ = ["MainWindow"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

DOUBTFUL = ("doubtful-card", "misread")
TRANSIENT = ("camera", "view", "reading", "framing")
"""Banners about the picture itself: a clear stable reading takes them away."""
REPLAY_INTERVAL_MS = 700


class MainWindow(QMainWindow):
    """Spider Vision's window. ``start(source)`` begins; ``None`` means camera 0, else the sample video."""

    def __init__(self, settings: Settings, *, speed: float = 1.0,
                 loader: Callable[[], Models] = Models.load) -> None:
        super().__init__()
        self.settings = settings
        self.speed = speed
        self.mode = "idle"
        self.loaded: LoadedModels | None = None
        self.worker: TrackingWorker | None = None
        self._retired: list[TrackingWorker] = []
        self.pending: tuple[str | int, str, bool] | None = None
        self.position: Position | None = None
        self.reading: TableReading | None = None
        self.advice: Hint | None = None
        self.replay: ReplayModel | None = None
        self.log_path: Path | None = None
        self.frames_shown = 0
        self.source_label_text = ""
        self._tasks: list[TaskWorker] = []
        self._position_key = ""

        self.setWindowTitle("Spider Vision")
        self.setAccessibleName("Spider Vision")
        self.banner = WarningBanner()
        self.live_view = LiveView()
        self.board_view = BoardView()
        self.side = SidePanel()
        self.side.setMinimumWidth(300)
        self.side.setMaximumWidth(420)
        self.views = QSplitter(Qt.Orientation.Horizontal)
        self.views.setAccessibleName("Picture and board")
        self.views.addWidget(self.live_view)
        self.views.addWidget(self.board_view)
        self.views.setStretchFactor(0, 4)
        self.views.setStretchFactor(1, 6)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setAccessibleName("Views and moves")
        splitter.addWidget(self.views)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 0)
        self.splitter = splitter

        self.live_bar = LiveBar()
        self.pause_button = self.live_bar.pause_button
        self.undo_button = self.live_bar.undo_button
        self.state_label = self.live_bar.state_label
        self.source_label = self.live_bar.source_label
        self.pause_button.clicked.connect(self.toggle_pause)
        self.undo_button.clicked.connect(self.undo_last)
        self.replay_bar = ReplayBar()
        self.replay_buttons = self.replay_bar.buttons
        self.slider = self.replay_bar.slider
        self.replay_label = self.replay_bar.label
        self.replay_bar.stepTo.connect(self.replay_go)
        self.replay_bar.stepBy.connect(self.replay_step)
        self.replay_bar.playToggled.connect(self.toggle_replay_play)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.live_bar)
        layout.addWidget(self.replay_bar)
        self.setCentralWidget(central)
        self.replay_bar.hide()

        self.progress = QProgressBar()
        self.progress.setAccessibleName("Loading progress")
        self.progress.setMaximumWidth(240)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)

        self.hints = HintWorker(settings.hint_seconds)
        self.hints.started_hint.connect(self._hint_started)
        self.hints.ready.connect(self._hint_ready)
        self.hints.start()

        self.replay_timer = QTimer(self)
        self.replay_timer.setInterval(REPLAY_INTERVAL_MS)
        self.replay_timer.timeout.connect(self._replay_tick)

        self.board_view.cardClicked.connect(self.ask_correction)
        self.live_view.cardClicked.connect(self.ask_correction)
        self.side.moveSelected.connect(self._move_selected)
        self.banner.dismissed.connect(lambda: self.statusBar().showMessage("Warning dismissed", 3000))
        self.camera_menu: QMenu | None = None
        self.actions_by_name = build_menus(self)
        self.set_board_below(settings.board_below)
        # the board takes the first focus, so the moves list does not select its first move by itself
        self.board_view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.board_view.setFocus()

        self.loader = ModelLoader(settings.calibration, loader)
        self.loader.progress.connect(self._load_progress)
        self.loader.loaded.connect(self._models_loaded)
        self.loader.failed.connect(self._models_failed)
        self.resize(1600, 900)
        if (geometry := settings.geometry()) is not None:
            self.restoreGeometry(geometry)

    # --- starting -------------------------------------------------------------------

    def start(self, source: str | int | None = None) -> None:
        """Load the models in the background, then open ``source`` (camera 0 or the sample if None)."""
        if source is None:
            if cameras_present():
                self.pending = (0, "camera", True)
            else:
                self.pending = (str(sample_video()), "video", False)
        else:
            self.pending = (source, source_kind(source), False)
        self.live_view.set_message("Loading the card reader...")
        self.board_view.set_message("Loading the card reader...")
        self.loader.start()

    def _load_progress(self, percent: int, text: str) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(percent)
        self.progress.setVisible(percent < 100)
        self.statusBar().showMessage(text)

    def _models_loaded(self, loaded: LoadedModels) -> None:
        self.loaded = loaded
        self.progress.hide()
        self.statusBar().showMessage("Models ready", 5000)
        if self.pending is not None:
            spec, kind, fallback = self.pending
            self.pending = None
            if fallback:
                self._open(spec, kind, fallback)
            else:
                self.open_source(spec)

    def _models_failed(self, message: str) -> None:
        self.progress.hide()
        self.banner.show_warning(Warning("models", "error", "The card reader cannot start", message,
                                         "Reinstall Spider Vision (the models/ folder is needed)."), force=True)

    # --- sources --------------------------------------------------------------------

    def open_source(self, spec: str | int) -> None:
        """Follow a camera (number), a video file or a folder of pictures; one picture is read once."""
        kind = source_kind(spec)
        if kind != "camera":
            self.settings.last_source = str(spec)
        if isinstance(spec, str) and Path(spec).is_file() and kind == "images":
            self.open_picture(spec)
            return
        if self.loaded is None:
            self.pending = (spec, kind, False)
            return
        self._open(spec, kind, False)

    def _stop_worker(self) -> None:
        if self.worker is not None:
            worker = self.worker
            self.worker = None
            for signal in (worker.snapshot, worker.corrected, worker.undone, worker.commandFailed,
                           worker.failed, worker.broke, worker.opened, worker.ended):
                signal.disconnect()
            worker.stop()
            if not worker.wait(3000):
                self._retired.append(worker)
        self.replay_timer.stop()

    def _new_log_path(self) -> Path:
        folder = self.settings.games_folder
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = folder / f"game-{stamp}.jsonl"
        number = 1
        while path.exists():
            number += 1
            path = folder / f"game-{stamp}-{number}.jsonl"
        return path

    def _open(self, spec: str | int, kind: str, fallback: bool) -> None:
        assert self.loaded is not None
        self._stop_worker()
        self._enter_mode("live")
        self._reset_game()
        self.log_path = self._new_log_path()
        worker = TrackingWorker(spec, self.loaded, suits=self.settings.suits, log_path=self.log_path, kind=kind,
                                speed=self.speed)
        worker.snapshot.connect(self._snapshot)
        worker.corrected.connect(self._corrected)
        worker.undone.connect(self._undone)
        worker.commandFailed.connect(lambda text: self.statusBar().showMessage(text, 6000))
        worker.failed.connect(lambda text: self._source_failed(text, fallback))
        worker.ended.connect(self._source_ended)
        worker.broke.connect(self._tracking_broke)
        worker.opened.connect(lambda _name, frames: self.live_bar.set_length(frames))
        self.worker = worker
        name = f"camera {spec}" if kind == "camera" else Path(str(spec)).name
        self.source_label_text = name
        self.source_label.setText(f"Source: {name}")
        self.setWindowTitle(f"Spider Vision \u2014 {name}")
        self.live_view.set_message(f"Opening {name}...")
        self.board_view.set_message("Waiting for the first clear view of the table")
        self.pause_button.setText("Pause")
        worker.start()

    def _reset_game(self) -> None:
        self.position = None
        self.reading = None
        self.advice = None
        self._position_key = ""
        self.frames_shown = 0
        self.hints.new_game()
        self.banner.clear()
        self.side.set_hint(None)
        self.side.set_moves([])
        self.side.set_events([])
        self.live_view.set_hint(None)
        self.board_view.set_hint(None)
        self.live_view.clear_reading()
        self.live_view.set_frame(None, None)
        self.board_view.marked.clear()
        self.board_view.set_position(None)
        self.live_bar.set_length(0)

    def _source_failed(self, message: str, fallback: bool) -> None:
        if fallback:
            self.statusBar().showMessage(f"No camera ({message}); playing the sample game", 8000)
            self._open(str(sample_video()), "video", False)
            return
        self.banner.show_warning(warning_for("camera", message), force=True)
        self.live_view.set_message(message)

    def _tracking_broke(self, message: str) -> None:
        self.state_label.setText("Stopped")
        self.banner.show_warning(Warning("tracking", "error", "Tracking stopped", message,
                                         "Save the game log (Ctrl+S) and start again (Ctrl+N)."), force=True)

    def _source_ended(self) -> None:
        name = self.source_label_text
        self.state_label.setText("Ended")
        self.banner.show_warning(Warning("source-end", "info", f"{name} has ended", "",
                                         "Open your camera (Ctrl+K) or another video (Ctrl+Shift+O); "
                                         "Ctrl+S saves this game's log."))

    def fill_cameras(self) -> None:
        """List the cameras in the Camera menu (when it opens)."""
        assert self.camera_menu is not None
        self.camera_menu.clear()
        cameras = camera_names()
        if not cameras:
            cameras = [(0, "Camera 0")]
        for position, (index, name) in enumerate(cameras[:9], start=1):
            action = QAction(f"{name} ({index})", self)
            action.setShortcut(QKeySequence(f"Ctrl+Alt+{position}"))
            action.triggered.connect(lambda _=False, i=index: self.open_source(i))
            self.camera_menu.addAction(action)

    def _start_folder(self) -> str:
        return self.settings.last_folder or str(Path.home())

    def _remember_folder(self, path: str) -> None:
        self.settings.last_folder = str(Path(path).parent if Path(path).is_file() else Path(path))

    def choose_video(self) -> None:
        patterns = " ".join(f"*{suffix}" for suffix in VIDEO_SUFFIXES)
        path, _ = QFileDialog.getOpenFileName(self, "Open a video of a game", self._start_folder(),
                                              f"Videos ({patterns});;All files (*)")
        if path:
            self._remember_folder(path)
            self.open_source(path)

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open a folder of pictures of a game", self._start_folder())
        if path:
            self.settings.last_folder = path
            self.open_source(path)

    def choose_picture(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a picture of a table", self._start_folder(),
                                              "Pictures (*.jpg *.jpeg *.png *.bmp *.tif *.tiff *.webp)")
        if path:
            self._remember_folder(path)
            self.open_picture(path)

    def open_picture(self, path: str) -> None:
        """Read one picture once with the vision reader (in a worker) and show what it holds."""
        self._stop_worker()
        self._enter_mode("still")
        self._reset_game()
        self.source_label_text = Path(path).name
        self.source_label.setText(f"Picture: {Path(path).name}")
        self.live_view.set_message(f"Reading {Path(path).name}...")
        self.board_view.set_message("Reading the picture...")
        if self.loaded is None:
            self.pending = (path, "images", False)
            return
        loaded = self.loaded
        suits = self.settings.suits

        def read() -> tuple[QImage, TableReading]:
            image = load_image(path)
            return image_from_bgr(image), read_table(image, loaded.models, suits=suits,
                                                     calibration=loaded.calibration)

        self._run_task(read, self._picture_read, (VisionError, OSError),
                       lambda text: Warning("picture", "error", "This picture cannot be read", text,
                                            "Try a sharper, brighter picture of the whole table."))

    def _picture_read(self, result: tuple[QImage, TableReading]) -> None:
        image, reading = result
        self.live_view.set_frame(image, reading)
        self.reading = reading
        position = None
        if reading.position is not None:
            try:
                position = Position.from_spn(reading.position, validate=False)
            except (NotationError, PositionError):
                position = None
        self._show_position(position, None, None)
        if position is None:
            self.board_view.set_message("No whole Spider position in this picture (the banner says why)")
        for text in reading.warnings:
            self.banner.show_warning(reading_warning(text))
        self.state_label.setText(f"Read in {reading.milliseconds:.0f} ms")

    @property
    def busy(self) -> bool:
        """A picture is being read or a deck calibrated."""
        return bool(self._tasks)

    def _run_task(self, function: Callable[[], T], done: Callable[[T], None],
                  errors: tuple[type[BaseException], ...], failure: Callable[[str], Warning]) -> None:
        task = TaskWorker(function, errors)
        task.done.connect(done)
        task.failed.connect(lambda text: self.banner.show_warning(failure(text), force=True))
        task.finished.connect(lambda: self._tasks.remove(task) if task in self._tasks else None)
        self._tasks.append(task)
        self.progress.setRange(0, 0)
        self.progress.show()
        task.finished.connect(self.progress.hide)
        task.start()

    # --- live updates -------------------------------------------------------------------

    def _snapshot(self, snapshot: LiveSnapshot) -> None:
        update = snapshot.update
        if self.worker is not None:
            self.worker.delivered()
        self.frames_shown += 1
        self.live_view.set_state(update.state)
        self.live_view.set_frame(snapshot.image, update.reading)
        if update.reading is not None:
            self.reading = update.reading
        self.state_label.setText(f"{update.state.capitalize()}  \u2022  frame {update.frame.index}")
        self.live_bar.set_frame(update.frame.index)
        for event in update.events:
            self.side.add_event(f"{event.seq:>3}  {describe(event)}")
            if isinstance(event, MoveEvent) and event.legal:
                self.banner.clear(("illegal-move", "blocked-deal", "ambiguous"))
        if update.position is not None:
            self._show_position(update.position, snapshot.moves, snapshot.score)
        if not self.board_view.marked:
            self.banner.clear(DOUBTFUL)  # the doubtful card was read again, corrected or moved
        flagged = False
        for flag in update.flags:
            self.banner.show_warning(warning_for(flag.kind, flag.message, flag.column, flag.index))
            flagged = True
            if flag.kind in DOUBTFUL and flag.column is not None and flag.index is not None:
                self.board_view.mark(flag.column, flag.index)
        if update.state == "stable" and update.reading is not None and not flagged:
            self.banner.clear(TRANSIENT)
            for text in update.reading.warnings:
                warning = reading_warning(text)
                if warning.key in ("view", "camera", "framing"):  # the tracker flags doubtful cards itself
                    self.banner.show_warning(warning)

    def _show_position(self, position: Position | None, moves: int | None, score: int | None) -> None:
        key = position.spn() if position is not None else ""
        self.board_view.set_position(position, moves=moves, score=score)
        if key == self._position_key:
            return
        self._position_key = key
        self.position = position
        self.side.set_moves(moves_of(position))
        self.advice = None
        self.side.set_hint(None)
        self.live_view.set_hint(None)
        self.board_view.set_hint(None)
        if position is not None:
            self.hints.request(position)

    def _hint_started(self, key: str) -> None:
        if key == self._position_key:
            self.side.set_hint_busy(True)

    def _hint_ready(self, key: str, advice: Hint) -> None:
        if key != self._position_key:
            return
        self.side.set_hint_busy(False)
        self.advice = advice
        self.side.set_hint(advice)
        self.live_view.set_hint(advice.move)
        self.board_view.set_hint(advice.move)

    def request_hint(self) -> None:
        if self.position is None:
            self.statusBar().showMessage("No position to give a hint for yet", 4000)
            return
        self.hints.request(self.position)

    def select_hint(self) -> None:
        if self.advice is not None and self.advice.move is not None:
            self.side.select(str(self.advice.move))

    def _move_selected(self, move: Move | None) -> None:
        self.live_view.set_selected(move)
        self.board_view.set_selected(move)

    def set_hint_time(self, seconds: float) -> None:
        self.settings.hint_seconds = seconds
        self.hints.new_game(seconds)
        self.request_hint()

    # --- corrections, undo, pause ---------------------------------------------------------

    def _card_at(self, column: int, index: int) -> Card | None:
        if self.position is not None:
            pile = self.position.columns[column].cards()
            if 0 <= index < len(pile):
                return pile[index]
        if self.reading is not None:
            for card in self.reading.column(column):
                if card.index == index:
                    return card.card
        return None

    def ask_correction(self, column: int, index: int) -> None:
        """A card was clicked: ask what it really is; the tracker logs it (a single picture is fixed in place)."""
        if not (self.mode == "live" and self.worker is not None) and not (self.mode == "still" and self.position):
            self.statusBar().showMessage("Cards are corrected on a table being read, not in a replay", 5000)
            return
        if self.position is not None and index < len(self.position.columns[column].down):
            self.statusBar().showMessage("That card is face down; only face-up cards can be corrected", 5000)
            return
        where = f"Column {COLUMN_LETTERS[column]}, card {index + 1} from the bottom"
        mode = self.position.mode if self.position is not None else None
        card = CorrectionDialog.ask(where, self._card_at(column, index), mode, self)
        if card is not None:
            self.correct(column, index, card)

    def correct(self, column: int, index: int, card: Card) -> None:
        if self.mode == "still" and self.position is not None:
            self._correct_picture(column, index, card)
        elif self.worker is not None:
            self.worker.correct(column, index, card)

    def _correct_picture(self, column: int, index: int, card: Card) -> None:
        """A single picture has no game log: the card is fixed in the position shown."""
        assert self.position is not None
        pile = self.position.columns[column]
        cards = list(pile.cards())
        if not len(pile.down) <= index < len(cards):
            return
        was = cards[index]
        cards[index] = card
        fixed = self.position.with_columns({column: Column(pile.down, tuple(cards[len(pile.down):]))})
        self._show_position(fixed, None, None)
        self.statusBar().showMessage(f"Corrected {COLUMN_LETTERS[column]}: {card_label(was)} is {card_label(card)} "
                                     "(a single picture keeps no game log)", 6000)
        if not any(None in c.up for c in fixed.columns):
            self.banner.clear(("unread",))

    def correct_top_card(self) -> None:
        if self.position is None:
            self.statusBar().showMessage("No table read yet", 4000)
            return
        letter, ok = QInputDialog.getItem(self, "Correct a card", "Which column's top card?",
                                          list(COLUMN_LETTERS), 0, False)
        if ok:
            column = COLUMN_LETTERS.index(letter)
            self.ask_correction(column, max(0, len(self.position.columns[column].cards()) - 1))

    def _corrected(self, event: Event, position: Position | None) -> None:
        self.side.add_event(f"{event.seq:>3}  {describe(event)}")
        self.statusBar().showMessage(f"Corrected: {describe(event)}", 6000)
        self.banner.clear(DOUBTFUL)
        if isinstance(event, CorrectionEvent):
            self.board_view.unmark(event.column, event.index)
        if position is not None:
            self._show_position(position, self.board_view.moves, self.board_view.score)

    def undo_last(self) -> None:
        if self.mode == "replay":
            self.replay_step(-1)
        elif self.worker is not None:
            self.worker.undo_last()

    def _undone(self, event: Event | None, position: Position | None) -> None:
        if event is None:
            self.statusBar().showMessage("Nothing to undo", 4000)
            return
        self.side.add_event(f"{event.seq:>3}  {describe(event)}")
        self.statusBar().showMessage(f"Undone: {describe(event)}", 6000)
        self.banner.clear(("illegal-move", "blocked-deal", "ambiguous"))
        if position is not None:
            self._show_position(position, None, None)

    def toggle_pause(self) -> None:
        if self.mode == "replay":
            self.toggle_replay_play()
            return
        if self.worker is None:
            return
        paused = not self.worker.paused
        self.worker.set_paused(paused)
        self.pause_button.setText("Resume" if paused else "Pause")
        self.state_label.setText("Paused" if paused else "Resuming")

    # --- games ------------------------------------------------------------------------

    def new_game(self) -> None:
        """Start again on the current source with a new game log."""
        if self.mode == "live" and self.worker is not None:
            self.open_source(self.worker.spec)
        elif self.mode == "replay":
            self.open_source(self.settings.last_source or str(sample_video()))
        else:
            self.open_source(str(sample_video()))

    def choose_log(self) -> None:
        folder = str(self.settings.games_folder) if self.settings.games_folder.is_dir() else self._start_folder()
        path, _ = QFileDialog.getOpenFileName(self, "Open a game log", folder,
                                              "Game logs (*.jsonl);;All files (*)")
        if path:
            self.open_log(path)

    def open_log(self, path: str | Path) -> bool:
        """Replay mode over a game log; a log that cannot be read is a banner, not a crash."""
        try:
            model = ReplayModel.load(path)
        except (LogFormatError, OSError, UnicodeDecodeError) as error:
            self.banner.show_warning(Warning("log", "error", "This game log cannot be opened", str(error),
                                             "Choose a .jsonl log written by Spider Vision."), force=True)
            return False
        self._stop_worker()
        self._enter_mode("replay")
        self._reset_game()
        self.replay = model
        self.live_view.set_message(f"Replaying {Path(path).name}: the log has no pictures")
        self.source_label_text = Path(path).name
        with QSignalBlocker(self.slider):
            self.slider.setRange(0, model.length)
            self.slider.setValue(0)
        if model.result.mismatch is not None:
            self.banner.show_warning(Warning("log", "caution", "The log stops matching the rules",
                                             str(model.result.mismatch), "The replay ends at that line."),
                                     force=True)
        self.replay_go(0)
        return True

    def replay_go(self, step: int) -> None:
        if self.mode != "replay" or self.replay is None:
            return
        model = self.replay
        before = model.step
        step = model.go(step)
        if step < before:
            self.hints.new_game()  # a session avoids positions it has seen; going back is not going round
        with QSignalBlocker(self.slider):
            self.slider.setValue(step)
        self.replay_label.setText(f"event {step} / {model.length}")
        self._show_position(model.position, model.moves, model.score)
        self.side.set_events(model.lines(), step - 1)
        entry = model.entry
        self.banner.clear(("illegal-move", "blocked-deal"))
        if entry is not None and entry.flag:
            kind = "blocked-deal" if isinstance(entry.event, MoveEvent) and entry.event.kind == "deal" \
                else "illegal-move"
            self.banner.show_warning(warning_for(kind, entry.flag), force=True)
        if step >= model.length:
            self.replay_timer.stop()
            self.replay_bar.set_playing(False)

    def replay_step(self, delta: int) -> None:
        if self.replay is not None and self.mode == "replay":
            self.replay_go(self.replay.step + delta)

    def toggle_replay_play(self) -> None:
        if self.mode != "replay" or self.replay is None:
            return
        if self.replay_timer.isActive():
            self.replay_timer.stop()
            self.replay_bar.set_playing(False)
        else:
            if self.replay.step >= self.replay.length:
                self.replay_go(0)
            self.replay_timer.start()
            self.replay_bar.set_playing(True)

    def _replay_tick(self) -> None:
        self.replay_step(1)

    def _enter_mode(self, mode: str) -> None:
        self.mode = mode
        self.live_bar.setVisible(mode != "replay")
        self.live_view.setVisible(mode != "replay")
        self.replay_bar.setVisible(mode == "replay")
        self.pause_button.setEnabled(mode == "live")
        self.undo_button.setEnabled(mode == "live")
        if mode != "replay":
            self.replay = None
            self.replay_timer.stop()

    def _current_log(self) -> Path | None:
        if self.mode == "replay" and self.replay is not None:
            return self.replay.path
        if self.log_path is not None and self.log_path.is_file():
            return self.log_path
        return None

    def save_log(self) -> None:
        current = self._current_log()
        if current is None:
            self.statusBar().showMessage("No game log yet: the table has not been read clearly", 5000)
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save the game log", str(Path(self._start_folder()) / current.name),
                                              "Game logs (*.jsonl)")
        if path:
            self.save_log_to(Path(path))

    def save_log_to(self, path: Path) -> None:
        current = self._current_log()
        if current is None:
            return
        if current.resolve() != path.resolve():
            shutil.copyfile(current, path)
        self.statusBar().showMessage(f"Saved the game log to {path}", 6000)

    def export_moves(self) -> None:
        text = self.moves_text()
        if text is None:
            self.statusBar().showMessage("No moves to export yet", 5000)
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the moves", str(Path(self._start_folder()) / "moves.txt"),
                                              "Text (*.txt)")
        if path:
            Path(path).write_text(text, encoding="utf-8")
            self.statusBar().showMessage(f"Exported the moves to {path}", 6000)

    def moves_text(self) -> str | None:
        """The move list of the current game as text (None when there is no log yet)."""
        current = self._current_log()
        if current is None:
            return None
        if self.mode == "replay" and self.replay is not None:
            entries = self.replay.result.entries
        else:
            entries = replay(read_log(current)).entries
        return move_list_text(entries, f"Spider Vision moves: {current.name}")

    # --- settings ------------------------------------------------------------------------

    def set_suits(self, suits: int | None) -> None:
        self.settings.suits = suits
        text = f"{suits} suit{'s' if suits != 1 else ''}" if suits else "automatic"
        self.statusBar().showMessage(f"Suit mode: {text} (a new game starts with it)", 5000)
        if self.mode == "live" and self.worker is not None:
            self.open_source(self.worker.spec)

    def calibrate_deck(self) -> None:
        if self.loaded is None:
            self.statusBar().showMessage("The card reader is still loading", 4000)
            return
        path, _ = QFileDialog.getOpenFileName(self, "A photo of known cards laid out face up", self._start_folder(),
                                              "Pictures (*.jpg *.jpeg *.png *.bmp)")
        if not path:
            return
        names, ok = QInputDialog.getText(self, "Calibrate your deck",
                                         "Name the cards left to right, each column top to bottom "
                                         "(for example: Ah 2h 3h 4h):")
        if ok and names.strip():
            self.calibrate_from(path, names)

    def calibrate_from(self, picture: str, names: str) -> None:
        try:
            cards = parse_cards(names.replace(" ", "").replace(",", ""))
        except NotationError as error:
            self.statusBar().showMessage(f"Cards not understood: {error}", 8000)
            return
        if any(card is None for card in cards):
            self.statusBar().showMessage("Name every card (no ??)", 8000)
            return
        assert self.loaded is not None
        models = self.loaded.models
        target = self.settings.config_folder / "deck.npz"

        def work() -> Path:
            calibration = calibrate(load_image(picture), models, [c for c in cards if c is not None])
            target.parent.mkdir(parents=True, exist_ok=True)
            calibration.save(target)
            return target

        self._run_task(work, self._calibrated, (VisionError, OSError, ValueError),
                       lambda text: Warning("calibration", "error", "The deck was not calibrated", text,
                                            "Lay the cards out face up and name each one, left to right and "
                                            "each column top to bottom."))

    def _calibrated(self, path: Path) -> None:
        from spider_vision.vision import Calibration

        self.settings.calibration = str(path)
        if self.loaded is not None:
            self.loaded = LoadedModels(self.loaded.models, Calibration.load(str(path)))
        self.statusBar().showMessage(f"Deck calibrated ({path}); it applies from the next game", 8000)

    def forget_calibration(self) -> None:
        self.settings.calibration = ""
        if self.loaded is not None:
            self.loaded = LoadedModels(self.loaded.models, None)
        self.statusBar().showMessage("Deck calibration forgotten", 4000)

    def set_board_below(self, below: bool) -> None:
        """The board beside the picture (wide screens) or below it (tall ones); remembered."""
        self.settings.board_below = bool(below)
        self.views.setOrientation(Qt.Orientation.Vertical if below else Qt.Orientation.Horizontal)

    def toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    def show_shortcuts(self) -> None:
        lines = [f"{action.shortcut().toString():<16} {name}" for name, action in self.actions_by_name.items()
                 if not action.shortcut().isEmpty()]
        box = QMessageBox(self)
        box.setWindowTitle("Keyboard shortcuts")
        box.setText("Spider Vision: keyboard shortcuts")
        box.setInformativeText("\n".join(lines))
        box.exec()

    # --- closing --------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop every worker (waits for them); the window can then be deleted."""
        self._stop_worker()
        self.hints.stop()
        self.hints.wait(10000)
        self.loader.wait(10000)
        for task in list(self._tasks):
            task.wait(10000)
        for worker in self._retired:
            worker.wait(10000)
        self.settings.save_window(self.saveGeometry(), self.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt name
        self.shutdown()
        super().closeEvent(event)
