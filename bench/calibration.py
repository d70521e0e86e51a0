"""What deck calibration does: cards read right on tables of one deck, with and without calibrating to it.

    python3 bench/calibration.py [--decks proc-4,proc-11] [--tables 30] [--first 1000] [--suit h] [--json OUT]

For each deck, one clean photo of a mid-game four-suit table (no hand,
camera nearly square above, no blur) is the calibration photo, its face-up
cards named as a player names them (``calibrate``: column a to j, each top
to bottom); when the photo's cards are not all found one by one, the next
seed's photo is tried. With ``--suit`` only that suit's prototypes are
kept, as from a photo of its thirteen cards (the README's example). Then
``--tables`` other tables of that deck (random scenes, modes and games, the
same seeds for every deck) are read with and without the calibration. Per
deck and in all: cards read right, exact positions. The default decks are
the unseen style's, which the reader never trained on.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from spider_vision.engine import Card, Position, deal_position  # noqa: E402
from spider_vision.synth import (  # noqa: E402
    Rendering, extra_style_names, random_play, random_scene, render, style_names,
)
from spider_vision.vision import Calibration, CalibrationError, Models, VisionError, calibrate, read_table  # noqa: E402
from spider_vision.vision.evaluation import score, summarise  # noqa: E402
from spider_vision.vision.reading import class_index  # noqa: E402
from spider_vision.vision.training.dataset import HELD_OUT_STYLES, render_seed  # noqa: E402

CALIBRATION_SEEDS = range(900, 920)
CLEAN = dict(hands=0, clutter=0, tilt=5.0, roll=0.0, card_px=170.0, motion_blur=0.0, defocus=0.0, glare=0.0,
             fit_view=True, view_offset=(0.0, 0.05), removed_face_up=False)
"""The calibration photo's scene: what a player takes with care, every index whole and sharp."""


def calibration_photo(seed: int, deck: str) -> tuple[Rendering, Position]:
    """A clean photo of a four-suit table of ``deck`` with many cards face up, and its position."""
    rng = random.Random(seed * 7919 + 17)
    start = deal_position(rng.randrange(2**32), 4)
    steps = random_play(start, 90, seed)
    position = steps[-1].after if steps else start
    scene = random_scene(seed, 1280, 720, deck=deck, **CLEAN)
    return render(position, scene, seed), position


def deck_calibration(deck: str, models: Models, suit: str | None = None) -> tuple[Calibration, int] | None:
    """The calibration from the first clean photo whose face-up cards are all found, and its seed.

    With ``suit``, only that suit's prototypes: each prototype is the mean of
    its own class's crops, so this is what a photo of that suit's cards gives.
    """
    for seed in CALIBRATION_SEEDS:
        rendering, position = calibration_photo(seed, deck)
        names = [card for column in position.columns for card in column.up]
        try:
            calibration = calibrate(rendering.image, models, names)
        except (CalibrationError, VisionError):
            continue
        if suit is not None:
            shown = np.isin(calibration.classes, [class_index(Card(rank, suit)) for rank in range(1, 14)])
            calibration = Calibration(calibration.classes[shown], calibration.prototypes[shown])
        return calibration, seed
    return None


def measure(deck: str, seeds: range, models: Models, suit: str | None = None) -> dict[str, object]:
    """Figures for ``deck`` read without and with its calibration."""
    found = deck_calibration(deck, models, suit)
    if found is None:
        return {"calibration": None}
    calibration, seed = found
    totals: dict[str, dict[str, int]] = {"uncalibrated": {}, "calibrated": {}}
    for table_seed in seeds:
        rendering = render_seed(table_seed, deck=deck)
        for name, used in (("uncalibrated", None), ("calibrated", calibration)):
            try:
                reading = read_table(rendering.image, models, suits=rendering.suits, calibration=used)
            except VisionError:
                reading = None
            counts = score(reading, rendering.cards, rendering.spn, rendering.scene.fit_view, rendering.scene.hands)
            for key, value in counts.items():
                totals[name][key] = totals[name].get(key, 0) + value
    figures: dict[str, object] = {"calibration": {"seed": seed, "classes": len(calibration.classes)}}
    for name, total in totals.items():
        figures[name] = _headline(total, len(seeds))
    return figures


def _headline(total: dict[str, int], tables: int) -> dict[str, float | int]:
    """Cards readable and read right, and exact positions, from summed ``score`` counts."""
    rates = summarise(total, tables)
    return {"readable_cards": rates["readable_cards"], "cards_right": int(total.get("correct", 0)),
            "card_accuracy": round(float(rates["card_accuracy"]), 4),
            "exact_positions": int(total.get("exact", 0)), "full_views": rates["full_views"]}


def _all_decks(decks: dict[str, dict[str, object]]) -> dict[str, dict[str, float | int]]:
    """The decks' counts summed, uncalibrated and calibrated, with the share of cards right."""
    total: dict[str, dict[str, float | int]] = {}
    for figures in decks.values():
        for name in ("uncalibrated", "calibrated"):
            reading = figures.get(name)
            if not isinstance(reading, dict):
                continue
            counts = total.setdefault(name, {})
            for key in ("readable_cards", "cards_right", "exact_positions", "full_views"):
                counts[key] = counts.get(key, 0) + reading[key]
    for counts in total.values():
        counts["card_accuracy"] = round(counts["cards_right"] / max(counts["readable_cards"], 1), 4)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", default=",".join(HELD_OUT_STYLES),
                        help="comma-separated deck names (default: the unseen style's decks)")
    parser.add_argument("--tables", type=int, default=30, help="tables read per deck (default 30)")
    parser.add_argument("--first", type=int, default=1000, help="first table seed (default 1000)")
    parser.add_argument("--suit", choices=list("shdc"), default=None,
                        help="keep only this suit's prototypes, as from a photo of its thirteen cards")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    names = [deck for deck in args.decks.split(",") if deck]
    unknown = sorted(set(names) - set(style_names()) - set(extra_style_names()))
    if unknown or not names or args.tables < 1:
        parser.error(f"unknown deck(s) {', '.join(unknown)}" if unknown else "give at least one deck and one table")
    models = Models.load(args.models)
    seeds = range(args.first, args.first + args.tables)
    decks = {deck: measure(deck, seeds, models, args.suit) for deck in names}
    text = json.dumps({"decks": decks, "all": _all_decks(decks)}, indent=1)
    if args.json:
        args.json.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
