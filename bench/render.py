"""Stills per second at 1280x720, and a contact sheet of varied renders.

    python3 bench/render.py [--count N] [--workers W] [--sheet docs/contact-sheet.jpg]

Positions are random-play positions of numbered deals (start to late game);
every still gets its own random scene (deck, table, camera, light, hands).
The first pass warms the caches (faces, backs, surfaces); the figure is the
second pass. ``--workers`` renders in that many processes, as a training
data loader would.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import multiprocessing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from spider_vision.engine import deal_position  # noqa: E402
from spider_vision.synth import random_play, random_scene, render  # noqa: E402


def _positions(count: int):
    positions = []
    for number in range(count):
        start = deal_position(1000 + number, (1, 2, 4)[number % 3])
        steps = random_play(start, (0, 10, 25, 45)[number % 4], seed=number)
        positions.append(steps[-1].after if steps else start)
    return positions


def _render_many(seeds: list[int]) -> int:
    positions = _positions(16)
    for seed in seeds:
        render(positions[seed % len(positions)], random_scene(seed, 1280, 720), seed)
    return len(seeds)


def _timed(count: int, workers: int) -> tuple[float, float | None]:
    """Stills per second of wall-clock time, and per second of this process's CPU time (one worker)."""
    seeds = list(range(count))
    if workers <= 1:
        _render_many(seeds)  # warm the caches
        start, cpu = time.perf_counter(), time.process_time()
        _render_many(seeds)
        return count / (time.perf_counter() - start), count / (time.process_time() - cpu)
    # Each worker warms its own caches on all the scenes, then all start together.
    barrier = multiprocessing.Barrier(workers + 1)
    processes = [
        multiprocessing.Process(target=_warm_then_render, args=(seeds, seeds[k::workers], barrier))
        for k in range(workers)
    ]
    for process in processes:
        process.start()
    barrier.wait()
    start = time.perf_counter()
    for process in processes:
        process.join()
    return count / (time.perf_counter() - start), None


def _warm_then_render(warm: list[int], chunk: list[int], barrier) -> None:
    _render_many(warm)
    barrier.wait()
    _render_many(chunk)


def contact_sheet(path: Path, columns: int = 4, rows: int = 4, tile: tuple[int, int] = (480, 270)) -> None:
    """A grid of varied 1280x720 renders, shrunk to tiles."""
    positions = _positions(columns * rows)
    tiles = []
    for seed in range(columns * rows):
        rendering = render(positions[seed], random_scene(500 + seed, 1280, 720), 500 + seed)
        tiles.append(cv2.resize(rendering.image, tile, interpolation=cv2.INTER_AREA))
    grid = np.vstack([np.hstack(tiles[r * columns : (r + 1) * columns]) for r in range(rows)])
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), grid, [cv2.IMWRITE_JPEG_QUALITY, 85])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=64, help="stills per pass (default 64)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--sheet", type=Path, help="also write a 4x4 contact sheet (JPEG or PNG) here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rate, cpu_rate = _timed(args.count, args.workers)
    print(f"{rate:.1f} stills/s at 1280x720 ({args.count} stills, {args.workers} worker(s), "
          f"{os.cpu_count()} CPUs, load average {load:.2f} before the run)")
    if cpu_rate is not None:
        print(f"{cpu_rate:.1f} stills per CPU-second (what one unshared core would give)")
    if args.sheet:
        contact_sheet(args.sheet)
        print(f"contact sheet: {args.sheet}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
