"""Reading accuracy and speed of the vision pipeline on rendered tables it never trained on.

    python3 bench/vision.py [--scenes N] [--style-scenes N] [--first K] [--size WxH] [--timing N] [--threads T]
                            [--json OUT]

Two held-out sets: seeds the training never used (training card styles), and
the unseen style (procedural decks in the Caladea font, left out of
training). For each: detection recall of readable face-up cards, rank-and-
suit accuracy per readable face-up card (an uncertain or missed card counts
as wrong), the uncertain rate, face-down count accuracy per column, and the
exact-position rate on full views (the tableau, stock count and number of
removed runs match; removed suits are guessed, so not compared), also on
the full views without a hand over the table. The same
figures for the twelve bundled stills of ``sample_images/`` (the pictures
the demo and the tests use; ``--samples 0`` leaves them out). Then
milliseconds per 1920x1080 frame end to end (picture in, TableReading out).
The held-out tables are rendered at 1280x720 (the training pictures' size);
``--size 1920x1080`` renders the same tables at the size that is timed.
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

from spider_vision.synth.truth import CardTruth  # noqa: E402
from spider_vision.vision import Models, TableReading, VisionError, read_table  # noqa: E402
from spider_vision.vision.evaluation import score, summarise  # noqa: E402
from spider_vision.vision.training.dataset import render_seed  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"

HELD_OUT_SEEDS = 100_000
STYLE_SEEDS = 200_000


def measure(seeds: range, held_out_style: bool, models: Models,
            size: tuple[int, int] = (1280, 720)) -> dict[str, float]:
    total: dict[str, int] = {}
    for seed in seeds:
        rendering = render_seed(seed, held_out_style=held_out_style, width=size[0], height=size[1])
        reading = _read(rendering.image, models, int(rendering.spn.split(" ")[-1]))
        _add(total, score(reading, rendering.cards, rendering.spn, rendering.scene.fit_view, rendering.scene.hands))
    return summarise(total, len(seeds))


def _add(total: dict[str, int], counts: dict[str, int]) -> None:
    for key, value in counts.items():
        total[key] = total.get(key, 0) + value


def _read(image: np.ndarray, models: Models, suits: int) -> TableReading | None:
    try:
        return read_table(image, models, suits=suits)
    except VisionError:
        return None


def measure_samples(models: Models) -> dict[str, float]:
    """The bundled stills, scored against the truth written beside each."""
    total: dict[str, int] = {}
    stills = json.loads((SAMPLES / "index.json").read_text())["stills"]
    for still in stills:
        truth = json.loads((SAMPLES / still["truth"]).read_text())
        image = cv2.imread(str(SAMPLES / still["image"]))
        cards = [CardTruth.from_json(card) for card in truth["cards"]]
        _add(total, score(_read(image, models, still["suits"]), cards, truth["spn"], truth["scene"]["fit_view"],
                          truth["scene"].get("hands", 0)))
    return summarise(total, len(stills))


def timing(count: int, models: Models) -> float:
    frames = [render_seed(HELD_OUT_SEEDS + 5000 + k, width=1920, height=1080) for k in range(count)]
    times = []
    for frame in frames[:1] + frames:
        started = time.perf_counter()
        _read(frame.image, models, int(frame.spn.split(" ")[-1]))
        times.append((time.perf_counter() - started) * 1000)
    return float(np.median(times[1:]))


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, such as 1920x1080, not '{text}'") from None
    if width < 64 or height < 64:
        raise argparse.ArgumentTypeError(f"a size of at least 64x64 is needed, not '{text}'")
    return width, height


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=100, help="held-out-seed scenes (default 100)")
    parser.add_argument("--style-scenes", type=int, default=100, help="unseen-style scenes (default 100)")
    parser.add_argument("--first", type=int, default=0,
                        help="skip this many tables of each held-out set (a second sample of tables; default 0)")
    parser.add_argument("--size", type=_size, default=(1280, 720),
                        help="width x height of the held-out tables (default 1280x720)")
    parser.add_argument("--samples", type=int, default=1, help="score the bundled stills too (default 1)")
    parser.add_argument("--timing", type=int, default=10, help="1920x1080 frames timed (default 10)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    models = Models.load(args.models, threads=args.threads)
    figures: dict[str, object] = {}
    if args.scenes:
        first = HELD_OUT_SEEDS + args.first
        figures["held_out_seeds"] = measure(range(first, first + args.scenes), False, models, args.size)
    if args.style_scenes:
        first = STYLE_SEEDS + args.first
        figures["unseen_style"] = measure(range(first, first + args.style_scenes), True, models, args.size)
    if args.samples:
        figures["bundled_stills"] = measure_samples(models)
    if args.timing:
        figures["ms_per_1080p_frame"] = round(timing(args.timing, models), 1)
        figures["threads"] = args.threads
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
