"""Exposed cards found by their paper and bottom index (``vision/hidden.py``) on held-out tables.

    python3 bench/hidden.py [--scenes N] [--style-scenes N] [--json OUT]

For each table (seeds the training never used, in training styles; and the
unseen style's held-out seeds), the detector's cards are grouped into
columns as the pipeline does. Then, as if the detector had missed it, each
column's exposed card is dropped in turn: is it found again, and is its
bottom index read as the card it is (the nearest true card to the dropped
frame)? And with every card kept, how many cards does the stage add (none
should be, unless the detector missed a real exposed card)?
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from spider_vision.vision import Models  # noqa: E402
from spider_vision.vision.cascade import repair_columns  # noqa: E402
from spider_vision.vision.detect import detect_cards  # noqa: E402
from spider_vision.vision.hidden import find_hidden_tops  # noqa: E402
from spider_vision.vision.evaluation import missed  # noqa: E402
from spider_vision.vision.layout import group_columns  # noqa: E402
from spider_vision.vision.pipeline import read_corners  # noqa: E402
from spider_vision.vision.reading import card_classes  # noqa: E402
from spider_vision.vision.rules import joint_probabilities  # noqa: E402
from spider_vision.vision.training.dataset import STYLE_SEEDS, render_seed  # noqa: E402

HELD_OUT_SEEDS = 100_000


def measure(seeds: range, held_out_style: bool, models: Models) -> dict[str, int]:
    classes = card_classes()
    counts = {"tables": 0, "added_to_whole_tables": 0, "dropped": 0, "found": 0, "read_right": 0}
    for seed in seeds:
        rendering = render_seed(seed, held_out_style=held_out_style)
        image = rendering.image
        truths = [card for card in rendering.cards if card.pile == "tableau" and card.face_up]
        detections = detect_cards(models, image)
        if not len(detections) or not truths:
            continue
        detections, layout = repair_columns(detections, group_columns(detections))
        counts["tables"] += 1
        grown, _, _ = find_hidden_tops(image, models, detections, layout, read_corners(image, models, detections))
        counts["added_to_whole_tables"] += len(grown) - len(detections)
        for k, column in enumerate(layout.columns):
            if len(column) < 2:
                continue
            origin = detections.origins[column[-1]]
            truth = min(truths, key=lambda card: float(np.linalg.norm(np.subtract(card.quad[0], origin))))
            counts["dropped"] += 1
            missed_detections, missed_layout = missed(detections, layout, column[-1])
            grown, grown_layout, (rank, suit, _) = find_hidden_tops(
                image, models, missed_detections, missed_layout, read_corners(image, models, missed_detections))
            added = grown_layout.columns[k][-1]
            if added < len(missed_detections):
                continue
            counts["found"] += 1
            counts["read_right"] += classes[int(joint_probabilities(rank, suit)[added].argmax())] == truth.card
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="held-out-seed tables (default 40)")
    parser.add_argument("--style-scenes", type=int, default=25, help="unseen-style tables (default 25)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    models = Models.load()
    figures = {
        "held_out_seeds": measure(range(HELD_OUT_SEEDS, HELD_OUT_SEEDS + args.scenes), False, models),
        "unseen_style": measure(range(STYLE_SEEDS.start, STYLE_SEEDS.start + args.style_scenes), True, models),
    }
    print(json.dumps(figures, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
