"""Reading accuracy and speed of the vision pipeline on rendered tables it never trained on.

    python3 bench/vision.py [--scenes N] [--style-scenes N] [--first K] [--size WxH] [--turn K] [--late]
                            [--by-scene] [--timing N] [--time-against DIR] [--threads T] [--json OUT]

Two held-out sets: seeds the training never used (training card styles), and
the unseen style (procedural decks in the Caladea font, left out of
training). For each: detection recall of readable face-up cards, rank-and-
suit accuracy per readable face-up card (an uncertain or missed card counts
as wrong), the uncertain rate, face-down count accuracy per column, and the
exact-position rate on full views (the tableau, stock count and number of
removed runs match; removed suits are guessed, so not compared), also on
the full views without a hand over the table and on those in which every
face-up card shows at least 30% of a corner index (elsewhere a hand hides
a card, and no picture alone can give the position), and what became of the
readable cards (right, uncertain, rank wrong, suit wrong, missed) by how
much of their index shows (30-50%, 50-70%, 70-90%, whole); and the
accuracy on the cards whose suit pip shows at least half, with the share
whose pip does not (in four suits such a card's suit cannot be told from
the picture, only guessed within its colour), with how well the pipeline
estimates which pips are hidden and, on four-suit tables, whether it warned
of a cascade hiding three suits or more. The same
figures for the twelve bundled stills of ``sample_images/`` (the pictures
the demo and the tests use; ``--samples 0`` leaves them out). Then
milliseconds per 1920x1080 frame end to end (picture in, TableReading out).
The held-out tables are rendered at 1280x720 (the training pictures' size);
``--size 1920x1080`` renders the same tables at the size that is timed;
``--turn 1`` reads every table and still turned a quarter round (a portrait
picture: a phone held upright, or a camera at the table's side), ``--turn 2``
upside down (a camera across the table), and maps the cards back to score them.
``--late`` puts a late position in each table's scene instead of its own
(a few random moves from a deal, rarely past the first run): one along a
winning line of the full-information solver, after its first run is
removed, so runs lie set aside and columns often stand empty.
``--by-scene`` adds, for each held-out set, the headline figures of each
kind of scene (``SCENE_GROUPS``: suit mode, a hand over the table, a turned
table, a camera tilted sideways, motion blur, tight face-up steps, runs
removed, an empty column, an empty column at an end of the row), with
those outcomes, to show where the errors are.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from spider_vision.engine import Position, apply_move, deal_position, parse_move  # noqa: E402
from spider_vision.solver import SolveLimits, solve  # noqa: E402
from spider_vision.synth import Rendering  # noqa: E402
from spider_vision.synth.truth import CardTruth  # noqa: E402
from spider_vision.vision import Models, TableReading, VisionError, read_table  # noqa: E402
from spider_vision.vision.evaluation import score, summarise  # noqa: E402
from spider_vision.vision.training.dataset import render_seed  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"

HELD_OUT_SEEDS = 100_000
STYLE_SEEDS = 200_000


def _turned(degrees: float) -> float:
    """An angle's distance from 0 degrees, whichever way round (0 to 180)."""
    return abs((degrees + 180.0) % 360.0 - 180.0)


TIGHT_STEP = 0.21
"""Face-up steps (in card heights) up to this are the tightest quarter of the held-out scenes: the
next card hides much of each index."""

SCENE_GROUPS: tuple[tuple[str, Callable[[Rendering], bool]], ...] = (
    ("1 suit", lambda r: r.suits == 1),
    ("2 suits", lambda r: r.suits == 2),
    ("4 suits", lambda r: r.suits == 4),
    ("a hand over the table", lambda r: r.scene.hands > 0),
    ("no hand", lambda r: r.scene.hands == 0),
    ("turned 20 degrees or more", lambda r: _turned(r.scene.roll) >= 20),
    ("upright within 20 degrees", lambda r: _turned(r.scene.roll) < 20),
    ("tilted sideways (45 degrees or more off the picture's up)", lambda r: _turned(r.scene.tilt_azimuth) >= 45),
    ("motion blur", lambda r: r.scene.motion_blur > 0),
    (f"face-up steps up to {TIGHT_STEP} card heights", lambda r: r.scene.up_step <= TIGHT_STEP),
    ("runs removed", lambda r: bool(Position.from_spn(r.spn).removed)),
    ("an empty column", lambda r: any(not column.cards() for column in Position.from_spn(r.spn).columns)),
    ("column a or j empty", lambda r: any(not Position.from_spn(r.spn).columns[k].cards() for k in (0, 9))),
)
"""Named kinds of scene that ``--by-scene`` gives figures for (a table may be of several kinds)."""

BY_SCENE_FIGURES = {"card_accuracy": "readable", "card_accuracy_covered_index": "readable_covered",
                    "card_accuracy_suit_shown": "readable_suit_shown", "suit_hidden_share": "readable",
                    "down_count_accuracy": "columns", "exact_position": "full_view"}
"""The figures ``--by-scene`` gives, each with the count it is a share of (none when that is 0)."""


LATE_NODES = 800_000
"""Positions the solver may search for a winning line of a late table's deal (a deal it cannot win in
that many gives way to the next)."""


def late_position(seed: int) -> Position:
    """A position along the solver's winning line of a deal drawn from ``seed``, after its first run is
    removed and before the game is won."""
    rng = random.Random(seed * 104729 + 3)
    suits = rng.choice([1, 2, 4])
    while True:
        position = deal_position(rng.randrange(2**32), suits)
        result = solve(position, SolveLimits(seconds=None, nodes=LATE_NODES))
        later = []
        for text in result.moves if result.solved else ():
            position = apply_move(position, parse_move(text)[0]).after
            if position.removed and not position.is_won:
                later.append(position)
        if later:
            return rng.choice(later)


def measure(seeds: range, held_out_style: bool, models: Models, size: tuple[int, int] = (1280, 720),
            turn: int = 0, by_scene: bool = False, late: bool = False) -> dict[str, object]:
    total: dict[str, int] = {}
    groups: dict[str, dict[str, int]] = {name: {} for name, _ in SCENE_GROUPS}
    members = dict.fromkeys(groups, 0)
    for seed in seeds:
        rendering = render_seed(seed, held_out_style=held_out_style, width=size[0], height=size[1],
                                position=late_position(seed) if late else None)
        reading = _read(rendering.image, models, rendering.suits, turn)
        counts = score(reading, rendering.cards, rendering.spn, rendering.scene.fit_view, rendering.scene.hands)
        _add(total, counts)
        for name, belongs in SCENE_GROUPS:
            if belongs(rendering):
                _add(groups[name], counts)
                members[name] += 1
    figures: dict[str, object] = dict(summarise(total, len(seeds)))
    if by_scene:
        figures["by_scene"] = {name: _scene_figures(groups[name], members[name]) for name in groups if members[name]}
    return figures


def _scene_figures(total: dict[str, int], scenes: int) -> dict[str, object]:
    """The headline figures of one kind of scene, with its tables, cards and full views, and what became
    of its cards by how much of their index shows."""
    figures = summarise(total, scenes)
    counts = {**total, "readable_covered": total.get("readable", 0) - total.get("readable_whole", 0)}
    return {"scenes": scenes, "readable_cards": figures["readable_cards"], "full_views": figures["full_views"],
            **{key: round(float(figures[key]), 4) if counts.get(count) else None
               for key, count in BY_SCENE_FIGURES.items()},
            "outcomes_by_index_shown": figures["outcomes_by_index_shown"]}


def _add(total: dict[str, int], counts: dict[str, int]) -> None:
    for key, value in counts.items():
        total[key] = total.get(key, 0) + value


def _read(image: np.ndarray, models: Models, suits: int | None, turn: int = 0) -> TableReading | None:
    """The picture read after ``turn`` quarter turns anticlockwise, its cards mapped back into its pixels."""
    turned = np.ascontiguousarray(np.rot90(image, turn))
    try:
        reading = read_table(turned, models, suits=suits)
    except VisionError:
        return None
    if not turn:
        return reading
    size = (turned.shape[1], turned.shape[0])
    cards = []
    for card in reading.cards:
        box = card.index_box
        if box is not None:
            x, y, w, h = box
            cx, cy = _unturn(np.array([[x + w / 2, y + h / 2]]), turn, size)[0]
            w, h = (h, w) if turn % 2 else (w, h)
            box = (cx - w / 2, cy - h / 2, w, h)
        cards.append(card.with_(index_box=box, quad=_unturn(card.quad, turn, size),
                                polygon=_unturn(card.polygon, turn, size)))
    return replace(reading, cards=tuple(cards), image_size=(image.shape[1], image.shape[0]))


def _unturn(points: np.ndarray, turn: int, size: tuple[int, int]) -> np.ndarray:
    """Points (n, 2) of a picture given ``turn`` quarter turns (``np.rot90``; ``size`` its width and height)
    in the picture's own pixels."""
    x, y = points[:, 0], points[:, 1]
    width, height = size
    for _ in range(turn):
        x, y, width, height = height - y, x, height, width
    return np.stack([x, y], axis=1)


def measure_samples(models: Models, turn: int = 0) -> dict[str, float]:
    """The bundled stills, scored against the truth written beside each."""
    total: dict[str, int] = {}
    stills = json.loads((SAMPLES / "index.json").read_text())["stills"]
    for still in stills:
        truth = json.loads((SAMPLES / still["truth"]).read_text())
        image = cv2.imread(str(SAMPLES / still["image"]))
        cards = [CardTruth.from_json(card) for card in truth["cards"]]
        _add(total, score(_read(image, models, still["suits"], turn), cards, truth["spn"], truth["scene"]["fit_view"],
                          truth["scene"].get("hands", 0)))
    return summarise(total, len(stills))


def _timing_frames(count: int) -> list[Rendering]:
    return [render_seed(HELD_OUT_SEEDS + 5000 + k, width=1920, height=1080) for k in range(count)]


def _read_ms(frame: Rendering, models: Models) -> float:
    started = time.perf_counter()
    _read(frame.image, models, frame.suits)
    return (time.perf_counter() - started) * 1000


def timing(count: int, models: Models) -> float:
    frames = _timing_frames(count)
    times = [_read_ms(frame, models) for frame in frames[:1] + frames]
    return float(np.median(times[1:]))


def timing_against(count: int, models: Models, other: Models, passes: int = 5) -> dict[str, float]:
    """Median ms per frame of ``models`` and ``other``, each frame read by both back to back (the order
    alternating), ``passes`` times over: on a shared machine whose speed drifts, separate runs differ
    more than two sets of models do."""
    frames = _timing_frames(count)
    for pair in (models, other):
        _read_ms(frames[0], pair)
    ours: list[float] = []
    theirs: list[float] = []
    pairs = [(models, ours), (other, theirs)]
    for round_ in range(passes):
        for k, frame in enumerate(frames):
            for read_by, times in pairs[::-1] if (round_ + k) % 2 else pairs:
                times.append(_read_ms(frame, read_by))
    return {"ms_per_1080p_frame": round(float(np.median(ours)), 1),
            "other_ms_per_1080p_frame": round(float(np.median(theirs)), 1),
            "median_ratio_to_other": round(float(np.median(np.divide(ours, theirs))), 3)}


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
    parser.add_argument("--turn", type=int, choices=range(4), default=0,
                        help="quarter turns anticlockwise given to each table and still before it is read: 1 or "
                             "3 is a phone held upright or a camera at the table's side, 2 a camera across it "
                             "(default 0)")
    parser.add_argument("--late", action="store_true",
                        help="a late position in each table's scene: along the solver's winning line of a deal, "
                             "after its first run is removed (runs set aside, empty columns)")
    parser.add_argument("--by-scene", action="store_true",
                        help="also give the figures of each kind of scene (suit mode, hands, turned, tilted "
                             "sideways, motion blur, tight steps, runs removed, empty columns)")
    parser.add_argument("--timing", type=int, default=10, help="1920x1080 frames timed (default 10)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--time-against", type=Path, default=None,
                        help="another models folder: time each of the --timing frames with both, back to "
                             "back, five passes, and give both medians and their ratio frame by frame")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    models = Models.load(args.models, threads=args.threads)
    figures: dict[str, object] = {}
    if args.scenes:
        first = HELD_OUT_SEEDS + args.first
        figures["held_out_seeds"] = measure(range(first, first + args.scenes), False, models, args.size, args.turn,
                                            args.by_scene, args.late)
    if args.style_scenes:
        first = STYLE_SEEDS + args.first
        figures["unseen_style"] = measure(range(first, first + args.style_scenes), True, models, args.size,
                                         args.turn, args.by_scene, args.late)
    if args.samples:
        figures["bundled_stills"] = measure_samples(models, args.turn)
    if args.timing:
        if args.time_against is None:
            figures["ms_per_1080p_frame"] = round(timing(args.timing, models), 1)
        else:
            other = Models.load(args.time_against, threads=args.threads)
            figures.update(timing_against(args.timing, models, other))
        figures["threads"] = args.threads
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
