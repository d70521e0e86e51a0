"""Every command has --help; bad input is one clear line on stderr and exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spider_vision.engine import SuitMode, deal_position

REPO = Path(__file__).resolve().parents[2]
SPN = deal_position(4, SuitMode.TWO).spn()
COMMANDS = ["deal", "moves", "apply", "replay", "play"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(cli, command: str) -> None:
    outcome = cli(command, "--help")
    assert outcome.code == 0
    assert outcome.out.startswith(f"usage: spider-vision {command}")


def test_main_help_lists_every_command(cli) -> None:
    outcome = cli("--help")
    assert outcome.code == 0
    for command in COMMANDS:
        assert command in outcome.out


def _files(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "notes.txt").write_text("just some notes\n")
    (tmp_path / "other.jsonl").write_text('{"format": "chess-log", "version": 1}\n')
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "folder").mkdir()
    return {name: str(tmp_path / name) for name in
            ["empty.jsonl", "notes.txt", "other.jsonl", "binary.jsonl", "folder", "missing"]}


def _fill(arg: str, files: dict[str, str]) -> str:
    """``{name}`` stands for a prepared file; ``{folder}/x`` for a path under the folder."""
    if not arg.startswith("{"):
        return arg
    name, rest = arg[1:].split("}", 1)
    return files[name] + rest


BAD = [
    (["nonsense"], "invalid choice"),
    (["deal"], "required"),
    (["deal", "x", "--suits", "2"], "invalid int"),
    (["deal", "5", "--suits", "3"], "not 1, 2 or 4"),
    (["deal", "-1", "--suits", "2"], "between 0 and 4294967295"),
    (["deal", str(2**32), "--suits", "2"], "between 0 and 4294967295"),
    (["moves"], "required"),
    (["moves", "not a position"], "four fields"),
    (["moves", SPN.replace(" - 2", " - 4").replace("h", "c")], "appears"),
    (["moves", SPN.replace("/", "|", 1)], "10 columns"),
    (["moves", SPN.replace(" - 2", " s 2")], "not 104"),
    (["moves", SPN.replace(" - 2", " - 3")], "suits field"),
    (["moves", SPN.replace(SPN.split(" ")[1], SPN.split(" ")[1][:-2])], "multiple of ten"),
    (["apply", SPN], "required"),
    (["apply", SPN, "zz"], "'zz' is not a move"),
    (["apply", SPN, "ab", "e"], "'e' is not a move"),
    (["apply", "x", "ab"], "four fields"),
    (["replay"], "required"),
    (["replay", "{missing}"], "cannot read"),
    (["replay", "{folder}"], "directory"),
    (["replay", "{empty.jsonl}"], "not a spider-log"),
    (["replay", "{notes.txt}"], "not a spider-log"),
    (["replay", "{other.jsonl}"], "not a spider-log"),
    (["replay", "{binary.jsonl}"], "not a spider-log"),
    (["play"], "required"),
    (["play", "--deal", "1"], "required"),
    (["play", "--deal", "-5", "--suits", "1"], "between 0"),
    (["play", "--deal", "1", "--suits", "1", "--log", "{folder}/x/y.jsonl"], "cannot write"),
    (["play", "--deal", "1", "--suits", "1", "--log", "{folder}"], "cannot write"),
]


@pytest.mark.parametrize(("argv", "words"), BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(cli, tmp_path: Path, argv, words) -> None:
    files = _files(tmp_path)
    outcome = cli(*[_fill(arg, files) for arg in argv])
    assert outcome.code == 2
    assert outcome.out == ""
    assert len(outcome.err.splitlines()) == 1 and outcome.err.endswith("\n")
    assert outcome.err.startswith("spider-vision")
    assert "Traceback" not in outcome.err
    assert words in outcome.err


@pytest.mark.parametrize(
    "argv",
    [["moves", "bad"], ["apply", SPN, "qq"], ["replay", "/nonexistent/log.jsonl"]],
)
def test_bad_input_in_a_real_process(argv) -> None:
    done = subprocess.run([sys.executable, "-m", "spider_vision", *argv], capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("command", "name", "content"),
    [
        ("analyze", "cut.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40),
        ("track", "junk.mp4", bytes(range(256)) * 20),
    ],
)
def test_a_file_opencv_cannot_read_gets_our_line_only(tmp_path: Path, command: str, name: str,
                                                        content: bytes) -> None:
    """OpenCV and FFmpeg print their own warnings on such files ("moov atom not found"); they are kept quiet."""
    path = tmp_path / name
    path.write_bytes(content)
    extra = ["--log", str(tmp_path / "game.jsonl")] if command == "track" else []
    done = subprocess.run([sys.executable, "-m", "spider_vision", command, str(path), *extra],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("spider-vision")
