"""The pip count of uncovered cards on held-out tables, and what it does to the reader's ranks.

    python3 bench/pips.py [--first 100000] [--scenes 100] [--style-scenes 100] [--json OUT]

For the last card the detector finds in each column of a held-out render
(matched to the truth by its index centre), with the detector's own card
frame as the pipeline has it: how often ``count_pips`` gives a count and
how often that count is right on number cards, by card height (the
pipeline uses none under ``MIN_CARD_HEIGHT``); and how often multiplying it
into the reader's rank probabilities turns a wrong rank right ("fixed") or
a right one wrong ("broken"). The whole-table effect is
``bench/vision.py``'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from spider_vision.vision import Models  # noqa: E402
from spider_vision.vision.cascade import repair_columns  # noqa: E402
from spider_vision.vision.detect import detect_cards  # noqa: E402
from spider_vision.vision.layout import group_columns  # noqa: E402
from spider_vision.vision.pipeline import read_corners  # noqa: E402
from spider_vision.vision.pips import MIN_CARD_HEIGHT, count_pips, weigh_ranks  # noqa: E402
from spider_vision.vision.training.dataset import render_seed  # noqa: E402

HEIGHTS = ((0, MIN_CARD_HEIGHT), (MIN_CARD_HEIGHT, 100), (100, 10_000))


def _band(height: float) -> str:
    low, high = next(band for band in HEIGHTS if band[0] <= height < band[1])
    return f"{low:.0f}-{high:.0f} px" if high < 10_000 else f">={low:.0f} px"


def measure(seeds: range, held_out_style: bool, models: Models) -> dict[str, object]:
    """Counts given and right on number cards by height, and the ranks fixed and broken."""
    counted: dict[str, Counter[str]] = {}
    effect: Counter[str] = Counter()
    for seed in seeds:
        rendering = render_seed(seed, held_out_style=held_out_style)
        image = rendering.image
        detections = detect_cards(models, image)
        if not len(detections):
            continue
        detections, layout = repair_columns(detections, group_columns(detections))
        truth = [card for card in rendering.cards if card.face_up and card.index_quad and card.pile == "tableau"]
        if not truth:
            continue
        centres = np.array([np.mean(card.index_quad, axis=0) for card in truth])
        rank, _, _ = read_corners(image, models, detections)
        for column in layout.columns:
            i = column[-1]
            gaps = np.linalg.norm(centres - detections.centres[i], axis=1)
            k = int(gaps.argmin())
            quad = np.array(truth[k].index_quad)
            if gaps[k] > 0.5 * np.linalg.norm(quad[3] - quad[0]):
                effect["not a card"] += 1
                continue
            true_rank = truth[k].card.rank
            frame = (detections.origins[i], detections.rights[i], detections.downs[i])
            if 2 <= true_rank <= 10:
                band = counted.setdefault(_band(float(np.linalg.norm(frame[2]))), Counter())
                count = count_pips(image, *frame)
                band["cards"] += 1
                band["counted"] += count is not None
                band["count right"] += count == true_rank
            weighed = weigh_ranks(rank, image, detections, [i])
            before, after = rank[i].argmax() + 1 == true_rank, weighed[i].argmax() + 1 == true_rank
            effect["same" if before == after else "fixed" if after else "broken"] += 1
    return {"number_cards_by_height": {band: dict(counts) for band, counts in counted.items()},
            "reads": dict(effect)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--first", type=int, default=100_000, help="first held-out seed (default 100000)")
    parser.add_argument("--scenes", type=int, default=100, help="held-out-seed tables (default 100)")
    parser.add_argument("--style-scenes", type=int, default=100, help="unseen-style tables (default 100)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    models = Models.load(args.models)
    figures = {"held_out_seeds": measure(range(args.first, args.first + args.scenes), False, models),
               "unseen_style": measure(range(args.first, args.first + args.style_scenes), True, models)}
    text = json.dumps(figures, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
