"""Entry point of ``spider-vision``: builds the parser from the command modules and runs one.

With no command it runs the main job (``spider_vision.cli.main_job``).

Bad input is one line on stderr and exit code 2; an expected failure (an
illegal move, an inconsistent log) is exit code 1; never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Sequence

import cv2

from spider_vision import __version__
from spider_vision.cli import (
    analyze,
    apply,
    calibrate,
    deal,
    engine,
    gui,
    hint,
    main_job,
    moves,
    play,
    render,
    render_game,
    replay,
    solve,
    track,
    winnable,
)
from spider_vision.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, CommandError

COMMANDS = [
    deal,
    moves,
    apply,
    replay,
    play,
    solve,
    winnable,
    hint,
    engine,
    render,
    render_game,
    analyze,
    calibrate,
    track,
    gui,
]


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser with every command."""
    parser = _Parser(
        prog="spider-vision",
        description="Spider Solitaire from a camera: rules engine, solver, vision and tracking.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.register(commands)
    return parser


def _quiet_opencv() -> None:
    """Keep OpenCV's and FFmpeg's own warnings off stderr: a file it cannot read gets our one line,
    not "moov atom not found" or "PNG input buffer is incomplete" before it. ``-v`` keeps them."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET, read when a video is opened
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.verbose:
        _quiet_opencv()
    run = getattr(args, "run", None)
    if run is None:
        run = main_job.run
    try:
        return int(run(args))
    except CommandError as error:
        print(f"spider-vision: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("spider-vision: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (``| head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
