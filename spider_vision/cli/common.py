"""What every command shares: exit codes, errors as one clear line, argument types."""

from __future__ import annotations

import argparse

from spider_vision.engine import NotationError, Position, SuitMode

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_OK", "CommandError", "position_arg", "suits_arg"]

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
