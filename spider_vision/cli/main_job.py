"""``spider-vision`` with no command: the main job.

Until the camera window exists, it says so and replays the bundled sample
game log in the terminal, printing each move and every rule break with its
reason.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import spider_vision
from spider_vision.cli.common import EXIT_FAILED, CommandError
from spider_vision.cli.replay import load_log, print_replay, report
from spider_vision.gamelog import replay

SAMPLE_LOG = Path("sample_images") / "sample_game.jsonl"


def sample_path() -> Path:
    """The bundled sample log, beside the package (the repository root)."""
    return Path(spider_vision.__file__).resolve().parent.parent / SAMPLE_LOG


def run(args: argparse.Namespace) -> int:
    """Replay the sample game in the terminal."""
    path = sample_path()
    if not path.is_file():
        raise CommandError(
            f"the sample game {path} is missing; regenerate it with "
            f"python3 -m spider_vision.gamelog.sample {SAMPLE_LOG}",
            EXIT_FAILED,
        )
    print(
        "The camera window is not built yet and there is no display here, so Spider Vision "
        f"runs in the terminal: replaying the sample game {SAMPLE_LOG}."
    )
    result = replay(load_log(path))
    print_replay(result, positions=False)
    for entry in result.flags:
        print(f"flag at line {entry.line}: {entry.flag}")
    return report(path, result)
