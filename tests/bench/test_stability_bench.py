"""The stability benchmark counts false and missed rests against a video's hand polygons."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import cv2

from tests.tracking.conftest import HEIGHT, WIDTH, state_image

ROOT = Path(__file__).resolve().parents[2]


def _write_game(folder: Path, hands: list[float | None]) -> None:
    """A video of table state 1 with a hand bar at each frame's position (None: no hand), and its truth."""
    writer = cv2.VideoWriter(str(folder / "game-1-1.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 8.0, (WIDTH, HEIGHT))
    with gzip.open(folder / "game-1-1.frames.jsonl.gz", "wt") as truth:
        for index, hand_at in enumerate(hands):
            writer.write(state_image(1, hand_at=hand_at))
            polygons = []
            if hand_at is not None:
                x = int(hand_at * (WIDTH - 40))
                polygons = [[[x, HEIGHT // 3], [x + 40, HEIGHT // 3], [x + 40, HEIGHT], [x, HEIGHT]]]
            truth.write(json.dumps({"frame": index, "hands": polygons}) + "\n")
    writer.release()


def _bench(folder: Path, *overrides: str) -> dict:
    command = [sys.executable, str(ROOT / "bench" / "stability.py"), str(folder)]
    for item in overrides:
        command += ["--set", item]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    return json.loads(result.stdout.splitlines()[-1])


def test_a_still_hand_is_no_rest_and_the_rests_around_it_are_found(tmp_path: Path) -> None:
    _write_game(tmp_path, [None] * 10 + [0.1 * k for k in range(1, 6)] + [0.5] * 6 + [None] * 10)
    figures = _bench(tmp_path)
    assert (figures["videos"], figures["rests"], figures["missed_rests"]) == (1, 2, 0)
    assert figures["false_rest_frames"] == 0
    # A gate that never sees an arm takes the still hand for rest: the benchmark counts it.
    blind = _bench(tmp_path, "presence=2")
    assert blind["false_rest_frames"] > 0
