"""``spider-vision deal N --suits S``: print the full-information SPN of a numbered deal."""

from __future__ import annotations

import argparse

from spider_vision.cli.common import EXIT_OK, CommandError, suits_arg
from spider_vision.engine import NotationError, deal_position


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``deal`` command."""
    parser = commands.add_parser(
        "deal",
        help="print the starting position of a numbered deal",
        description="Print the full-information SPN of deal N (0 <= N < 2**32).",
    )
    parser.add_argument("number", type=int, metavar="N", help="deal number")
    parser.add_argument("--suits", type=suits_arg, required=True, metavar="S", help="1, 2 or 4")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the deal."""
    try:
        print(deal_position(args.number, args.suits).spn())
    except NotationError as error:
        raise CommandError(str(error)) from None
    return EXIT_OK
