"""The window's menus: every action with its shortcut, as one table (``build_menus``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from gui.settings import HINT_TIMES
from gui.sources import sample_video

if TYPE_CHECKING:
    from gui.main_window import MainWindow

__all__ = ["build_menus"]


def build_menus(window: MainWindow) -> dict[str, QAction]:
    """Fill the window's menu bar; the actions by name (menu text without '&' and '...')."""
    actions: dict[str, QAction] = {}

    def add(menu: QMenu, text: str, shortcut: str, slot: Callable, checkable: bool = False) -> QAction:
        action = QAction(text, window)
        action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        window.addAction(action)
        actions[text.replace("&", "").rstrip(".")] = action
        return action

    bar = window.menuBar()
    game = bar.addMenu("&Game")
    add(game, "&New game", "Ctrl+N", window.new_game)
    add(game, "&Open game log...", "Ctrl+O", window.choose_log)
    add(game, "&Save game log as...", "Ctrl+S", window.save_log)
    add(game, "&Export moves as text...", "Ctrl+E", window.export_moves)
    game.addSeparator()
    add(game, "&Quit", "Ctrl+Q", window.close)

    source = bar.addMenu("&Source")
    window.camera_menu = source.addMenu("&Camera")
    window.camera_menu.aboutToShow.connect(window.fill_cameras)
    add(source, "Open first &camera", "Ctrl+K", lambda: window.open_source(0))
    add(source, "Open &video...", "Ctrl+Shift+O", window.choose_video)
    add(source, "Open &folder of pictures...", "Ctrl+Shift+F", window.choose_folder)
    add(source, "Open one &picture...", "Ctrl+Shift+P", window.choose_picture)
    add(source, "Play the &sample game", "Ctrl+0", lambda: window.open_source(str(sample_video())))
    source.addSeparator()
    suits = source.addMenu("S&uit mode")
    group = QActionGroup(window)
    for value, text, key in ((None, "&Automatic", "Alt+0"), (1, "&1 suit", "Alt+1"), (2, "&2 suits", "Alt+2"),
                             (4, "&4 suits", "Alt+4")):
        action = add(suits, text, key, lambda _=False, v=value: window.set_suits(v), checkable=True)
        action.setChecked(window.settings.suits == value)
        group.addAction(action)
    add(source, "Calibrate &deck...", "Ctrl+Shift+C", window.calibrate_deck)
    add(source, "Forget deck calibration", "Ctrl+Shift+X", window.forget_calibration)

    tracking = bar.addMenu("&Tracking")
    add(tracking, "&Pause or resume", "Space", window.toggle_pause)
    add(tracking, "&Undo last event", "Ctrl+Z", window.undo_last)
    add(tracking, "&Correct a card...", "C", window.correct_top_card)
    add(tracking, "&Dismiss warning", "Esc", window.banner.dismiss)

    hint = bar.addMenu("&Hint")
    add(hint, "&Hint now", "H", window.request_hint)
    add(hint, "&Select the hinted move", "Shift+H", window.select_hint)
    times = hint.addMenu("Hint &time")
    group = QActionGroup(window)
    for number, seconds in enumerate(HINT_TIMES, start=1):
        action = add(times, f"{seconds:g} s", f"Alt+Shift+{number}",
                     lambda _=False, s=seconds: window.set_hint_time(s), checkable=True)
        action.setChecked(abs(window.settings.hint_seconds - seconds) < 1e-9)
        group.addAction(action)

    replay = bar.addMenu("&Replay")
    add(replay, "&First event", "Home", lambda: window.replay_go(0))
    add(replay, "Step &back", "Left", lambda: window.replay_step(-1))
    add(replay, "Step &forward", "Right", lambda: window.replay_step(1))
    add(replay, "&Last event", "End", lambda: window.replay_go(10**9))
    add(replay, "&Play or pause", "P", window.toggle_replay_play)

    view = bar.addMenu("&View")
    zoom = add(view, "&Zoom to the cards", "Z", lambda on: window.live_view.set_zoom(bool(on)), checkable=True)
    zoom.setChecked(True)
    below = add(view, "&Board below the picture", "Ctrl+T", window.set_board_below, checkable=True)
    below.setChecked(window.settings.board_below)
    add(view, "&Full screen", "F11", window.toggle_full_screen)
    help_menu = bar.addMenu("&Help")
    add(help_menu, "&Keyboard shortcuts", "F1", window.show_shortcuts)
    return actions
