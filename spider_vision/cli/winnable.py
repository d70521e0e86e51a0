"""``spider-vision winnable --suits S``: print a random deal number that the solver wins."""

from __future__ import annotations

import argparse
import logging
import random

from spider_vision.cli.common import EXIT_FAILED, EXIT_OK, CommandError, suits_arg
from spider_vision.cli.solve import positive_count, positive_seconds
from spider_vision.engine import deal_position
from spider_vision.engine.deals import MAX_DEAL
from spider_vision.solver import SolveLimits, solve

logger = logging.getLogger(__name__)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``winnable`` command."""
    parser = commands.add_parser(
        "winnable",
        help="print a random deal number that the solver wins",
        description=(
            "Draw random deal numbers until the solver wins one within the time limit and "
            "print its number (exit code 1 if no attempt was won)."
        ),
    )
    parser.add_argument("--suits", type=suits_arg, required=True, metavar="S", help="1, 2 or 4")
    parser.add_argument("--time-limit", type=positive_seconds, default=10.0, metavar="S",
                        help="seconds of search for each deal tried (default 10)")
    parser.add_argument("--attempts", type=positive_count, default=20, metavar="N",
                        help="deals to try at most (default 20)")
    parser.add_argument("--seed", type=int, metavar="X",
                        help="seed of the random draw, to repeat it (default: random)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Try random deals until one is won."""
    draw = random.Random(args.seed)
    for _ in range(args.attempts):
        number = draw.randrange(MAX_DEAL)
        result = solve(deal_position(number, args.suits), SolveLimits(seconds=args.time_limit))
        logger.info("deal %d: %s in %.2f s", number, result.verdict, result.seconds)
        if result.solved:
            print(number)
            return EXIT_OK
    raise CommandError(
        f"no deal won in {args.attempts} attempts; try a longer --time-limit", EXIT_FAILED
    )
