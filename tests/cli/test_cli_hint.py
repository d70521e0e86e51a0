"""``spider-vision hint`` and ``spider-vision engine``."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from spider_vision.engine import Position, deal_position, legal_moves, parse_move

START = deal_position(12, 1)
LOST = "2c2d|Ac/4c4d|Ad/6c6d|3c/8c8d|3d/TcTd|5c/JcJd|5d/QcQd|7c/KcKd|7d/|9c/|9d - sshhcd 4"


def test_hint_prints_a_legal_move_and_its_reason(cli) -> None:
    outcome = cli("hint", START.spn(), "--movetime", "200")
    assert outcome.code == 0 and outcome.err == ""
    move_text, reason = outcome.out.split("  ")[:2]
    assert parse_move(move_text)[0] in legal_moves(START.observed())
    assert reason


def test_hint_json(cli) -> None:
    outcome = cli("hint", START.spn(), "--movetime", "200", "--json")
    answer = json.loads(outcome.out)
    assert set(answer) == {
        "move", "reason", "win_estimate", "win_chance", "lost", "samples", "wins", "undecided", "nodes", "seconds"
    }
    assert parse_move(answer["move"])[0] in legal_moves(START.observed())
    assert 0.0 <= answer["win_chance"] <= 1.0
    assert answer["lost"] is False


def test_hint_on_a_lost_game(cli) -> None:
    outcome = cli("hint", LOST, "--json")
    answer = json.loads(outcome.out)
    assert answer["move"] is None and answer["lost"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hint", "nonsense"], "SPN has four fields"),
        (["hint", START.spn(), "--movetime", "0"], "is not a whole number of milliseconds"),
        (["hint", START.spn(), "--movetime", "fast"], "is not a whole number of milliseconds"),
    ],
)
def test_hint_bad_input(cli, argv: list[str], message: str) -> None:
    outcome = cli(*argv)
    assert outcome.code == 2 and message in outcome.err
    assert len(outcome.err.strip().splitlines()) == 1


def test_engine_serves_requests_until_quit(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    requests = f"isready\nbogus\nposition {START.observed().spn()}\ngo movetime 150\nquit\nisready\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(requests))
    outcome = cli("engine")
    lines = outcome.out.splitlines()
    assert lines[0] == "readyok"
    assert lines[1].startswith("error unknown request 'bogus'")
    assert lines[-1].startswith("bestmove ")
    assert parse_move(lines[-1].split()[1])[0] in legal_moves(START.observed())
    assert "readyok" not in lines[2:]


def test_engine_as_a_process() -> None:
    position = Position.from_spn(LOST)
    done = subprocess.run(
        [sys.executable, "-m", "spider_vision", "engine"],
        input=f"position {position.spn()}\ngo movetime 50\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "bestmove none"
    assert "info reason no legal move and no stock: the game is lost" in done.stdout
