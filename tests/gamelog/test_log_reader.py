"""The reader keeps every line before a damaged one and says where and what the damage is."""

from __future__ import annotations

from pathlib import Path

import pytest

from spider_vision.engine import SuitMode
from spider_vision.gamelog import LogFormatError, parse_log, read_log
from spider_vision.gamelog.sample import random_game, write_game

GAME = random_game(9, SuitMode.FOUR, seed=9, moves=25, undo_rate=0.1, illegal_rate=0.1)
LINES = GAME.lines()


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    write_game(GAME, path)
    log = read_log(path)
    assert log.header == GAME.header
    assert tuple(e.event for e in log.events) == GAME.events
    assert [e.line for e in log.events] == list(range(2, len(LINES) + 1))
    assert log.damage is None


def _damaged(index: int, text: str) -> list[str]:
    lines = list(LINES)
    lines[index] = text
    return lines


LAST = len(LINES) - 1
MIDDLE = 5


@pytest.mark.parametrize(
    ("lines", "line", "last", "kept", "words"),
    [
        (_damaged(LAST, LINES[LAST][:-7]), LAST + 1, True, LAST - 1, "not JSON"),
        (_damaged(LAST, LINES[LAST][:1]), LAST + 1, True, LAST - 1, "not JSON"),
        (_damaged(LAST, '{"seq": 1, "t": 0, "kind": "note", "text": "x"}'), LAST + 1, True,
         LAST - 1, "does not follow"),
        (_damaged(MIDDLE, "{garbage"), MIDDLE + 1, False, MIDDLE - 1, "not JSON"),
        (_damaged(MIDDLE, ""), MIDDLE + 1, False, MIDDLE - 1, "empty line"),
        (_damaged(MIDDLE, '{"seq": 999, "t": 0, "kind": "teleport"}'), MIDDLE + 1, False,
         MIDDLE - 1, "unknown kind"),
        (_damaged(MIDDLE, LINES[MIDDLE].replace('"kind": "', '"kind": "x')), MIDDLE + 1, False,
         MIDDLE - 1, "unknown kind"),
    ],
)
def test_damage_is_reported_at_its_line(lines, line, last, kept, words) -> None:
    log = parse_log(lines)
    assert log.damage is not None
    assert (log.damage.line, log.damage.last) == (line, last)
    assert words in log.damage.message
    assert len(log.events) == kept
    assert tuple(e.event for e in log.events) == GAME.events[:kept]
    assert str(log.damage).startswith("last line" if last else "line")


def test_bytes_cut_inside_a_character_are_a_damaged_last_line(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    data = "\n".join(LINES).encode() + b'\n{"seq": 999, "t": 1, "kind": "note", "text": "\xc3'
    path.write_bytes(data)
    log = read_log(path)
    assert log.damage is not None and log.damage.last and log.damage.line == len(LINES) + 1
    assert len(log.events) == len(GAME.events)


def test_trailing_newlines_are_no_damage() -> None:
    log = parse_log([line + "\n" for line in LINES] + ["", ""])
    assert log.damage is None and len(log.events) == len(GAME.events)


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([], "empty"),
        ([""], "empty"),
        (["hello"], "not a spider-log"),
        (['{"format": "chess-log"}'], "not a spider-log"),
        ([LINES[0][:20]], "not a spider-log"),
        ([LINES[0].replace('"version": 1', '"version": 7')], "version 7"),
        ([b"\xff\xfe"], "not UTF-8"),
    ],
)
def test_files_that_are_not_logs_are_refused(lines, words) -> None:
    with pytest.raises(LogFormatError, match=words):
        parse_log(lines)
