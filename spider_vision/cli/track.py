"""``spider-vision track SOURCE --log game.jsonl``: follow a physical game and log it.

SOURCE is a camera index (``0``), a video file or a folder of pictures. Each
event is printed as it is written to the log (appended and flushed at once);
rule breaks and doubtful reads are printed with ``!``, advice on the
camera's framing (cards too small, columns off the picture) once as a note.
Exit codes: 0 the source ended; 1 the models are missing or the source was
lost mid-game (the log written so far stays intact); 2 a source that cannot
be opened or bad arguments.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Iterable

from spider_vision.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    CommandError,
    add_variant_args,
    suits_arg,
    variant_from,
)
from spider_vision.gamelog import describe
from spider_vision.tracking import (
    CameraSource,
    ImageFolderSource,
    SourceError,
    SourceLostError,
    Tracker,
    TrackUpdate,
    open_source,
)
from spider_vision.vision import ModelMissingError, Models
from spider_vision.vision.framing import FRAMING_PHRASES

__all__ = ["framing_notes", "print_update", "register", "run"]

logger = logging.getLogger(__name__)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``track`` command."""
    parser = commands.add_parser(
        "track",
        help="follow a game from a camera, video or folder of pictures and write its log",
        description="Follow a physical Spider game: read the table whenever it is at rest, infer the "
        "moves between rests, flag rule breaks with the rules' reason and write the game log "
        "(replayable with 'spider-vision replay'). SOURCE is a camera index, a video file or a "
        "folder of pictures (in name order). Exit codes: 0 done, 1 models missing or source lost "
        "mid-game (the log so far is kept), 2 source cannot be opened or bad arguments.",
    )
    parser.add_argument("source", metavar="SOURCE", help="camera index (0, 1, ...), video file or folder of images")
    parser.add_argument("--log", type=Path, required=True, metavar="GAME.jsonl", help="the game log to write")
    parser.add_argument("--suits", type=suits_arg, metavar="S", help="suit mode 1, 2 or 4 (default: inferred)")
    parser.add_argument("--fps", type=float, metavar="F",
                        help="frame rate of the source (a folder of pictures: default 1 per second)")
    parser.add_argument("--models", type=Path, metavar="DIR", help="folder of the ONNX models (default: models/)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    add_variant_args(parser)
    parser.set_defaults(run=run)


def _source_kind(source: object) -> str:
    if isinstance(source, CameraSource):
        return "camera"
    if isinstance(source, ImageFolderSource):
        return "images"
    return "video"


def framing_notes(warnings: Iterable[str], shown: set[str]) -> list[str]:
    """The framing warnings of a reading (cards too small, columns off the picture) not yet in ``shown``.

    A tracking command prints each kind once: the advice does not change from
    one frame to the next. ``shown`` is updated.
    """
    notes = []
    for warning in warnings:
        kinds = {phrase for phrase in FRAMING_PHRASES if phrase in warning}
        if kinds and not kinds <= shown:
            shown.update(kinds)
            notes.append(warning)
    return notes


def print_update(t: float, update: TrackUpdate, shown: set[str]) -> None:
    """Print a frame's flags and the framing advice not printed before (``framing_notes``)."""
    for flag in update.flags:
        print(f"t {t:8.3f}  ! {flag.kind}: {flag.message}", flush=True)
    if update.reading is not None:
        for note in framing_notes(update.reading.warnings, shown):
            print(f"t {t:8.3f}  note: {note}", flush=True)


def _print_events(tracker: Tracker, printed: int) -> int:
    """Print the events written since the first ``printed``; returns how many are printed now."""
    for event in tracker.history[printed:]:
        print(f"t {event.t:8.3f}  {describe(event)}", flush=True)
    return len(tracker.history)


def run(args: argparse.Namespace) -> int:
    """Track the source to its end and write the log."""
    if args.fps is not None and args.fps <= 0:
        raise CommandError(f"--fps must be positive, not {args.fps:g}")
    folder = args.log.parent if str(args.log.parent) else Path(".")
    if not folder.is_dir():
        raise CommandError(f"--log: the folder '{folder}' does not exist")
    if args.log.is_dir():
        raise CommandError(f"--log: '{args.log}' is a folder")
    try:
        source = open_source(args.source, fps=args.fps)
    except SourceError as error:
        raise CommandError(f"cannot open {args.source}: {error}") from None
    try:
        models = Models.load(args.models)
    except ModelMissingError as error:
        source.close()
        raise CommandError(str(error), EXIT_FAILED) from None
    tracker = Tracker(models, suits=int(args.suits.value) if args.suits else None,
                      variant=variant_from(args), log_path=args.log, source_name=_source_kind(source))
    started = time.perf_counter()
    frames = 0
    printed = 0
    framed: set[str] = set()
    lost: SourceLostError | None = None
    try:
        with source:
            while True:
                try:
                    frame = source.read()
                except SourceLostError as error:
                    lost = error
                    break
                if frame is None:
                    break
                frames += 1
                update = tracker.feed(frame)
                if not args.quiet:
                    printed = _print_events(tracker, printed)
                    print_update(frame.t, update, framed)
    finally:
        tracker.close()
    if not args.quiet:
        _print_events(tracker, printed)
    elapsed = max(time.perf_counter() - started, 1e-9)
    moves = tracker.game.moves_made if tracker.game is not None else 0
    if tracker.position is None:
        print(f"spider-vision: warning: the table was never seen at rest in {frames} frames; "
              "no log was written", file=sys.stderr)
    print(f"{frames} frames ({frames / elapsed:.1f} per second), {moves} moves, "
          f"{len(tracker.history)} events" + (f"; log {args.log}" if tracker.position is not None else ""))
    if lost is not None:
        raise CommandError(f"{source.name} was lost after {frames} frames: {lost}; the log so far is kept",
                           EXIT_FAILED)
    return EXIT_OK
