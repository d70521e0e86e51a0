"""``spider-vision`` with no command: the main job.

Until the camera window exists, it says so and replays the bundled sample
game log in the terminal: each event, every rule break with its reason, and
before each move the hint the engine gives for the position the player saw.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import spider_vision
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
    """Replay the sample game in the terminal with the hints."""
    path = sample_path()
    if not path.is_file():
        raise CommandError(
            f"the sample game {path} is missing; regenerate it with "
            f"python3 -m spider_vision.gamelog.sample {SAMPLE_LOG}",
            EXIT_FAILED,
        )
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    where = "" if display else "no display was found and "
    print(
        f"Spider Vision runs in the terminal ({where}the camera window is not built yet): "
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
