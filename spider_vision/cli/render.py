"""``spider-vision render "SPN" --out img.png``: a photo-like still of a position with its ground truth."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from spider_vision.cli.common import EXIT_OK, CommandError, position_arg
from spider_vision.synth import random_scene, render, style_names

logger = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``render`` command."""
    parser = commands.add_parser(
        "render",
        help="render a position as a photo-like picture with ground truth",
        description="Render a position (SPN) as a synthetic photo of a table. The ground truth "
        "(every card's place, quadrilateral, visible part and corner index box) is written as JSON "
        "beside the picture.",
    )
    parser.add_argument("position", type=position_arg, metavar="SPN", help="the position in SPN")
    parser.add_argument("--out", required=True, type=Path, metavar="FILE", help="picture to write (.png or .jpg)")
    parser.add_argument("--truth", type=Path, metavar="FILE", help="ground-truth JSON (default: beside the picture)")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="scene and jitter seed (default 0)")
    parser.add_argument("--style", metavar="NAME", help="card design: kennard-2color, kennard-4color, "
                        "kennard-2color-bf, kennard-4color-bf or proc-0 .. proc-63 (default: drawn from the seed)")
    parser.add_argument("--width", type=int, default=1280, help="picture width (default 1280)")
    parser.add_argument("--height", type=int, default=720, help="picture height (default 720)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Render and write the picture and its truth."""
    if args.out.suffix.lower() not in IMAGE_SUFFIXES:
        raise CommandError(f"--out: '{args.out}' is not a picture file name ({', '.join(IMAGE_SUFFIXES)})")
    if not 64 <= args.width <= 8192 or not 64 <= args.height <= 8192:
        raise CommandError("--width and --height must be between 64 and 8192 pixels")
    overrides = {}
    if args.style is not None:
        if args.style not in style_names():
            raise CommandError(f"--style: unknown card style '{args.style}' (kennard-2color, kennard-4color, "
                               "kennard-2color-bf, kennard-4color-bf, proc-0 .. proc-63)")
        overrides["deck"] = args.style
    if not args.out.parent.is_dir():
        raise CommandError(f"--out: the folder '{args.out.parent}' does not exist")
    scene = random_scene(args.seed, args.width, args.height, **overrides)
    rendering = render(args.position, scene, args.seed)
    try:
        truth = rendering.save(args.out, args.truth)
    except OSError as error:
        raise CommandError(str(error), exit_code=1) from None
    logger.info("wrote %s and %s (%d cards)", args.out, truth, len(rendering.cards))
    return EXIT_OK
