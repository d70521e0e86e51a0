"""``spider-vision render`` and ``render-game``: files written, bad input refused in one line."""

from __future__ import annotations

import json

import cv2
import pytest

from spider_vision.cli.main import main
from spider_vision.engine import deal_position

START = deal_position(31, 4).spn()


def test_render_writes_picture_and_truth(tmp_path) -> None:
    out = tmp_path / "still.png"
    assert main(["render", START, "--out", str(out), "--seed", "3", "--style", "proc-4",
                 "--width", "480", "--height", "270"]) == 0
    assert cv2.imread(str(out)).shape == (270, 480, 3)
    truth = json.loads(out.with_suffix(".json").read_text())
    assert truth["spn"] == START and truth["scene"]["deck"] == "proc-4" and len(truth["cards"]) == 104


def test_render_game_writes_video_and_logs(tmp_path) -> None:
    out = tmp_path / "game.avi"
    assert main(["render-game", "--deal", "5", "--suits", "1", "--out", str(out), "--moves", "1",
                 "--width", "160", "--height", "90", "--fps", "2"]) == 0
    capture = cv2.VideoCapture(str(out))
    assert capture.read()[0]
    assert (tmp_path / "game.events.jsonl").read_text().startswith('{"format": "spider-log"')
    assert (tmp_path / "game.frames.jsonl.gz").stat().st_size > 0


def _run(argv: list[str]) -> int:
    """Exit code of the command, whether argparse exits or the command returns."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["render", "5|Ks 50 - 4", "--out", "{tmp}/x.png"], "SPN"),
        (["render", START, "--out", "{tmp}/x.txt"], "picture file"),
        (["render", START, "--out", "{tmp}/x.png", "--style", "nope"], "unknown card style"),
        (["render", START, "--out", "{tmp}/missing/x.png"], "does not exist"),
        (["render", START, "--out", "{tmp}/x.png", "--width", "10"], "width"),
        (["render-game", "--deal", "1", "--suits", "3", "--out", "{tmp}/g.mp4"], "suit mode"),
        (["render-game", "--deal", "1", "--suits", "1", "--out", "{tmp}/g.mkv"], ".mp4"),
        (["render-game", "--deal", "-1", "--suits", "1", "--out", "{tmp}/g.mp4"], "--deal"),
        (["render-game", "--deal", "1", "--suits", "1", "--out", "{tmp}/g.mp4", "--illegal", "x"], "whole number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message) -> None:
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    assert _run(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
