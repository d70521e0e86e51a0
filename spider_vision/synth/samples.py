"""Regenerate ``sample_images/``: rendered stills with their truth and one short game video.

Run ``python3 -m spider_vision.synth.samples [FOLDER]`` from the repository
root. The demo and the tests use these files; everything follows from the
fixed list below, so the folder is reproducible.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2

from spider_vision.engine import Position, deal_position
from spider_vision.synth.render import render
from spider_vision.synth.scene import random_scene
from spider_vision.synth.video import random_play, render_game

__all__ = ["SAMPLE_STILLS", "SampleStill", "make_samples", "sample_position"]

logger = logging.getLogger(__name__)

JPEG_QUALITY = 90


@dataclass(frozen=True)
class SampleStill:
    """One sample still: a deal played for some random moves, rendered with a seed and optional fixed choices."""

    name: str
    deal: int
    suits: int
    moves: int
    seed: int
    overrides: tuple[tuple[str, object], ...] = ()


SAMPLE_STILLS = (
    SampleStill("start-4suit-kennard", 1, 4, 0, 11, (("deck", "kennard-2color"), ("hands", 0))),
    SampleStill("start-2suit-bigindex", 2, 2, 0, 12, (("deck", "kennard-4color-bf"), ("hands", 0))),
    SampleStill("early-1suit", 3, 1, 8, 13, ()),
    SampleStill("early-4suit-proc", 4, 4, 10, 14, (("deck", "proc-5"),)),
    SampleStill("mid-2suit-wood", 5, 2, 25, 15, (("surface", "wood"),)),
    SampleStill("mid-4suit-oblique", 6, 4, 25, 16, (("tilt", 33.0),)),
    SampleStill("mid-1suit-hand", 7, 1, 30, 17, (("hands", 1),)),
    SampleStill("mid-2suit-partial", 8, 2, 30, 18, (("fit_view", False), ("card_px", 230.0 * 720 / 1080),
                                                    ("view_offset", (0.2, 0.1)))),
    SampleStill("late-4suit-glare", 9, 4, 45, 19, (("glare", 0.6), ("glare_at", (0.45, 0.4)))),
    SampleStill("late-2suit-gingham", 10, 2, 45, 20, (("surface", "gingham"), ("deck", "proc-22"))),
    SampleStill("late-1suit-blur", 11, 1, 60, 21, (("defocus", 1.2), ("jpeg_quality", 55))),
    SampleStill("rotated-2suit", 12, 2, 20, 22, (("roll", 25.0),)),
)


@dataclass(frozen=True)
class SampleVideo:
    """The sample game: a deal played for some random moves (``illegal`` of them breaking a rule), filmed."""

    deal: int
    suits: int
    moves: int
    seed: int
    illegal: int
    width: int
    height: int
    fps: float


VIDEO = SampleVideo(deal=3, suits=2, moves=14, seed=5, illegal=2, width=960, height=540, fps=8.0)


def sample_position(deal: int, suits: int, moves: int, seed: int) -> Position:
    """The position after ``moves`` random-play steps from a numbered deal (fully known)."""
    start = deal_position(deal, suits)
    steps = random_play(start, moves, seed)
    return steps[-1].after if steps else start


def make_samples(folder: Path) -> list[Path]:
    """Write every sample into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    index = []
    for sample in SAMPLE_STILLS:
        position = sample_position(sample.deal, sample.suits, sample.moves, sample.seed)
        scene = random_scene(sample.seed, 1280, 720, **dict(sample.overrides))
        rendering = render(position, scene, sample.seed)
        image_path = folder / f"{sample.name}.jpg"
        cv2.imwrite(str(image_path), rendering.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        truth_path = folder / f"{sample.name}.json"
        truth_path.write_text(json.dumps(rendering.to_json(), separators=(",", ":")) + "\n")
        written += [image_path, truth_path]
        index.append({"name": sample.name, "image": image_path.name, "truth": truth_path.name,
                      "deal": sample.deal, "suits": sample.suits, "moves": sample.moves, "seed": sample.seed,
                      "spn": position.spn()})
        logger.info("rendered %s", sample.name)
    start = deal_position(VIDEO.deal, VIDEO.suits)
    steps = random_play(start, VIDEO.moves, VIDEO.seed, illegal=VIDEO.illegal)
    scene = random_scene(VIDEO.seed, VIDEO.width, VIDEO.height, deck="kennard-2color")
    video = render_game(start, steps, folder / "game.mp4", scene=scene, seed=VIDEO.seed, fps=VIDEO.fps,
                        deal=VIDEO.deal)
    written += [video.video, video.events, video.frames]
    manifest = {"stills": index, "video": {**asdict(VIDEO), "file": video.video.name, "events": video.events.name,
                                          "frames": video.frames.name, "frame_count": video.frame_count}}
    (folder / "index.json").write_text(json.dumps(manifest, indent=1) + "\n")
    written.append(folder / "index.json")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the bundled sample renders.")
    parser.add_argument("folder", nargs="?", default="sample_images", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    files = make_samples(args.folder)
    total = sum(path.stat().st_size for path in files)
    print(f"wrote {len(files)} files, {total / 1e6:.1f} MB, in {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
