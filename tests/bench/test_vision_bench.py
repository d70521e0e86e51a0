"""The vision benchmarks run on small inputs: the bundled stills, and held-out crops of two seeds per set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> dict:
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True, cwd=ROOT,
                            timeout=300)
    return json.loads(result.stdout)


def test_vision_bench_scores_the_bundled_stills() -> None:
    figures = _run(str(ROOT / "bench" / "vision.py"), "--scenes", "0", "--style-scenes", "0", "--timing", "0")
    stills = json.loads((ROOT / "sample_images" / "index.json").read_text())["stills"]
    assert set(figures) == {"bundled_stills"}
    assert figures["bundled_stills"]["scenes"] == len(stills)
    assert figures["bundled_stills"]["readable_cards"] > 20 * len(stills)
    assert figures["bundled_stills"]["card_accuracy"] > 0.9


def test_crops_bench_reads_held_out_crops(tmp_path: Path) -> None:
    figures = _run(str(ROOT / "bench" / "crops.py"), "--seeds", "2", "--data", str(tmp_path))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shard-style-50000.npz", "shard-train-2200.npz"]
    for held_out in ("valid_seeds", "held_out_style"):
        crops = figures[held_out]
        assert crops["crops"] == sum(count for _, count in crops["card_by_index_visible"].values())
        assert crops["crops"] > 20 and crops["strips"] > 5
        assert crops["card"] > 0.8 and crops["rank"] >= crops["card"] and crops["suit"] >= crops["card"]


def test_hidden_bench_drops_each_exposed_card_and_counts_those_found_again() -> None:
    figures = _run(str(ROOT / "bench" / "hidden.py"), "--scenes", "1", "--style-scenes", "1")
    assert set(figures) == {"held_out_seeds", "unseen_style"}
    for counts in figures.values():
        assert counts["tables"] == 1
        assert counts["dropped"] >= 5
        assert counts["read_right"] <= counts["found"] <= counts["dropped"]
    assert figures["unseen_style"]["found"] >= 5  # seed 50000: every exposed card is found by its bottom index
