"""``replay LOG``: each event printed with its line and position; exit codes for good and bad logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spider_vision.engine import SuitMode, Variant
from spider_vision.gamelog import read_log, replay
from spider_vision.gamelog.sample import random_game, write_game

GAMES = {
    "two suits, undo and rule breaks": random_game(31, SuitMode.TWO, seed=31, moves=40,
                                                   undo_rate=0.1, illegal_rate=0.1),
    "camera, four suits": random_game(32, SuitMode.FOUR, seed=32, moves=30, observed=True),
    "one suit, manual removal": random_game(33, SuitMode.ONE, seed=33, moves=150,
                                            variant=Variant(manual_removal=True)),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_consistent_log_prints_every_event_and_exits_0(cli, tmp_path: Path, name: str) -> None:
    game = GAMES[name]
    path = tmp_path / "game.jsonl"
    write_game(game, path)
    outcome = cli("replay", str(path))
    assert outcome.code == 0 and outcome.err == ""
    lines = outcome.out.splitlines()
    assert len(lines) == len(game.events) + 1
    entries = replay(read_log(path)).entries
    for number, (line, entry) in enumerate(zip(lines, entries), start=2):
        assert line.startswith(f"line {number:>3}  seq {entry.event.seq:>3}")
        assert line.endswith("->  " + entry.position.spn())
        assert line.rstrip().endswith(entry.position.spn())
        assert ("  !  ->" in line) == (not getattr(entry.event, "legal", True))
    assert lines[-1].startswith(f"consistent: {len(game.events)} events")


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


GAME = GAMES["two suits, undo and rule breaks"]


def test_damaged_last_line_warns_and_exits_0(cli, tmp_path: Path) -> None:
    lines = GAME.lines()
    lines[-1] = lines[-1][:-15]
    path = _write(tmp_path, lines)
    outcome = cli("replay", str(path))
    assert outcome.code == 0
    assert len(outcome.err.splitlines()) == 1
    assert "warning" in outcome.err and f"last line {len(lines)}" in outcome.err
    assert len(outcome.out.splitlines()) == len(GAME.events) - 1 + 1


def test_damaged_last_line_after_an_inconsistency_still_exits_1(cli, tmp_path: Path) -> None:
    lines = GAME.lines()
    data = json.loads(lines[1])
    data["after"] = data["after"].replace("|", "||", 1)
    lines[1] = json.dumps(data)
    lines[-1] = lines[-1][:-15]
    outcome = cli("replay", str(_write(tmp_path, lines)))
    assert outcome.code == 1
    assert "line 2:" in outcome.err and "warning" in outcome.err


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        ("corrupt middle line", 4),
        ("wrong after", 2),
        ("illegal marked legal", None),
    ],
)
def test_inconsistent_log_exits_1_naming_the_line(cli, tmp_path: Path, damage, line) -> None:
    lines = GAME.lines()
    if damage == "corrupt middle line":
        lines[3] = lines[3][:10]
    elif damage == "wrong after":
        data = json.loads(lines[1])
        data["after"] = GAME.header.start.spn()
        lines[1] = json.dumps(data)
    else:
        index = next(i for i, text in enumerate(lines) if '"legal": false' in text)
        data = json.loads(lines[index])
        data["legal"] = True
        del data["reason"]
        lines[index] = json.dumps(data)
        line = index + 1
    outcome = cli("replay", str(_write(tmp_path, lines)))
    assert outcome.code == 1
    assert outcome.err.startswith(f"spider-vision: {tmp_path / 'game.jsonl'}: line {line}: ")
    assert len(outcome.err.splitlines()) == 1
    assert len(outcome.out.splitlines()) == line - 2
