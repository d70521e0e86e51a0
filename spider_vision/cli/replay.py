"""``spider-vision replay LOG``: replay a game log and check it against the rules.

Prints each event with its line and the position after it. Exit 0 when the
log is consistent, 1 at the first event that does not match (named with its
line on stderr). A damaged last line (a crash while writing) is a warning;
the events before it are replayed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spider_vision.cli.common import EXIT_FAILED, EXIT_OK, CommandError
from spider_vision.gamelog import GameLog, LogFormatError, Replay, describe, read_log, replay


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` command."""
    parser = commands.add_parser(
        "replay",
        help="replay a game log and check it against the rules",
        description="Replay a game log (JSON Lines, see README) from its start, printing each "
        "event with its line number and the position after it. Exit 0 when every event "
        "matches the rules and every logged position, 1 at the first that does not.",
    )
    parser.add_argument("log", type=Path, metavar="LOG", help="the game log file")
    parser.set_defaults(run=run)


def load_log(path: Path) -> GameLog:
    """Read a log for a command: unreadable files and non-logs are bad input (exit 2)."""
    try:
        return read_log(path)
    except IsADirectoryError:
        raise CommandError(f"cannot read {path}: it is a directory") from None
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    except LogFormatError as error:
        raise CommandError(f"{path}: {error}") from None


def print_replay(result: Replay, *, positions: bool) -> None:
    """Print every replayed event; rule breaks are marked with ``!``."""
    for entry in result.entries:
        event = entry.event
        text = f"line {entry.line:>3}  seq {event.seq:>3}  t {event.t:>8.3f}  {describe(event)}"
        if entry.flag:
            text = f"{text}  !"
        print(f"{text}  ->  {entry.position.spn()}" if positions else text)


def report(path: Path, result: Replay) -> int:
    """Say how the replay went (summary on stdout, problems on stderr); return the exit code."""
    if result.damage is not None and result.damage.last:
        print(
            f"spider-vision: warning: {path}: {result.damage}; it is ignored and the events "
            "before it are replayed",
            file=sys.stderr,
        )
    if result.mismatch is not None:
        print(f"spider-vision: {path}: {result.mismatch}", file=sys.stderr)
        return EXIT_FAILED
    flags = len(result.flags)
    print(
        f"consistent: {len(result.entries)} events, {flags} rule "
        f"break{'s' if flags != 1 else ''}, final position {result.position.spn()}"
    )
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Replay the log."""
    result = replay(load_log(args.log))
    print_replay(result, positions=True)
    return report(args.log, result)
