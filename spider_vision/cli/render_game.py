"""``spider-vision render-game --deal N --suits S --out game.mp4``: a whole game on video, with truth."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from spider_vision.cli.common import EXIT_OK, CommandError, suits_arg, whole_number_arg
from spider_vision.engine import deal_position
from spider_vision.synth import random_play, random_scene, render_game, style_names

logger = logging.getLogger(__name__)


_count = whole_number_arg(0)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``render-game`` command."""
    parser = commands.add_parser(
        "render-game",
        help="render a game (random play from a numbered deal) as a video with ground truth",
        description="Play a numbered deal at random (with illegal moves and blocked deals inserted on "
        "request) and render it as a video in which a hand makes each move. Writes <stem>.events.jsonl "
        "(a game log) and <stem>.frames.jsonl.gz (per-frame truth) beside the video.",
    )
    parser.add_argument("--deal", type=int, required=True, metavar="N", help="deal number (0 <= N < 2**32)")
    parser.add_argument("--suits", type=suits_arg, required=True, metavar="S", help="1, 2 or 4")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE", help="video to write (.mp4 or .avi)")
    parser.add_argument("--moves", type=_count, default=20, metavar="M", help="moves to play (default 20)")
    parser.add_argument("--illegal", type=_count, default=0, metavar="K", help="illegal moves to insert")
    parser.add_argument("--blocked-deals", type=_count, default=0, metavar="K",
                        help="deals with an empty column to insert (when the game offers the chance)")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="play and scene seed (default 0)")
    parser.add_argument("--style", metavar="NAME", help="card design (see `render --help`)")
    parser.add_argument("--width", type=int, default=960, help="video width (default 960)")
    parser.add_argument("--height", type=int, default=540, help="video height (default 540)")
    parser.add_argument("--fps", type=float, default=12.0, help="frames per second (default 12)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play, render and write the video and its truth."""
    if args.out.suffix.lower() not in (".mp4", ".avi"):
        raise CommandError(f"--out: '{args.out}' must end in .mp4 (mp4v) or .avi (MJPG)")
    if not args.out.parent.is_dir():
        raise CommandError(f"--out: the folder '{args.out.parent}' does not exist")
    if not 0 <= args.deal < 2**32:
        raise CommandError(f"--deal: {args.deal} is not between 0 and 2**32 - 1")
    if not 64 <= args.width <= 4096 or not 64 <= args.height <= 4096 or args.width % 2 or args.height % 2:
        raise CommandError("--width and --height must be even and between 64 and 4096 pixels")
    if not 1 <= args.fps <= 60:
        raise CommandError("--fps must be between 1 and 60")
    overrides = {}
    if args.style is not None:
        if args.style not in style_names():
            raise CommandError(f"--style: unknown card style '{args.style}'")
        overrides["deck"] = args.style
    start = deal_position(args.deal, args.suits)
    steps = random_play(start, args.moves, args.seed, illegal=args.illegal, blocked_deals=args.blocked_deals)
    scene = random_scene(args.seed, args.width, args.height, **overrides)
    try:
        video = render_game(start, steps, args.out, scene=scene, seed=args.seed, fps=args.fps, deal=args.deal)
    except OSError as error:
        raise CommandError(str(error), exit_code=1) from None
    logger.info("wrote %s (%d frames), %s and %s", video.video, video.frame_count, video.events, video.frames)
    return EXIT_OK
