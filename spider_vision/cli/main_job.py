"""``spider-vision`` with no command: the main job.

With a display it opens the window (``spider-vision gui``): the first camera
when one opens, else the bundled sample video. Without one (no DISPLAY or
WAYLAND_DISPLAY on Linux, or Qt cannot open its platform) it says so in one
line and replays the bundled sample game log in the terminal: each event,
every rule break with its reason, and before each move the hint the engine
gives for the position the player saw.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import spider_vision
from spider_vision.cli import gui
from spider_vision.cli.common import EXIT_FAILED, CommandError
from spider_vision.cli.replay import load_log, report
from spider_vision.gamelog import MoveEvent, describe, replay
from spider_vision.hint import HintLimits, HintSession

SAMPLE_LOG = Path("sample_images") / "sample_game.jsonl"
HINT_SECONDS = 0.1


def sample_path() -> Path:
    """The bundled sample log, beside the package (the repository root)."""
    return Path(spider_vision.__file__).resolve().parent.parent / SAMPLE_LOG


def run(args: argparse.Namespace) -> int:
    """Open the window when there is a display; otherwise replay the sample game in the terminal."""
    problem = gui.display_problem(visible=True)
    if problem is None:
        return gui.open_window()
    return run_in_terminal(problem)


def run_in_terminal(problem: str) -> int:
    """Replay the sample game in the terminal with the hints; ``problem`` says why there is no window."""
    path = sample_path()
    if not path.is_file():
        raise CommandError(
            f"the sample game {path} is missing; regenerate it with "
            f"python3 -m spider_vision.gamelog.sample {SAMPLE_LOG}",
            EXIT_FAILED,
        )
    print(
        f"Spider Vision runs in the terminal ({problem}, so the window cannot open): "
        f"replaying the sample game {SAMPLE_LOG} with its rule breaks and hints."
    )
    result = replay(load_log(path))
    session = HintSession(HintLimits(movetime=HINT_SECONDS))
    before = result.header.start
    for entry in result.entries:
        event = entry.event
        text = f"line {entry.line:>3}  seq {event.seq:>3}  t {event.t:>8.3f}  {describe(event)}"
        if entry.flag:
            text = f"{text}  !"
        if isinstance(event, MoveEvent):
            advice = session.hint(before)
            text = f"{text}  [hint: {advice.move or 'none'}, {advice.reason}]"
        print(text)
        before = entry.position
    for entry in result.flags:
        print(f"flag at line {entry.line}: {entry.flag}")
    return report(path, result)
