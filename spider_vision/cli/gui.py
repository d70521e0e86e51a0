"""``spider-vision gui [SOURCE]``: opens the window (the ``gui`` package, PySide6).

SOURCE is a camera number, a video file, a folder of pictures or one picture;
without it a camera is tried and the bundled sample video plays when none
opens. ``--log FILE`` opens a game log in replay mode. Qt is imported only
when the window is really opened, so the library and the other commands never
load it. No display: one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from spider_vision.cli.common import EXIT_FAILED, CommandError, whole_number_arg

__all__ = ["display_problem", "open_window", "register", "run"]

_PROBE = "from PySide6.QtWidgets import QApplication; QApplication([])"
_PROBE_SECONDS = 30


def display_problem(*, visible: bool = False) -> str | None:
    """Why no window can be shown here, in a few words, or None when one can.

    On Linux a window needs DISPLAY or WAYLAND_DISPLAY, unless QT_QPA_PLATFORM
    names a platform (``offscreen`` draws a window nobody sees, which
    ``visible`` refuses). Then a throw-away process checks that Qt really opens
    its platform, since Qt aborts the process it fails in.
    """
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    screen = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if sys.platform.startswith("linux") and not screen and (visible or not platform):
        return "no display was found"
    if visible and platform.split(":")[0] in ("offscreen", "minimal"):
        return f"Qt is set to draw offscreen (QT_QPA_PLATFORM={platform})"
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, timeout=_PROBE_SECONDS)
    except (OSError, subprocess.TimeoutExpired):
        return "Qt could not be started"
    if done.returncode != 0:
        if b"xcb-cursor0" in done.stderr:
            return "Qt cannot open a window here: its X11 plugin needs the system library libxcb-cursor0"
        return "Qt cannot open a window here"
    return None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``gui`` command."""
    parser = commands.add_parser(
        "gui",
        help="open the window: live table, board, moves, warnings, hints, replay",
        description="Open the Spider Vision window on a camera, a video, a folder of pictures or one "
        "picture (default: the first camera, else the bundled sample video), or on a game log with --log.",
    )
    parser.add_argument("source", nargs="?", metavar="SOURCE",
                        help="camera number, video file, folder of pictures or picture")
    parser.add_argument("--log", type=Path, metavar="FILE", help="open a game log in replay mode")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="play videos X times their speed (0: as fast as they can be read)")
    parser.add_argument("--grab", type=Path, metavar="PNG",
                        help="save a picture of the window after --frames frames, then quit")
    parser.add_argument("--frames", type=whole_number_arg(1, "frames"), default=120, metavar="N",
                        help="frames before --grab (default 120)")
    parser.set_defaults(run=run)


def open_window(source: str | None = None, *, log: Path | None = None, speed: float = 1.0,
                grab: Path | None = None, frames: int = 120) -> int:
    """Run the window's event loop until it is closed; its exit code."""
    from gui.app import run as run_app

    return run_app(source, log=str(log) if log is not None else None, speed=speed, grab=grab, frames=frames)


def run(args: argparse.Namespace) -> int:
    """Check the arguments and the display, then open the window."""
    source = args.source
    if source is not None and not source.isdigit() and not Path(source).exists():
        raise CommandError(f"SOURCE: {source} does not exist (give a camera number, a video, a folder or a picture)")
    if args.log is not None and not args.log.is_file():
        raise CommandError(f"--log: {args.log} is not a file")
    if args.speed < 0:
        raise CommandError("--speed must not be negative")
    if args.grab is not None and not args.grab.parent.is_dir():
        raise CommandError(f"--grab: the folder {args.grab.parent} does not exist")
    problem = display_problem()
    if problem is not None:
        raise CommandError(f"cannot open the window: {problem} (the terminal commands still work)", EXIT_FAILED)
    return open_window(source, log=args.log, speed=args.speed, grab=args.grab, frames=args.frames)
