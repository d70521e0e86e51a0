"""The tracking benchmark runs on one tiny rendered game and reports its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("turn", [0, 2])
def test_bench_reports_events_flags_and_speed(tmp_path: Path, turn: int) -> None:
    out = tmp_path / "figures.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tracking.py"), "--videos", "1", "--moves", "3", "--illegal", "1",
         "--blocked", "0", "--suit-modes", "1", "--fps", "8", "--keep", str(tmp_path), "--json", str(out),
         "--turn", str(turn)],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=300,
    )
    figures = json.loads(out.read_text())
    (row,) = figures["videos"]
    summary = figures["summary"]
    assert row["truth_events"] >= 3 and row["flags_due"] == 1 and row["replay_consistent"]
    assert 0 <= summary["event_precision"] <= 1 and 0 <= summary["event_recall"] <= 1
    assert summary["fps"] > 0 and summary["flags_due"] == 1
    assert (tmp_path / f"game-{row['seed']}-1.track.jsonl").exists()


def test_combine_sums_the_videos_of_several_sets(tmp_path: Path) -> None:
    def row(seed: int, truth: int, tracked: int, matched: int, false_flags: int) -> dict:
        return {"seed": seed, "truth_events": truth, "tracked_events": tracked, "matched": matched,
                "flags_due": 3, "flags_raised": 3 - false_flags, "false_flags": false_flags, "frames": 120,
                "seconds": 2.0, "corrections": 0, "replay_consistent": True, "final_face_up_errors": 0}

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps({"videos": [row(1, 10, 10, 10, 0), row(2, 10, 12, 8, 1)]}))
    second.write_text(json.dumps({"videos": [row(3, 20, 19, 18, 2)]}))
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tracking.py"), "--combine", str(first), str(second)],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=120,
    )
    summary = json.loads(result.stdout)
    assert summary["videos"] == 3 and summary["games_exact"] == 1
    assert summary["event_precision"] == round(36 / 41, 4) and summary["event_recall"] == round(36 / 40, 4)
    assert (summary["flags_due"], summary["flags_raised"], summary["false_flags"]) == (9, 6, 3)
    assert summary["fps"] == 60.0
