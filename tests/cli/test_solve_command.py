"""``spider-vision solve`` and ``spider-vision winnable``: output forms, exit codes, errors."""

from __future__ import annotations

import json

import pytest

from spider_vision.cli.main import main
from spider_vision.engine import Position, apply_move, deal_position, resolve_move
from spider_vision.solver import SolveLimits, solve

NEARLY_WON = "|KsQsJsTs9s8s7s/|6s5s4s3s2s/|As/|/|/|/|/|/|/| - sssssss 1"
NEARLY_LOST = (
    "Qs|Ks/Qs|Ks/Ts|Js/Ts|Js/8s|9s/8s|9s/6s|7s/6s|7s/5s4s3s2s2sAs|5s/As3s|4s - ssssss 1"
)


def replay(start: Position, moves: list[str]) -> Position:
    position = start
    for text in moves:
        position = apply_move(position, resolve_move(position, text)).after
    return position


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "spn"),
    [
        (["solve", NEARLY_WON, "--json"], NEARLY_WON),
        (["solve", "--deal", "1", "--suits", "1", "--json", "--time-limit", "30"],
         deal_position(1, 1).spn()),
    ],
)
def test_json_solution_replays_to_a_win(
    argv: list[str], spn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"solved", "moves", "nodes", "seconds", "exhaustive"}
    assert data["solved"] is True and data["exhaustive"] is False
    assert data["nodes"] > 0 and data["seconds"] >= 0
    assert replay(Position.from_spn(spn), data["moves"]).is_won


def test_text_form_lists_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", NEARLY_WON], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("solved in 2 moves")
    assert replay(Position.from_spn(NEARLY_WON), lines[1].split()).is_won


def test_lost_position_is_reported_unwinnable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", NEARLY_LOST, "--json"], capsys)
    data = json.loads(out)
    assert code == 1
    assert data["solved"] is False and data["exhaustive"] is True and data["moves"] == []
    code, out, _ = run(["solve", NEARLY_LOST], capsys)
    assert out.startswith("unwinnable")


def test_node_limit_gives_no_solution_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "--deal", "7", "--suits", "4", "--node-limit", "200"], capsys)
    assert code == 1
    assert out.startswith("no solution found (200 positions")
    code, out, _ = run(
        ["solve", "--deal", "7", "--suits", "4", "--node-limit", "200", "--json"], capsys
    )
    data = json.loads(out)
    assert data == {**data, "solved": False, "exhaustive": False, "nodes": 200, "moves": []}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve"], "give a position"),
        (["solve", "--deal", "3"], "--deal needs --suits"),
        (["solve", NEARLY_WON, "--deal", "3", "--suits", "1"], "not both"),
        (["solve", NEARLY_WON, "--suits", "1"], "--suits goes with --deal"),
        (["solve", "x"], "SPN has four fields"),
        (["solve", "--deal", "-1", "--suits", "4"], "deal number -1"),
        (["solve", "--deal", "3", "--suits", "3"], "suit mode '3'"),
        (["solve", deal_position(1, 4).observed().spn()], "every card known"),
        (["solve", "--deal", "3", "--suits", "1", "--time-limit", "0"], "more than 0 seconds"),
        (["solve", "--deal", "3", "--suits", "1", "--time-limit", "soon"], "not a number"),
        (["solve", "--deal", "3", "--suits", "1", "--node-limit", "0"], "at least 1"),
        (["winnable"], "--suits"),
        (["winnable", "--suits", "4", "--time-limit", "-2"], "more than 0 seconds"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = None
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize("seed", [1, 2])
def test_winnable_prints_a_deal_the_solver_wins(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["winnable", "--suits", "1", "--time-limit", "20", "--seed", str(seed)]
    code, out, _ = run(argv, capsys)
    assert code == 0
    number = int(out.strip())
    assert 0 <= number < 2**32
    start = deal_position(number, 1)
    result = solve(start, SolveLimits(seconds=20))
    assert result.solved and replay(start, list(result.moves)).is_won


def test_winnable_gives_up_after_its_attempts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["winnable", "--suits", "4", "--time-limit", "0.001", "--attempts", "2", "--seed", "3"],
        capsys,
    )
    assert code == 1 and out == ""
    assert "no deal won in 2 attempts" in err
