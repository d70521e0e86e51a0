"""``spider-vision analyze`` and ``calibrate``: JSON form, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_images" / "late-4suit-glare.jpg"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spider_vision", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_json_reading_of_a_sample(tmp_path: Path) -> None:
    annotated = tmp_path / "out.png"
    result = _run("analyze", str(SAMPLE), "--suits", "4", "--json", "--annotate", str(annotated))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"position", "cards", "warnings"}
    assert data["cards"]
    for card in data["cards"]:
        assert set(card) == {"column", "index", "face_up", "card", "confidence", "index_box", "polygon"}
        assert card["column"] is None or card["column"] in "abcdefghij"
        if card["face_up"]:
            assert len(card["index_box"]) == 4
    image = cv2.imread(str(annotated))
    assert image is not None and image.shape == cv2.imread(str(SAMPLE)).shape


@pytest.mark.parametrize("make, code, words", [
    (lambda path: path.write_text("not a picture"), 2, "not an image"),
    (lambda path: cv2.imwrite(str(path), np.full((720, 1280, 3), 4, np.uint8)), 3, "too dark"),
    (lambda path: cv2.imwrite(str(path), np.full((720, 1280, 3), (40, 110, 50), np.uint8)), None, None),
])
def test_bad_pictures_give_one_line_and_an_exit_code(tmp_path: Path, make, code, words) -> None:
    path = tmp_path / "table.png"
    make(path)
    result = _run("analyze", str(path))
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    if code is None:
        # A plain table: no cards (4), or too featureless to be sharp (3); either way one clear line.
        assert result.returncode in (3, 4), result.stderr
    else:
        assert result.returncode == code
        assert words in lines[0]


def test_a_missing_file_is_bad_input() -> None:
    result = _run("analyze", "no/such/picture.jpg")
    assert result.returncode == 2
    assert "does not exist" in result.stderr


def test_missing_models_are_an_expected_failure(tmp_path: Path) -> None:
    result = _run("analyze", str(SAMPLE), "--models", str(tmp_path))
    assert result.returncode == 1
    assert "missing" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_calibrate_refuses_a_wrong_number_of_cards(tmp_path: Path) -> None:
    result = _run("calibrate", str(SAMPLE), "--cards", "AhKh", "--out", str(tmp_path / "deck.npz"))
    assert result.returncode == 2
    assert "cards named" in result.stderr


def test_calibrate_then_analyze_with_the_calibration(tmp_path: Path) -> None:
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    reading = json.loads(_run("analyze", str(SAMPLE), "--suits", "4", "--json").stdout)
    faces = [card for card in reading["cards"] if card["face_up"]]
    # Name the cards the way the player would: the true identity of each card found, in layout order.
    named = _layout_order_names(faces, truth)
    deck = tmp_path / "deck.npz"
    result = _run("calibrate", str(SAMPLE), "--cards", " ".join(named), "--out", str(deck))
    assert result.returncode == 0, result.stderr
    calibrated = json.loads(_run("analyze", str(SAMPLE), "--suits", "4", "--json", "--calibration", str(deck)).stdout)
    right_before = sum(a["card"] == b for a, b in zip(_by_box(faces), _names_by_box(faces, truth)))
    right_after = sum(a["card"] == b for a, b in zip(_by_box([c for c in calibrated["cards"] if c["face_up"]]),
                                                       _names_by_box(faces, truth)))
    assert right_after >= right_before


def _by_box(cards: list[dict]) -> list[dict]:
    return sorted(cards, key=lambda c: (round(c["index_box"][0]), round(c["index_box"][1])))


def _true_name(card: dict, truth: dict) -> str:
    x, y, w, h = card["index_box"]
    centre = np.array([x + w / 2, y + h / 2])
    best = min((c for c in truth["cards"] if c["face_up"] and "index_quad" in c),
               key=lambda c: np.linalg.norm(np.mean(c["index_quad"], axis=0) - centre))
    return best["card"]


def _names_by_box(cards: list[dict], truth: dict) -> list[str]:
    return [_true_name(card, truth) for card in _by_box(cards)]


def _layout_order_names(faces: list[dict], truth: dict) -> list[str]:
    """Face-up cards in calibration order: column by column (a..j, then loose ones), top to bottom."""
    ordered = sorted(faces, key=lambda c: (c["column"] is None, c["column"] or "", c["index"]))
    return [_true_name(card, truth) for card in ordered]
