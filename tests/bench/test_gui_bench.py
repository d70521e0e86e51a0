"""The window benchmark runs on a few frames of the sample and prints its three figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_prints_frames_stalls_and_hints(tmp_path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "gui.py"), "--frames", "12"],
                            capture_output=True, text=True, check=True, cwd=ROOT, timeout=300, env=env)
    lines = result.stdout.splitlines()
    frames = re.search(r"frames shown (\d+) in [\d.]+ s: ([\d.]+) frames/s", result.stdout)
    assert frames is not None and int(frames.group(1)) >= 12 and float(frames.group(2)) > 0, result.stdout
    assert any(re.match(r"UI thread: longest stall -?\d+ ms", line) for line in lines), result.stdout
