"""Replay mode over the bundled sample game log: stepping, the timeline, flags, the move list, hints."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from spider_vision.gamelog import MoveEvent, read_log, replay

WAIT_MS = 30_000

SAMPLE_LOG = Path(__file__).resolve().parents[2] / "sample_images" / "sample_game.jsonl"


def _entries():
    return replay(read_log(SAMPLE_LOG)).entries


def test_replay_steps_forward_and_back(window, qtbot) -> None:
    entries = _entries()
    assert window.open_log(SAMPLE_LOG)
    assert window.mode == "replay" and window.replay_bar.isVisible() and not window.live_bar.isVisible()
    start = replay(read_log(SAMPLE_LOG)).header.start
    assert window.board_view.position == start
    for expected in (1, 2, 3):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        assert window.replay.step == expected
        assert window.board_view.position == entries[expected - 1].position
        assert window.slider.value() == expected
        assert window.side.events_list.currentRow() == expected - 1
    qtbot.keyClick(window, Qt.Key.Key_Left)
    assert window.board_view.position == entries[1].position
    qtbot.keyClick(window, Qt.Key.Key_End)
    assert window.board_view.position == entries[-1].position
    assert window.replay_label.text() == f"event {len(entries)} / {len(entries)}"
    qtbot.keyClick(window, Qt.Key.Key_Home)
    assert window.board_view.position == start
    window.slider.setValue(5)
    assert window.board_view.position == entries[4].position


def test_replay_shows_the_score_and_the_rule_breaks(window, qtbot) -> None:
    entries = _entries()
    window.open_log(SAMPLE_LOG)
    flagged = next(k for k, entry in enumerate(entries) if entry.flag)
    window.replay_go(flagged + 1)
    assert window.banner.isVisible() and entries[flagged].flag in window.banner.label.text()
    moves = sum(isinstance(e.event, MoveEvent) for e in entries[: flagged + 1])
    undos = sum(getattr(e.event, "undo", None) is not None for e in entries[: flagged + 1])
    assert window.board_view.moves == moves - undos
    window.replay_go(flagged)
    assert window.banner.warning is None or window.banner.warning.key not in ("illegal-move", "blocked-deal")


def test_replay_plays_by_itself(window, qtbot) -> None:
    window.open_log(SAMPLE_LOG)
    window.replay_timer.setInterval(50)
    qtbot.keyClick(window, Qt.Key.Key_P)
    assert window.replay_buttons["play"].text() == "Pause"
    qtbot.waitUntil(lambda: window.replay.step >= 2, timeout=WAIT_MS)
    qtbot.keyClick(window, Qt.Key.Key_P)
    step = window.replay.step
    qtbot.wait(200)
    assert window.replay.step == step and window.replay_buttons["play"].text() == "Play"


def test_hint_is_computed_in_the_background_and_drawn(window, qtbot) -> None:
    window.open_log(SAMPLE_LOG)
    qtbot.waitUntil(lambda: window.advice is not None, timeout=WAIT_MS)
    advice = window.advice
    assert window.side.hint_label.text() == (str(advice.move) if advice.move is not None else "none")
    assert advice.reason in window.side.reason_label.text()
    assert advice.estimate_words() in window.side.reason_label.text()
    assert window.board_view.hint == advice.move and window.live_view.hint == advice.move
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)
    assert str(window.side.selected_move()) == str(advice.move)
    assert window.board_view.selected == window.side.selected_move()


def test_selecting_a_move_highlights_it_in_both_views(window, qtbot) -> None:
    window.open_log(SAMPLE_LOG)
    window.side.moves_list.setCurrentRow(1)
    move = window.side.moves[1]
    assert window.board_view.selected == move and window.live_view.selected == move


def test_export_lists_every_move(window, tmp_path) -> None:
    window.open_log(SAMPLE_LOG)
    text = window.moves_text()
    entries = _entries()
    lines = [line for line in text.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    moves = [e.event for e in entries if isinstance(e.event, MoveEvent)]
    assert len(lines) == len(moves)
    assert [line.split()[1] for line in lines] == [str(m.move) for m in moves]
    assert sum("illegal" in line for line in lines) == sum(not m.legal for m in moves)


def test_saving_the_log_copies_it(window, tmp_path) -> None:
    window.open_log(SAMPLE_LOG)
    target = tmp_path / "saved.jsonl"
    window.save_log_to(target)
    assert target.read_bytes() == SAMPLE_LOG.read_bytes()


def test_a_log_that_is_not_a_log_is_a_banner(window, tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert not window.open_log(bad)
    assert window.banner.isVisible() and "cannot be opened" in window.banner.label.text()
    assert window.mode != "replay"
