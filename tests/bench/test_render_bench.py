"""The renderer benchmark runs on a tiny input, in one process and in two."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_bench_prints_stills_per_second(workers: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "render.py"), "--count", "2", "--workers", workers],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=300,
    )
    first = result.stdout.splitlines()[0]
    match = re.match(rf"(\d+\.\d) stills/s at 1280x720 \(2 stills, {workers} worker\(s\)", first)
    assert match is not None, result.stdout
    assert float(match.group(1)) > 0
