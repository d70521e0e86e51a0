"""``spider-vision engine``: the hint engine over a line protocol on stdin and stdout."""

from __future__ import annotations

import argparse
import sys

from spider_vision.cli.common import EXIT_OK
from spider_vision.hint.protocol import EngineProtocol


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``engine`` command."""
    parser = commands.add_parser(
        "engine",
        help="answer hint requests on stdin, one per line (see README)",
        description="Read requests from stdin, one per line (position <SPN>, seen <card> ..., "
        "go [nodes <n>] [movetime <ms>], newgame, isready, quit) and answer on stdout.",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve requests until ``quit`` or the end of input."""
    del args
    protocol = EngineProtocol()
    for line in sys.stdin:
        for answer in protocol.handle(line):
            print(answer, flush=True)
        if protocol.finished:
            break
    return EXIT_OK
