"""``spider-vision`` with no command: the main job.

With a display it opens the window (``spider-vision gui``): the first camera
when one opens, else the bundled sample video. Without one (no DISPLAY or
WAYLAND_DISPLAY on Linux, or Qt cannot open its platform) it says so in one
line and runs the same pipeline on the bundled sample video in the terminal:
the tracker reads the table whenever it is at rest and prints each event as it
writes it to a game log, every rule break with its reason, and before each
move the hint the engine gives for the position the player saw. The log is
checked with the replayer at the end.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import spider_vision
from spider_vision.cli import gui
from spider_vision.cli.common import EXIT_FAILED, CommandError
from spider_vision.cli.replay import load_log, report
from spider_vision.cli.track import print_update
from spider_vision.engine import Position
from spider_vision.gamelog import MoveEvent, describe, replay
from spider_vision.hint import HintLimits, HintSession
from spider_vision.tracking import SourceError, Tracker, open_source
from spider_vision.vision import ModelMissingError, Models

SAMPLE_VIDEO = Path("sample_images") / "game.mp4"
HINT_SECONDS = 0.1


def sample_path() -> Path:
    """The bundled sample video, beside the package (the repository root)."""
    return Path(spider_vision.__file__).resolve().parent.parent / SAMPLE_VIDEO


def log_path() -> Path:
    """Where the terminal run writes the sample game's log."""
    return Path(tempfile.gettempdir()) / "spider-vision-sample.jsonl"


def run(args: argparse.Namespace) -> int:
    """Open the window when there is a display; otherwise track the sample video in the terminal."""
    problem = gui.display_problem(visible=True)
    if problem is None:
        return gui.open_window()
    return run_in_terminal(problem)


def run_in_terminal(problem: str) -> int:
    """Track the sample video in the terminal with the hints; ``problem`` says why there is no window."""
    path = sample_path()
    try:
        source = open_source(path)
    except SourceError as error:
        raise CommandError(f"the sample video {path} cannot be played: {error}", EXIT_FAILED) from None
    try:
        models = Models.load()
    except ModelMissingError as error:
        source.close()
        raise CommandError(str(error), EXIT_FAILED) from None
    print(
        f"Spider Vision runs in the terminal ({problem}, so the window cannot open): "
        f"tracking the sample video {SAMPLE_VIDEO} with its rule breaks and hints."
    )
    log = log_path()
    log.unlink(missing_ok=True)
    tracker = Tracker(models, log_path=log, source_name="video")
    session = HintSession(HintLimits(movetime=HINT_SECONDS))
    printed = 0
    framed: set[str] = set()
    try:
        with source:
            for frame in source:
                before = tracker.position
                update = tracker.feed(frame)
                printed = _print_events(tracker, printed, before, session)
                print_update(frame.t, update, framed)
    finally:
        tracker.close()
    if tracker.position is None:
        raise CommandError("the sample video never showed the table at rest", EXIT_FAILED)
    result = replay(load_log(log))
    print(f"game log: {log}")
    return report(log, result)


def _print_events(tracker: Tracker, printed: int, before: Position | None, session: HintSession) -> int:
    """Print the events written since the first ``printed``, a hint before each move."""
    for event in tracker.history[printed:]:
        text = f"t {event.t:8.3f}  {describe(event)}"
        if isinstance(event, MoveEvent) and before is not None:
            advice = session.hint(before)
            text = f"{text}  [hint: {advice.move or 'none'}, {advice.reason}]"
            before = Position.from_spn(event.after)
        print(text, flush=True)
    return len(tracker.history)
