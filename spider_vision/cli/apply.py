"""``spider-vision apply "SPN" MOVE [MOVE ...]``: print the position after some moves."""

from __future__ import annotations

import argparse

from spider_vision.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    CommandError,
    add_variant_args,
    position_arg,
    variant_from,
)
from spider_vision.engine import IllegalMoveError, NotationError, apply_move, parse_move, resolve_move


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``apply`` command."""
    parser = commands.add_parser(
        "apply",
        help="print the position after some moves",
        description="Make the moves in turn from a position given in SPN and print the SPN "
        "after them. A tableau move may leave its count out when only one count is legal. "
        "An illegal move stops with its reason (exit 1).",
    )
    parser.add_argument("position", type=position_arg, metavar="SPN", help="the position")
    parser.add_argument("moves", nargs="+", metavar="MOVE", help="ed, ed3, deal (xd: manual removal)")
    add_variant_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Make the moves; all move texts are checked before the first is made."""
    variant = variant_from(args)
    for text in args.moves:
        try:
            parse_move(text)
        except NotationError as error:
            raise CommandError(str(error)) from None
    position = args.position
    for number, text in enumerate(args.moves, start=1):
        move = resolve_move(position, text, variant)
        try:
            position = apply_move(position, move, variant).after
        except IllegalMoveError as error:
            raise CommandError(f"move {number} ({move}): {error}", EXIT_FAILED) from None
    print(position.spn())
    return EXIT_OK
