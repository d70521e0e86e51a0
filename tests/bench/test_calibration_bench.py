"""The deck-calibration benchmark on a small input: one deck, two tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("options", "fewest", "most"),
    [
        ((), 20, 52),  # a mid-game four-suit table shows many classes
        (("--suit", "h"), 1, 13),  # only the hearts' prototypes are kept
    ],
)
def test_calibration_bench_reads_a_deck_with_and_without_its_calibration(
    options: tuple[str, ...], fewest: int, most: int
) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "calibration.py"), "--decks", "proc-4", "--tables", "2", *options],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=300,
    )
    figures = json.loads(result.stdout)
    deck = figures["decks"]["proc-4"]
    assert fewest <= deck["calibration"]["classes"] <= most
    plain, calibrated = deck["uncalibrated"], deck["calibrated"]
    assert plain["readable_cards"] == calibrated["readable_cards"] > 20
    for reading in (plain, calibrated):
        assert 0.6 * reading["readable_cards"] < reading["cards_right"] <= reading["readable_cards"]
        assert reading["card_accuracy"] == round(reading["cards_right"] / reading["readable_cards"], 4)
    assert figures["all"] == {name: deck[name] for name in ("uncalibrated", "calibrated")}
