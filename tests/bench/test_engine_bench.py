"""The engine benchmark runs on a tiny input and prints its figures, also against a baseline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), "--deals", "1", "--plies", "5",
         "--repeat", "1", *args],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=120,
    )
    return result.stdout


def test_bench_prints_positions_per_second() -> None:
    lines = run_bench().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("current, legal_moves + apply_move: 15 positions, ")
    assert lines[1].startswith("current, legal_steps: 15 positions, ")
    assert all("positions/s" in line for line in lines)


def test_bench_measures_a_baseline_revision_first() -> None:
    lines = run_bench("--baseline", "HEAD").splitlines()
    assert lines[0].startswith("baseline HEAD, legal_moves + apply_move: 15 positions, ")
    assert lines[-1].startswith("current, legal_steps: 15 positions, ")


def test_bench_refuses_an_unknown_revision_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), "--baseline", "no-such-revision"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == "bench: cannot read revision 'no-such-revision' from git\n"
