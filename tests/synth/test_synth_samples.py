"""The committed sample_images/ are complete, consistent and reproducible."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from spider_vision.engine import Position
from spider_vision.synth import random_scene, render
from spider_vision.synth.samples import JPEG_QUALITY, SAMPLE_STILLS, sample_position

FOLDER = Path(__file__).resolve().parents[2] / "sample_images"


def test_samples_are_small_and_listed() -> None:
    index = json.loads((FOLDER / "index.json").read_text())
    names = {still["name"] for still in index["stills"]}
    assert names == {sample.name for sample in SAMPLE_STILLS}
    total = sum(path.stat().st_size for path in FOLDER.iterdir())
    assert total <= 20_000_000


@pytest.mark.parametrize("sample", SAMPLE_STILLS, ids=lambda sample: sample.name)
def test_still_matches_its_truth(sample) -> None:
    image = cv2.imread(str(FOLDER / f"{sample.name}.jpg"))
    truth = json.loads((FOLDER / f"{sample.name}.json").read_text())
    assert image.shape == (truth["height"], truth["width"], 3)
    position = Position.from_spn(truth["spn"])
    # Every card is in the truth, completed runs included (they lie beside the tableau).
    assert len(truth["cards"]) == 104
    assert sum(card["pile"] == "removed" for card in truth["cards"]) == 13 * len(position.removed)


@pytest.mark.parametrize("sample", SAMPLE_STILLS[:2], ids=lambda sample: sample.name)
def test_still_is_reproducible(sample) -> None:
    """Rendering the sample again gives the committed truth and (up to JPEG and library drift) the picture."""
    position = sample_position(sample.deal, sample.suits, sample.moves, sample.seed)
    rendering = render(position, random_scene(sample.seed, 1280, 720, **dict(sample.overrides)), sample.seed)
    truth = json.loads((FOLDER / f"{sample.name}.json").read_text())
    again_truth = rendering.to_json()
    assert {k: v for k, v in again_truth.items() if k not in ("cards", "hands")} == \
        {k: v for k, v in truth.items() if k not in ("cards", "hands")}
    assert len(again_truth["cards"]) == len(truth["cards"])
    for new, old in zip(again_truth["cards"], truth["cards"]):
        assert {k: new[k] for k in ("pile", "column", "index", "card", "face_up")} == \
            {k: old[k] for k in ("pile", "column", "index", "card", "face_up")}
        # Small tolerances: other numpy or OpenCV builds may round the last digit differently.
        assert np.allclose(new["quad"], old["quad"], atol=0.05)
        assert new["visible_fraction"] == pytest.approx(old["visible_fraction"], abs=0.01)
        if "index_box" in old:
            assert np.allclose(new["index_box"], old["index_box"], atol=0.05)
            assert new["index_visible"] == pytest.approx(old["index_visible"], abs=0.02)
            assert new["suit_visible"] == pytest.approx(old["suit_visible"], abs=0.02)
    ok, data = cv2.imencode(".jpg", rendering.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    again = cv2.imdecode(data, cv2.IMREAD_COLOR).astype(np.int16)
    committed = cv2.imread(str(FOLDER / f"{sample.name}.jpg")).astype(np.int16)
    assert np.abs(again - committed).mean() < 2.0


def test_video_sample_is_readable_with_its_truth() -> None:
    index = json.loads((FOLDER / "index.json").read_text())["video"]
    capture = cv2.VideoCapture(str(FOLDER / index["file"]))
    frames = 0
    while capture.read()[0]:
        frames += 1
    assert frames == index["frame_count"]
    with gzip.open(FOLDER / index["frames"], "rt") as handle:
        assert sum(1 for _ in handle) == frames
    events = [json.loads(line) for line in (FOLDER / index["events"]).read_text().splitlines()]
    assert events[0]["format"] == "spider-log"
    assert sum(1 for event in events[1:] if event.get("legal") is False) == index["illegal"]
