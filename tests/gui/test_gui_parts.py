"""The board drawing, warnings in a player's words, settings, shortcuts and accessible names."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QWidget

from spider_vision.engine import STANDARD, Position, TableauMove, deal_position, legal_moves

from gui.board_view import BoardView
from gui.messages import warning_for
from gui.settings import Settings


def _board(qtbot) -> BoardView:
    """A board view of the size the tests draw on."""
    board = BoardView()
    qtbot.addWidget(board)
    board.resize(900, 600)
    return board


@pytest.mark.parametrize("deal, suits", [(1, 2), (5, 4), (9, 1)])
def test_board_draws_every_card_of_the_position(qtbot, deal, suits) -> None:
    board = _board(qtbot)
    position = deal_position(deal, suits).observed()
    board.set_position(position, moves=3, score=497)
    for column in range(10):
        spots = board.column_cards(column)
        assert [s.card for s in spots if s.face_up] == list(position.columns[column].up)
        assert sum(not s.face_up for s in spots) == len(position.columns[column].down)
        assert all(0 <= s.rect.left() and s.rect.right() <= board.width() for s in spots)
    board.grab()  # paints without error


def test_board_click_names_the_card(qtbot) -> None:
    board = _board(qtbot)
    board.set_position(deal_position(2, 2).observed())
    top = board.column_cards(4)[-1]
    with qtbot.waitSignal(board.cardClicked) as signal:
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=top.hit.center().toPoint())
    assert signal.args == [4, top.index]


def test_long_columns_stay_inside_the_board(qtbot) -> None:
    board = BoardView()
    qtbot.addWidget(board)
    board.resize(800, 500)
    position = Position.from_spn(
        "|KsQsJsTs9s8s7s6s5s4s3s2s/|KsQsJsTs9s8s7s6s5s4s3s2s/|/|/|/|/|/|/|/| 8 ssssss 1", validate=False)
    board.set_position(position)
    assert board.column_cards(0)[-1].rect.bottom() <= board.height()


def test_board_draws_the_hint_and_the_selection(qtbot) -> None:
    board = _board(qtbot)
    position = deal_position(3, 2).observed()
    board.set_position(position)
    move = next(m for m in legal_moves(position, STANDARD) if isinstance(m, TableauMove))
    board.set_hint(move)
    board.set_selected(move)
    plain = _board(qtbot)
    plain.set_position(position)
    assert board.grab().toImage() != plain.grab().toImage()


def test_a_doubtful_card_stays_outlined_until_another_card_lies_there(qtbot) -> None:
    board = _board(qtbot)
    position = deal_position(4, 2).observed()
    board.set_position(position)
    top = board.column_cards(0)[-1]
    board.mark(0, top.index)
    plain = board.grab().toImage()
    board.set_position(position)
    assert (0, top.index) in board.marked
    other = next(c for c in position.mode.deck() if c != top.card)
    changed = position.with_columns({0: type(position.columns[0])(position.columns[0].down, (other,))})
    board.set_position(changed)
    assert board.marked == {}
    board.set_position(position)
    assert board.grab().toImage() != plain


@pytest.mark.parametrize("kind, words", [
    ("illegal-move", "Put the cards back"),
    ("blocked-deal", "Fill every empty column"),
    ("doubtful-card", "Click it"),
    ("misread", "Click the card"),
    ("ambiguous", "Make the move again"),
    ("camera", "camera"),
])
def test_every_warning_says_what_to_do(kind, words) -> None:
    warning = warning_for(kind, "the reason given")
    assert "the reason given" in warning.text and words in warning.text
    assert warning.severity in ("info", "caution", "error")


def test_settings_are_remembered_in_the_config_folder(window, settings, tmp_path) -> None:
    window.actions_by_name["4 suits"].trigger()
    window.actions_by_name["1 s"].trigger()
    window.shutdown()
    again = Settings.open()
    assert again.suits == 4 and again.hint_seconds == 1.0
    assert again.path.is_relative_to(tmp_path / "config")
    assert again.geometry() is not None
    assert QSettings(str(again.path), QSettings.Format.IniFormat).value("game/suits") in (4, "4")


def test_every_action_has_a_shortcut_and_every_control_a_name(window) -> None:
    missing = [name for name, action in window.actions_by_name.items() if action.shortcut().isEmpty()]
    assert missing == []
    shortcuts = [action.shortcut().toString() for action in window.actions_by_name.values()]
    assert len(shortcuts) == len(set(shortcuts))
    for widget in window.findChildren(QWidget):
        if widget.metaObject().className() in ("QPushButton", "QListWidget", "QSlider", "QProgressBar") or \
                widget in (window.board_view, window.live_view, window.banner):
            assert widget.accessibleName(), widget


@pytest.mark.parametrize("text, key, words", [
    ("the 7 pile(s) found do not form the ten columns of a Spider tableau (partial view or another layout); "
     "position withheld", "view", "all ten columns"),
    ("the 9 pile(s) found take nine columns' places in a row: column a or j is empty or out of the picture, "
     "and one picture cannot tell which; position withheld", "view", "Column a or j is empty"),
    ("the picture is too dark to read (mean brightness 12 of 255)", "camera", "Improve the light"),
    ("suit mode 2 inferred from the suits seen; pass --suits to fix it", "reading", "Suit mode"),
    ("the cards are small in the picture (about 41 px tall; reads are best from 100 px and often wrong under "
     "65 px): move the camera closer or raise its resolution", "framing", "about 41 px tall"),
    ("columns c, i run off the picture, so cards past the edge cannot be seen: move the camera back or aim it "
     "at the middle of the table", "framing", "Move the camera back"),
    ("in columns c, f the next card hides the suit of 3 cards, so their suits are guesses: spread the cascade "
     "so that about a quarter of each card shows", "framing", "Spread the columns"),
])
def test_reading_warnings_in_a_players_words(text, key, words) -> None:
    from gui.messages import reading_warning

    warning = reading_warning(text)
    assert warning.key == key and words in warning.text and "--suits" not in warning.text


def test_missing_models_are_a_banner_not_a_crash(qtbot, settings) -> None:
    from spider_vision.vision import ModelMissingError

    from gui.main_window import MainWindow

    def missing():
        raise ModelMissingError("models/detector.onnx is missing")

    main = MainWindow(settings, loader=missing)
    qtbot.addWidget(main)
    main.start("sample_images/game.mp4")
    qtbot.waitUntil(lambda: main.banner.warning is not None, timeout=10_000)
    assert "cannot start" in main.banner.label.text() and "detector.onnx" in main.banner.label.text()
    assert main.worker is None
    main.shutdown()


def test_deck_calibration_is_saved_in_the_config_folder_and_used(window, qtbot, settings) -> None:
    from spider_vision.engine import card_text
    from spider_vision.vision import Models, load_image, read_table

    picture = "sample_images/start-4suit-kennard.jpg"
    reading = read_table(load_image(picture), Models.load(), suits=4)
    names = " ".join(card_text(c.card) if c.card is not None else "As" for c in reading.cards if c.face_up)
    window.start(picture)
    qtbot.waitUntil(lambda: window.loaded is not None and window.reading is not None, timeout=20_000)
    window.calibrate_from(picture, "As 2s")
    qtbot.waitUntil(lambda: window.banner.warning is not None and window.banner.warning.key == "calibration",
                    timeout=20_000)
    assert "not calibrated" in window.banner.label.text() and settings.calibration == ""
    window.calibrate_from(picture, names)
    qtbot.waitUntil(lambda: settings.calibration != "", timeout=20_000)
    assert settings.calibration == str(settings.config_folder / "deck.npz")
    assert (settings.config_folder / "deck.npz").is_file() and window.loaded.calibration is not None
    window.actions_by_name["Forget deck calibration"].trigger()
    assert settings.calibration == "" and window.loaded.calibration is None


def test_cameras_are_listed_by_index_without_their_metadata_nodes(tmp_path) -> None:
    from gui.sources import linux_cameras

    for number, name, node in ((0, "Integrated Camera", "0"), (1, "Integrated Camera", "1"), (2, "USB Cam", "0")):
        device = tmp_path / f"video{number}"
        device.mkdir()
        (device / "name").write_text(name + "\n")
        (device / "index").write_text(node + "\n")
    assert linux_cameras(tmp_path) == [(0, "Integrated Camera"), (2, "USB Cam")]
