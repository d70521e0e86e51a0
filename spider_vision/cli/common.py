"""What every command shares: exit codes, errors as one clear line, argument types."""

from __future__ import annotations

import argparse
from typing import Callable

from spider_vision.engine import NotationError, Position, SuitMode, Variant

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_OK",
    "CommandError",
    "add_variant_args",
    "position_arg",
    "whole_number_arg",
    "suits_arg",
    "variant_from",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """A failure a command reports as one line on stderr with its exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def position_arg(text: str) -> Position:
    """argparse type: a position in SPN."""
    try:
        return Position.from_spn(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def suits_arg(text: str) -> SuitMode:
    """argparse type: a suit mode 1, 2 or 4."""
    try:
        return SuitMode.parse(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_variant_args(parser: argparse.ArgumentParser) -> None:
    """The rule-variant options shared by commands that judge moves."""
    parser.add_argument(
        "--deal-with-empty-columns",
        action="store_true",
        help="allow a deal with an empty column when fewer than ten cards are on the tableau",
    )
    parser.add_argument(
        "--manual-removal",
        action="store_true",
        help="completed runs stay until removed with x<column> (xd)",
    )


def variant_from(args: argparse.Namespace) -> Variant:
    """The variant chosen by ``add_variant_args`` options."""
    return Variant(
        deal_with_empty_columns=args.deal_with_empty_columns, manual_removal=args.manual_removal
    )


def whole_number_arg(minimum: int, unit: str = "") -> Callable[[str], int]:
    """argparse type: a whole number of at least ``minimum``; ``unit`` names what it counts."""
    what = f"a whole number of {unit}" if unit else "a whole number"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what} of at least {minimum}")
        return value

    return parse
