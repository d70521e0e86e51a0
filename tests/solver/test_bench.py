"""bench/solver.py runs on a tiny input and prints its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "solver.py"


def test_benchmark_prints_a_row_per_suit_mode() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--deals", "2", "--suits", "1", "2",
         "--time-limit", "20", "--jobs", "1"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["suits", "deals"])
    rows = [line.split() for line in lines[header + 1 : header + 3]]
    assert [row[0] for row in rows] == ["1", "2"]
    for row in rows:
        assert row[1] == "2"
        assert 0 <= int(row[2]) <= 2
        assert row[3].endswith("%")
