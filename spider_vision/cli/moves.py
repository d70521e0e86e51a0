"""``spider-vision moves "SPN"``: print every legal move of a position, one per line."""

from __future__ import annotations

import argparse

from spider_vision.cli.common import EXIT_OK, add_variant_args, position_arg, variant_from
from spider_vision.engine import legal_moves


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``moves`` command."""
    parser = commands.add_parser(
        "moves",
        help="print every legal move of a position",
        description="Print every legal move of a position given in SPN, one per line "
        "(tableau moves by source, target and count, then the deal). Prints nothing "
        "when no move is legal.",
    )
    parser.add_argument("position", type=position_arg, metavar="SPN", help="the position")
    add_variant_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the moves."""
    for move in legal_moves(args.position, variant_from(args)):
        print(move)
    return EXIT_OK
