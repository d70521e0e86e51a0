"""Held-out crop accuracy of the shipped ONNX reader and counter, by how much of the index shows.

    python3 bench/crops.py [--models DIR] [--data data/vision] [--seeds 200] [--json OUT]

The crops are the training's held-out shards (true card frames with the
training jitter, no detector in the loop): seeds 2200-2399 in the training
styles and seeds 50000-50199 in the unseen style. They are rendered into
``--data`` when missing (a few minutes each) and reused after. Prints, per
set, the reader's card (rank and suit), rank and suit accuracy overall and
per band of index visibility, and the counter's face-down count accuracy:
the crop tables of ``models/README.md``. Runs on the runtime install (no
torch).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from spider_vision.vision import Models  # noqa: E402
from spider_vision.vision.training.dataset import (  # noqa: E402
    SHARD, STYLE_SEEDS, VALID_SEEDS, generate, load_arrays,
)

BANDS = ((0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01))
BATCH = 512


def measure(paths: list[Path], models: Models) -> dict[str, object]:
    crops, labels, strips, counts = load_arrays(paths, "index_crops", "index_labels", "strip_crops", "strip_labels")
    reads = [models.read(crops[k:k + BATCH]) for k in range(0, len(crops), BATCH)]
    ranks = np.concatenate([rank.argmax(1) for rank, _, _ in reads])
    suits = np.concatenate([suit.argmax(1) for _, suit, _ in reads])
    rank_ok = ranks == labels[:, 0].astype(int)
    suit_ok = suits == labels[:, 1].astype(int)
    card_ok = rank_ok & suit_ok
    visible = labels[:, 2]
    bands = {}
    for low, high in BANDS:
        inside = (visible >= low) & (visible < high)
        bands[f"{round(low * 100)}-{min(round(high * 100), 100)}%"] = [
            round(float(card_ok[inside].mean()), 4) if inside.any() else 0.0, int(inside.sum())]
    counted = np.concatenate([models.count(strips[k:k + BATCH]).argmax(1) for k in range(0, len(strips), BATCH)])
    return {"crops": int(len(labels)), "card": round(float(card_ok.mean()), 4),
            "rank": round(float(rank_ok.mean()), 4), "suit": round(float(suit_ok.mean()), 4),
            "card_by_index_visible": bands, "strips": int(len(counts)),
            "down_count": round(float((counted == counts).mean()), 4)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=Path("data/vision"), help="shard cache (default data/vision)")
    parser.add_argument("--seeds", type=int, default=len(VALID_SEEDS),
                        help="first seeds of each set (default all 200; a smaller set needs its own --data)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    models = Models.load(args.models, threads=1)
    valid = range(VALID_SEEDS.start, VALID_SEEDS.start + args.seeds)
    style = range(STYLE_SEEDS.start, STYLE_SEEDS.start + args.seeds)
    figures = {
        "valid_seeds": measure(generate(args.data, valid, shard_size=SHARD), models),
        "held_out_style": measure(generate(args.data, style, held_out_style=True, shard_size=SHARD), models),
    }
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
