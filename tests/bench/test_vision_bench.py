"""The vision benchmarks run on small inputs: the bundled stills, and held-out crops of two seeds per set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_vision_bench_renders_the_held_out_tables_at_the_size_asked() -> None:
    base = ("--style-scenes", "0", "--samples", "0", "--timing", "0", "--scenes", "1")
    small = _run(str(ROOT / "bench" / "vision.py"), *base)["held_out_seeds"]
    large = _run(str(ROOT / "bench" / "vision.py"), *base, "--size", "1920x1080")["held_out_seeds"]
    assert small["scenes"] == large["scenes"] == 1
    # The same table: the same cards are readable, whatever the picture's size.
    assert small["readable_cards"] == large["readable_cards"] > 10
    def bands(figures: dict) -> set[str]:
        return {band for band, (_, cards) in figures["card_accuracy_by_card_height"].items() if cards}
    # Its cards are 50-65 px tall at 1280x720 and half as tall again at 1920x1080.
    assert "50-65 px" in bands(small)
    assert not bands(large) & {"<50 px", "50-65 px"}


@pytest.mark.parametrize("turn", ["1", "2", "3"])
def test_vision_bench_scores_a_turned_table_in_its_own_pixels(turn: str) -> None:
    base = ("--style-scenes", "0", "--samples", "0", "--timing", "0", "--scenes", "2")
    upright = _run(str(ROOT / "bench" / "vision.py"), *base)["held_out_seeds"]
    turned = _run(str(ROOT / "bench" / "vision.py"), *base, "--turn", turn)["held_out_seeds"]
    assert turned["readable_cards"] == upright["readable_cards"] > 20
    # Cards mapped back to the wrong place would be missed.
    assert upright["recall"] > 0.9 and turned["recall"] >= 0.9 * upright["recall"]


def test_vision_bench_refuses_a_size_that_is_not_width_x_height() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "vision.py"), "--size", "1920"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert "a size is WIDTHxHEIGHT" in result.stderr


def test_vision_bench_splits_its_figures_by_kind_of_scene() -> None:
    figures = _run(str(ROOT / "bench" / "vision.py"), "--style-scenes", "0", "--samples", "0", "--timing", "0",
                   "--scenes", "4", "--by-scene")["held_out_seeds"]
    groups = figures["by_scene"]
    # Kinds that split every table between them add up to the whole set.
    for kinds in (("1 suit", "2 suits", "4 suits"), ("a hand over the table", "no hand"),
                  ("turned 20 degrees or more", "upright within 20 degrees")):
        present = [groups[kind] for kind in kinds if kind in groups]
        assert sum(group["scenes"] for group in present) == figures["scenes"] == 4
        assert sum(group["readable_cards"] for group in present) == figures["readable_cards"]
        right = sum(group["card_accuracy"] * group["readable_cards"] for group in present)
        assert right == pytest.approx(figures["card_accuracy"] * figures["readable_cards"], abs=0.01)
        # What became of each card, by how much of its index shows, adds up the same way.
        for band, outcomes in figures["outcomes_by_index_shown"].items():
            for outcome, count in outcomes.items():
                assert sum(group["outcomes_by_index_shown"].get(band, {}).get(outcome, 0) for group in present) == count
    outcomes = figures["outcomes_by_index_shown"]
    assert sum(sum(band.values()) for band in outcomes.values()) == figures["readable_cards"]
    right = sum(band["right"] for band in outcomes.values())
    assert right == pytest.approx(figures["card_accuracy"] * figures["readable_cards"])
    for group in groups.values():
        assert group["scenes"] >= 1
        assert group["exact_position"] is None if group["full_views"] == 0 else 0 <= group["exact_position"] <= 1


@pytest.mark.parametrize(("against", "keys"), [
    (False, {"ms_per_1080p_frame", "threads"}),
    (True, {"ms_per_1080p_frame", "other_ms_per_1080p_frame", "median_ratio_to_other", "threads"}),
])
def test_vision_bench_times_frames_alone_or_against_other_models(against: bool, keys: set[str]) -> None:
    options = ["--time-against", str(ROOT / "models")] if against else []
    figures = _run(str(ROOT / "bench" / "vision.py"), "--scenes", "0", "--style-scenes", "0", "--samples", "0",
                   "--timing", "1", *options)
    assert set(figures) == keys
    assert 1 < figures["ms_per_1080p_frame"] < 10_000
    if against:
        assert 1 < figures["other_ms_per_1080p_frame"] < 10_000
        ratio = figures["ms_per_1080p_frame"] / figures["other_ms_per_1080p_frame"]
        assert figures["median_ratio_to_other"] > 0 and 0.2 < ratio < 5
