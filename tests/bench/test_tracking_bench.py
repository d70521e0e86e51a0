"""The tracking benchmark runs on one tiny rendered game and reports its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_reports_events_flags_and_speed(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tracking.py"), "--videos", "1", "--moves", "3", "--illegal", "1",
         "--blocked", "0", "--suit-modes", "1", "--fps", "8", "--keep", str(tmp_path), "--json", str(out)],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=300,
    )
    figures = json.loads(out.read_text())
    (row,) = figures["videos"]
    summary = figures["summary"]
    assert row["truth_events"] >= 3 and row["flags_due"] == 1 and row["replay_consistent"]
    assert 0 <= summary["event_precision"] <= 1 and 0 <= summary["event_recall"] <= 1
    assert summary["fps"] > 0 and summary["flags_due"] == 1
    assert (tmp_path / f"game-{row['seed']}-1.track.jsonl").exists()
