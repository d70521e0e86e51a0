"""``spider-vision solve``: find a winning line for a fully known position or a numbered deal.

Exit code 0 when a solution was found, 1 when none was (unwinnable or not
found within the limits), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json

from spider_vision.cli.common import EXIT_FAILED, EXIT_OK, CommandError, suits_arg, whole_number_arg
from spider_vision.engine import NotationError, Position, deal_position
from spider_vision.solver import SolveLimits, SolveResult, SolverError, solve


def positive_seconds(text: str) -> float:
    """argparse type: a time limit in seconds, more than zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"time limit must be more than 0 seconds, not '{text}'")
    return value


positive_count = whole_number_arg(1)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``solve`` command."""
    parser = commands.add_parser(
        "solve",
        help="find a winning line when every card is known",
        description=(
            "Search for a winning line of a full-information position (SPN) or of deal N. "
            "A search stopped by a limit reports 'no solution found'; only an exhaustive "
            "search reports 'unwinnable'. Exit code 0 when solved, 1 when not."
        ),
    )
    parser.add_argument("spn", nargs="?", metavar="SPN", help="the position, every card known")
    parser.add_argument("--deal", type=int, metavar="N", help="solve deal N instead of an SPN")
    parser.add_argument(
        "--suits", type=suits_arg, metavar="S", help="suit mode of --deal: 1, 2 or 4"
    )
    parser.add_argument("--time-limit", type=positive_seconds, default=10.0, metavar="S",
                        help="seconds of search (default 10)")
    parser.add_argument("--node-limit", type=positive_count, metavar="N",
                        help="positions to examine at most (default: no limit)")
    parser.add_argument("--json", action="store_true",
                        help='print {"solved", "moves", "nodes", "seconds", "exhaustive"}')
    parser.set_defaults(run=run)


def start_position(args: argparse.Namespace) -> Position:
    """The position the command line asks for: an SPN or ``--deal N --suits S``."""
    if args.spn is not None and args.deal is not None:
        raise CommandError("give either a position (SPN) or --deal N, not both")
    if args.spn is not None:
        if args.suits is not None:
            raise CommandError("--suits goes with --deal; an SPN names its suit mode itself")
        try:
            return Position.from_spn(args.spn)
        except NotationError as error:
            raise CommandError(str(error)) from None
    if args.deal is None:
        raise CommandError("give a position (SPN) or --deal N --suits S")
    if args.suits is None:
        raise CommandError("--deal needs --suits 1, 2 or 4")
    try:
        return deal_position(args.deal, args.suits)
    except NotationError as error:
        raise CommandError(str(error)) from None


def describe(result: SolveResult) -> str:
    """The result as a player reads it: the verdict, then the moves."""
    figures = f"{result.nodes:,} positions, {result.seconds:.2f} s"
    if result.solved:
        moves = " ".join(result.moves)
        return f"solved in {len(result.moves)} moves ({figures})\n{moves}"
    if result.exhaustive:
        return f"unwinnable: the search tried every line ({figures})"
    return f"no solution found ({figures}; the search stopped at its limit)"


def run(args: argparse.Namespace) -> int:
    """Solve and print."""
    position = start_position(args)
    try:
        result = solve(position, SolveLimits(seconds=args.time_limit, nodes=args.node_limit))
    except SolverError as error:
        raise CommandError(str(error)) from None
    print(json.dumps(result.to_json()) if args.json else describe(result))
    return EXIT_OK if result.solved else EXIT_FAILED
