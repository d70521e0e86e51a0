"""``spider-vision gui`` and the main job's choice between the window and the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import spider_vision.cli.gui as gui_command
import spider_vision.cli.main_job as main_job

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_display(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)


def test_main_job_opens_the_window_when_there_is_a_display(cli, monkeypatch) -> None:
    opened = []
    monkeypatch.setattr(gui_command, "display_problem", lambda **_: None)
    monkeypatch.setattr(gui_command, "open_window", lambda *a, **k: opened.append((a, k)) or 0)
    outcome = cli()
    assert outcome.code == 0 and opened == [((), {})] and outcome.out == ""


def test_main_job_without_a_display_says_so_and_runs_in_the_terminal(cli, no_display, monkeypatch) -> None:
    monkeypatch.setattr(gui_command, "open_window", lambda *a, **k: pytest.fail("no window without a display"))
    problems = []
    monkeypatch.setattr(main_job, "run_in_terminal", lambda problem: problems.append(problem) or 0)
    outcome = cli()
    assert outcome.code == 0 and problems == ["no display was found"]


@pytest.mark.parametrize("platform", ["offscreen", "minimal"])
def test_main_job_does_not_open_a_window_nobody_sees(cli, monkeypatch, platform) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("QT_QPA_PLATFORM", platform)
    assert main_job.gui.display_problem(visible=True) == f"Qt is set to draw offscreen (QT_QPA_PLATFORM={platform})"


def test_qt_that_cannot_start_is_a_problem(monkeypatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("QT_QPA_PLATFORM", "no-such-platform")
    assert gui_command.display_problem() == "Qt cannot open a window here"


@pytest.mark.parametrize("argv, words", [
    (["gui", "no-such-video.mp4"], "does not exist"),
    (["gui", "--log", "no-such-log.jsonl"], "is not a file"),
    (["gui", "--speed", "-1"], "must not be negative"),
])
def test_bad_arguments_are_one_line(cli, argv, words) -> None:
    outcome = cli(*argv)
    assert outcome.code == 2 and outcome.out == ""
    assert len(outcome.err.splitlines()) == 1 and words in outcome.err


def test_gui_without_a_display_is_one_line(cli, no_display) -> None:
    outcome = cli("gui")
    assert outcome.code == 1 and "no display was found" in outcome.err and len(outcome.err.splitlines()) == 1


def test_gui_command_grabs_a_picture_of_the_sample(tmp_path) -> None:
    """The real command, offscreen: it plays the sample, saves the window and quits."""
    picture = tmp_path / "window.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "spider_vision", "gui", "sample_images/game.mp4", "--speed", "0",
                           "--grab", str(picture), "--frames", "15"],
                          capture_output=True, text=True, timeout=120, cwd=REPO, env=env)
    assert done.returncode == 0, done.stderr
    assert picture.stat().st_size > 10_000
    assert list((tmp_path / "data").rglob("game-*.jsonl")), "the game was logged in the app data folder"
