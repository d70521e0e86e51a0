"""``spider-vision`` with no command and no display: says so in one line, replays the sample in the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import spider_vision.cli.main_job as main_job
from spider_vision.gamelog import MoveEvent, describe, read_log

REPO = Path(__file__).resolve().parents[2]


def test_sample_lies_beside_the_package() -> None:
    assert main_job.sample_path() == REPO / "sample_images" / "sample_game.jsonl"
    assert main_job.sample_path().is_file()


def test_main_job_replays_the_sample_with_its_flags_and_hints(cli, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    outcome = cli()
    assert outcome.code == 0 and outcome.err == ""
    lines = outcome.out.splitlines()
    assert "window cannot open" in lines[0] and "terminal" in lines[0]
    assert "no display was found" in lines[0]
    events = [logged.event for logged in read_log(main_job.sample_path()).events]
    illegal = [e for e in events if isinstance(e, MoveEvent) and not e.legal]
    assert len(illegal) == 2
    for event in illegal:
        assert sum(event.reason in line for line in lines) >= 2  # its event line and its flag
    for line, event in zip(lines[1:], events):
        shown = line.split("  [hint: ")[0]
        assert shown.endswith((describe(event), describe(event) + "  !"))
        assert ("  [hint: " in line) == isinstance(event, MoveEvent)
    assert lines[-1].startswith("consistent:")


def test_missing_sample_is_one_clear_line(cli, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(main_job, "sample_path", lambda: tmp_path / "nothing.jsonl")
    outcome = cli()
    assert outcome.code == 1 and outcome.out == ""
    assert len(outcome.err.splitlines()) == 1
    assert "python3 -m spider_vision.gamelog.sample" in outcome.err


@pytest.mark.parametrize("argv", [[], ["deal", "1", "--suits", "2"]])
def test_real_process(argv) -> None:
    done = subprocess.run([sys.executable, "-m", "spider_vision", *argv], capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    if not argv:
        assert "blocked deal" in done.stdout and "not one suit" in done.stdout
