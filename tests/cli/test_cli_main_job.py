"""``spider-vision`` with no command and no display: says so in one line, tracks the sample video in the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import spider_vision.cli.main_job as main_job
from spider_vision.gamelog import MoveEvent, read_log

REPO = Path(__file__).resolve().parents[2]


def test_sample_lies_beside_the_package() -> None:
    assert main_job.sample_path() == REPO / "sample_images" / "game.mp4"
    assert main_job.sample_path().is_file()


def test_main_job_tracks_the_sample_video_with_its_flags_and_hints(cli, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    log = tmp_path / "sample.jsonl"
    monkeypatch.setattr(main_job, "log_path", lambda: log)
    outcome = cli()
    assert outcome.code == 0 and outcome.err == ""
    lines = outcome.out.splitlines()
    assert "window cannot open" in lines[0] and "terminal" in lines[0]
    assert "no display was found" in lines[0]
    events = [logged.event for logged in read_log(log).events]
    moves = [event for event in events if isinstance(event, MoveEvent)]
    truth = [json.loads(line) for line in (REPO / "sample_images" / "game.events.jsonl").read_text().splitlines()[1:]]
    assert [str(event.move) for event in moves] == [t["move"] for t in truth if t["kind"] in ("move", "deal")]
    illegal = [event for event in moves if not event.legal]
    assert len(illegal) == 2
    for event in illegal:
        assert sum(event.reason in line for line in lines) == 2  # its event line and its flag
    shown = [line for line in lines if "  [hint: " in line]
    assert len(shown) == len(moves)  # the table was at rest before the first move
    assert lines[-1].startswith("consistent:") and lines[-2] == f"game log: {log}"


def test_missing_sample_is_one_clear_line(cli, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(main_job, "sample_path", lambda: tmp_path / "nothing.mp4")
    outcome = cli()
    assert outcome.code == 1 and outcome.out == ""
    assert len(outcome.err.splitlines()) == 1
    assert "sample video" in outcome.err and "nothing.mp4" in outcome.err


@pytest.mark.parametrize("argv", [[], ["deal", "1", "--suits", "2"]])
def test_real_process(argv) -> None:
    done = subprocess.run([sys.executable, "-m", "spider_vision", *argv], capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    if not argv:
        assert "! illegal-move: wrong rank" in done.stdout and "consistent:" in done.stdout
