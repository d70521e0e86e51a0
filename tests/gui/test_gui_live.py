"""The live path: the sample video plays, the overlay and the board follow it, warnings, corrections, undo."""

from __future__ import annotations

import json

import cv2
from PySide6.QtCore import Qt

from spider_vision.engine import legal_moves
from spider_vision.gamelog import CorrectionEvent, MoveEvent, read_log
from spider_vision.vision import TableReading

from gui.correction_dialog import CorrectionDialog
from gui.live_view import overlay_cards
from gui.sources import sample_video
from gui.style import card_label

SAMPLE_EVENTS = sample_video().with_name("game.events.jsonl")
WAIT_MS = 40_000


def _illegal_moves_of_sample() -> list[dict]:
    lines = SAMPLE_EVENTS.read_text().splitlines()[1:]
    return [e for e in map(json.loads, lines) if e["kind"] == "move" and not e["legal"]]


def test_sample_loads_and_plays(window, qtbot) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.position is not None and window.frames_shown >= 20, timeout=WAIT_MS)
    assert window.mode == "live" and window.source_label.text().endswith("game.mp4")
    assert window.live_view.image is not None and window.live_view.image.width() == 960
    assert window.live_view.overlay, "the overlay draws the cards read"
    position = window.position
    assert window.board_view.position == position
    assert [str(m) for m in window.side.moves] == [str(m) for m in legal_moves(position)]
    assert window.side.moves_list.count() == len(window.side.moves)
    frames = window.frames_shown
    qtbot.waitUntil(lambda: window.frames_shown > frames + 5, timeout=WAIT_MS)
    length = int(cv2.VideoCapture(str(sample_video())).get(cv2.CAP_PROP_FRAME_COUNT))
    progress = window.live_bar.progress
    assert progress.isVisible() and progress.maximum() == length and 0 < progress.value() <= length


def test_overlay_and_board_show_the_cards_read(window, qtbot) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.position is not None and window.reading is not None, timeout=WAIT_MS)
    reading: TableReading = window.live_view.reading
    drawn = {(c.column, c.index): c.label for c in window.live_view.overlay if c.face_up}
    read = {(c.column, c.index): card_label(c.card) for c in reading.cards if c.face_up}
    assert drawn == read
    position = window.board_view.position
    for column in range(10):
        spots = window.board_view.column_cards(column)
        pile = position.columns[column]
        assert [s.card for s in spots if s.face_up] == list(pile.up)
        assert sum(not s.face_up for s in spots) == len(pile.down)
    # the board's cards are the tracker's, and the tracker's face-up cards are the overlay's where both exist
    agree = sum(drawn.get((s.column, s.index)) == card_label(s.card)
                for column in range(10) for s in window.board_view.column_cards(column) if s.face_up)
    shown = sum(1 for column in range(10) for s in window.board_view.column_cards(column) if s.face_up)
    assert agree >= 0.8 * shown


def test_overlay_colours_say_how_sure_the_read_is(window, qtbot) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.live_view.reading is not None, timeout=WAIT_MS)
    reading = window.live_view.reading
    card = next(c for c in reading.cards if c.face_up and c.card is not None)
    unsure = card.with_(card=None, confidence=0.3)
    sure = card.with_(confidence=0.99)
    colours = overlay_cards(TableReading((unsure, sure), None, (), 2, reading.image_size))
    assert colours[0].label == "?" and colours[1].label == card_label(sure.card)
    assert colours[0].colour != colours[1].colour


def test_an_illegal_move_in_a_video_raises_the_banner(window, qtbot, clip) -> None:
    illegal = _illegal_moves_of_sample()[0]
    video = clip(illegal["frame"] - 20, illegal["frame"] + 7)
    window.start(str(video))
    qtbot.waitUntil(lambda: window.banner.warning is not None and window.banner.warning.key == "illegal-move",
                    timeout=WAIT_MS)
    assert window.banner.isVisible()
    logged = [e.event for e in read_log(window.log_path).events]
    move = next(e for e in logged if isinstance(e, MoveEvent) and not e.legal)
    assert str(move.move) == illegal["move"]
    assert move.reason in window.banner.label.text()
    assert "Put the cards back" in window.banner.label.text()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.banner.isVisible()


def _face_up_spot(window):
    return next(s for column in range(10) for s in window.board_view.column_cards(column) if s.face_up)


def test_a_correction_writes_its_event(window, qtbot, monkeypatch) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.position is not None, timeout=WAIT_MS)
    window.toggle_pause()
    spot = _face_up_spot(window)
    position = window.position
    now = next(c for c in position.mode.deck() if c != spot.card and position.known_cards()[c] == 0)
    asked = []
    monkeypatch.setattr(CorrectionDialog, "ask", staticmethod(lambda *args: asked.append(args) or now))
    qtbot.mouseClick(window.board_view, Qt.MouseButton.LeftButton, pos=spot.hit.center().toPoint())
    assert asked and asked[0][1] == spot.card
    qtbot.waitUntil(lambda: any(isinstance(e.event, CorrectionEvent) for e in read_log(window.log_path).events),
                    timeout=WAIT_MS)
    event = next(e.event for e in read_log(window.log_path).events if isinstance(e.event, CorrectionEvent))
    assert (event.column, event.index, event.was, event.now) == (spot.column, spot.index, spot.card, now)
    qtbot.waitUntil(lambda: window.position.columns[spot.column].cards()[spot.index] == now, timeout=WAIT_MS)
    assert "correction" in window.side.events_list.item(window.side.events_list.count() - 1).text()


def test_clicking_a_card_in_the_live_view_asks_for_it(window, qtbot, monkeypatch) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.position is not None and bool(window.live_view.overlay), timeout=WAIT_MS)
    window.toggle_pause()
    card = next(c for c in reversed(window.live_view.overlay) if c.face_up and c.column is not None)
    asked = []
    monkeypatch.setattr(CorrectionDialog, "ask", staticmethod(lambda *args: asked.append(args)))
    centre = card.polygon.boundingRect().center()
    qtbot.mouseClick(window.live_view, Qt.MouseButton.LeftButton, pos=window.live_view.to_widget(centre).toPoint())
    assert asked and asked[0][0].startswith(f"Column {'abcdefghij'[card.column]}")


def test_undo_takes_back_the_last_move(window, qtbot, clip) -> None:
    illegal = _illegal_moves_of_sample()[0]
    window.start(str(clip(illegal["frame"] - 20, illegal["frame"] + 7)))
    qtbot.waitUntil(lambda: window.banner.warning is not None and window.banner.warning.key == "illegal-move",
                    timeout=WAIT_MS)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: any(getattr(e.event, "undo", None) is not None
                                for e in read_log(window.log_path).events), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.banner.warning is None or window.banner.warning.key != "illegal-move",
                    timeout=WAIT_MS)
    note = next(e.event for e in read_log(window.log_path).events if getattr(e.event, "undo", None) is not None)
    assert str(note.undo) == illegal["move"]
    qtbot.waitUntil(lambda: window.position is not None and window.position.spn() == note.after, timeout=WAIT_MS)


def test_pause_stops_the_frames(window, qtbot) -> None:
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.frames_shown >= 3, timeout=WAIT_MS)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert window.worker.paused and window.pause_button.text() == "Resume"
    # The frame being read when the key came may still arrive (late on a loaded machine); then none may.
    shown = [window.frames_shown]
    for _ in range(10):
        qtbot.wait(500)
        shown.append(window.frames_shown)
        if shown[-1] == shown[-2]:
            break
    assert shown[-1] == shown[-2], f"frames kept coming while paused: {shown}"
    frames = shown[-1]
    qtbot.keyClick(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window.frames_shown > frames, timeout=WAIT_MS)


def test_a_missing_camera_is_a_banner(window, qtbot) -> None:
    window.start(97)
    qtbot.waitUntil(lambda: window.banner.warning is not None, timeout=WAIT_MS)
    assert window.banner.warning.key == "camera"
    assert "Camera problem" in window.banner.label.text()


def test_one_picture_is_read_once(window, qtbot) -> None:
    picture = sample_video().with_name("start-2suit-bigindex.jpg")
    window.start(str(picture))
    qtbot.waitUntil(lambda: window.reading is not None, timeout=WAIT_MS)
    assert window.mode == "still" and window.worker is None
    drawn = {(c.column, c.index): c.label for c in window.live_view.overlay if c.face_up}
    assert drawn == {(c.column, c.index): card_label(c.card) for c in window.reading.cards if c.face_up}
    if window.reading.position is not None:
        assert window.board_view.position.spn() == window.reading.position


def test_a_folder_of_pictures_is_followed(window, qtbot, tmp_path) -> None:
    illegal = _illegal_moves_of_sample()[0]
    folder = tmp_path / "pictures"
    folder.mkdir()
    capture = cv2.VideoCapture(str(sample_video()))
    for name, frame in (("1.png", illegal["frame"] - 16), ("2.png", illegal["frame"] + 2)):
        capture.set(cv2.CAP_PROP_POS_FRAMES, frame)
        ok, image = capture.read()
        assert ok and cv2.imwrite(str(folder / name), image)
    window.start(str(folder))
    qtbot.waitUntil(lambda: window.banner.warning is not None and window.banner.warning.key == "illegal-move",
                    timeout=WAIT_MS)
    moves = [e.event for e in read_log(window.log_path).events if isinstance(e.event, MoveEvent)]
    assert [str(m.move) for m in moves] == [illegal["move"]]


def test_a_doubtful_card_keeps_its_banner_and_outline_until_it_is_settled(window) -> None:
    import numpy as np

    from spider_vision.engine import deal_position
    from spider_vision.tracking import Flag, Frame, TrackUpdate

    from gui.live_view import image_from_bgr
    from gui.workers import LiveSnapshot

    position = deal_position(6, 2).observed()
    image = np.full((270, 480, 3), 90, np.uint8)
    index = len(position.columns[2].cards()) - 1

    def feed(number: int, flags: tuple = (), where=position) -> None:
        update = TrackUpdate(Frame(number, number / 8, image), "stable", None, where, (), flags)
        window._snapshot(LiveSnapshot(update, image_from_bgr(image), 0, 500))

    feed(0)
    feed(1, (Flag("doubtful-card", "the card at c could be 7h or 7s", 2, index, 1),))
    assert window.banner.warning.key == "doubtful-card" and (2, index) in window.board_view.marked
    assert "7h or 7s" in window.banner.label.text() and "Click it" in window.banner.label.text()
    feed(2)
    assert window.banner.warning.key == "doubtful-card", "the banner stays while the card is in doubt"
    other = next(c for c in position.mode.deck() if c != position.columns[2].up[-1])
    changed = position.with_columns({2: type(position.columns[2])(position.columns[2].down, (other,))})
    feed(3, where=changed)
    assert window.banner.warning is None and window.board_view.marked == {}


def test_a_card_of_a_single_picture_is_corrected_in_place(window, qtbot, monkeypatch) -> None:
    picture = sample_video().with_name("late-1suit-blur.jpg")
    window.start(str(picture))
    qtbot.waitUntil(lambda: window.reading is not None, timeout=WAIT_MS)
    assert window.position is not None, "this sample is read as a whole position"
    spot = _face_up_spot(window)
    now = next(c for c in window.position.mode.deck() if c != spot.card)
    monkeypatch.setattr(CorrectionDialog, "ask", staticmethod(lambda *args: now))
    qtbot.mouseClick(window.board_view, Qt.MouseButton.LeftButton, pos=spot.hit.center().toPoint())
    assert window.position.columns[spot.column].cards()[spot.index] == now
    assert window.board_view.position == window.position


def test_a_tracker_failure_is_a_banner(window, qtbot, monkeypatch) -> None:
    from spider_vision.tracking import Tracker

    def broken(self, frame):
        raise RuntimeError("the reader fell over")

    monkeypatch.setattr(Tracker, "feed", broken)
    window.start(str(sample_video()))
    qtbot.waitUntil(lambda: window.banner.warning is not None and window.banner.warning.key == "tracking",
                    timeout=WAIT_MS)
    assert "fell over" in window.banner.label.text() and window.state_label.text() == "Stopped"
