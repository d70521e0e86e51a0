"""``spider-vision track``: the sample video's log, sources that cannot be opened, a source lost mid-game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import pytest

from spider_vision.gamelog import MoveEvent, read_log, replay

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"


def _true_moves(events: Path) -> list[tuple[str, bool]]:
    lines = [json.loads(line) for line in events.read_text().splitlines()[1:] if line.strip()]
    return [(line["move"], line["legal"]) for line in lines if line["kind"] in ("move", "deal")]


def test_sample_video_gives_a_log_that_replays_and_matches_the_truth(cli, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    outcome = cli("track", str(SAMPLES / "game.mp4"), "--suits", "2", "--log", str(log))
    assert outcome.code == 0, outcome.err
    result = replay(read_log(log))
    assert result.consistent, result.mismatch
    moves = [(str(e.event.move), e.event.legal) for e in result.entries if isinstance(e.event, MoveEvent)]
    assert moves == _true_moves(SAMPLES / "game.events.jsonl")
    assert outcome.out.count("! illegal-move: wrong rank") == 2
    # The sample's cards are about 58 px tall in a 960x540 video: the advice comes once, not every frame.
    assert outcome.out.count("note: the cards are small in the picture") == 1
    assert cli("replay", str(log)).code == 0


@pytest.mark.parametrize(
    ("readings", "expected"),
    [
        ([["the cards are small in the picture (about 50 px tall)"]] * 3, 1),
        ([["column j runs off the picture, so ..."], ["columns i, j run off the picture, so ..."]], 1),
        ([["the cards are small in the picture (1)", "column a runs off the picture"]], 2),
        ([["suit mode 2 inferred from the suits seen; pass --suits to fix it"]], 0),
    ],
)
def test_framing_advice_is_printed_once_per_kind(readings: list[list[str]], expected: int) -> None:
    from spider_vision.cli.track import framing_notes

    shown: set[str] = set()
    assert sum(len(framing_notes(warnings, shown)) for warnings in readings) == expected


@pytest.mark.parametrize("source, words", [
    ("missing.mp4", "does not exist"),
    ("97", "camera 97 cannot be opened"),
])
def test_a_source_that_cannot_be_opened_is_one_line_exit_2(cli, tmp_path: Path, source: str, words: str) -> None:
    outcome = cli("track", str(tmp_path / source) if source.endswith(".mp4") else source,
                  "--log", str(tmp_path / "game.jsonl"))
    assert outcome.code == 2
    assert words in outcome.err and outcome.err.count("\n") == 1 and "Traceback" not in outcome.err
    assert not (tmp_path / "game.jsonl").exists()


def test_a_log_in_a_missing_folder_is_refused(cli, tmp_path: Path) -> None:
    outcome = cli("track", str(SAMPLES / "game.mp4"), "--log", str(tmp_path / "no" / "game.jsonl"))
    assert outcome.code == 2 and "does not exist" in outcome.err


def test_a_source_lost_mid_game_keeps_the_log(cli, tmp_path: Path) -> None:
    # Pictures of the sample game at rest, one per stable table; then one that cannot be read.
    folder = tmp_path / "pictures"
    folder.mkdir()
    capture = cv2.VideoCapture(str(SAMPLES / "game.mp4"))
    wanted = {4, 28, 50}  # the start, after the first move, after the second
    index = 0
    while True:
        ok, image = capture.read()
        if not ok or index > max(wanted):
            break
        if index in wanted:
            cv2.imwrite(str(folder / f"{index:04d}.png"), image)
        index += 1
    capture.release()
    (folder / "9999.png").write_bytes(b"the camera went away")
    log = tmp_path / "game.jsonl"
    outcome = cli("track", str(folder), "--suits", "2", "--log", str(log))
    assert outcome.code == 1
    assert "was lost" in outcome.err and "9999.png" in outcome.err and "log so far is kept" in outcome.err
    result = replay(read_log(log))
    assert result.consistent and result.damage is None
    assert [str(e.event.move) for e in result.entries if isinstance(e.event, MoveEvent)] == ["gj", "fg"]
    shutil.rmtree(folder)
