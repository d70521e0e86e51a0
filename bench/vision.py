"""Reading accuracy and speed of the vision pipeline on rendered tables it never trained on.

    python3 bench/vision.py [--scenes N] [--style-scenes N] [--timing N] [--threads T] [--json OUT]

Two held-out sets: seeds the training never used (training card styles), and
the unseen style (procedural decks in the Caladea font, left out of
training). For each: detection recall of readable face-up cards, rank-and-
suit accuracy per readable face-up card (an uncertain or missed card counts
as wrong), the uncertain rate, face-down count accuracy per column, and the
exact-position rate on full views (the tableau, stock count and number of
removed runs match; removed suits are guessed, so not compared). Then
milliseconds per 1920x1080 frame end to end (picture in, TableReading out).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from spider_vision.vision import Models, VisionError, read_table  # noqa: E402
from spider_vision.vision.evaluation import score, summarise  # noqa: E402
from spider_vision.vision.training.dataset import render_seed  # noqa: E402

HELD_OUT_SEEDS = 100_000
STYLE_SEEDS = 200_000


def measure(seeds: range, held_out_style: bool, models: Models) -> dict[str, float]:
    total: dict[str, int] = {}
    for seed in seeds:
        rendering = render_seed(seed, held_out_style=held_out_style)
        try:
            reading = read_table(rendering.image, models, suits=int(rendering.spn.split(" ")[-1]))
        except VisionError:
            reading = None
        counts = score(reading, rendering.cards, rendering.spn, rendering.scene.fit_view)
        for key, value in counts.items():
            total[key] = total.get(key, 0) + value
    return summarise(total, len(seeds))


def timing(count: int, models: Models) -> float:
    frames = [render_seed(HELD_OUT_SEEDS + 5000 + k, width=1920, height=1080) for k in range(count)]
    times = []
    for frame in frames[:1] + frames:
        started = time.perf_counter()
        try:
            read_table(frame.image, models, suits=int(frame.spn.split(" ")[-1]))
        except VisionError:
            pass
        times.append((time.perf_counter() - started) * 1000)
    return float(np.median(times[1:]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=100, help="held-out-seed scenes (default 100)")
    parser.add_argument("--style-scenes", type=int, default=100, help="unseen-style scenes (default 100)")
    parser.add_argument("--timing", type=int, default=10, help="1920x1080 frames timed (default 10)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    models = Models.load(args.models, threads=args.threads)
    figures = {
        "held_out_seeds": measure(range(HELD_OUT_SEEDS, HELD_OUT_SEEDS + args.scenes), False, models),
        "unseen_style": measure(range(STYLE_SEEDS, STYLE_SEEDS + args.style_scenes), True, models),
    }
    if args.timing:
        figures["ms_per_1080p_frame"] = round(timing(args.timing, models), 1)
        figures["threads"] = args.threads
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
