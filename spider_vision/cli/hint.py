"""``spider-vision hint "SPN" [--movetime MS] [--json]``: the best move for what a player sees."""

from __future__ import annotations

import argparse
import json

from spider_vision.cli.common import EXIT_OK, position_arg, whole_number_arg
from spider_vision.hint import HintLimits, hint


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``hint`` command."""
    parser = commands.add_parser(
        "hint",
        help="suggest a move without looking at face-down cards",
        description="Suggest the best move for a position as a player sees it: face-down and "
        "stock cards are ignored even when the SPN lists them. Prints the move, the reason "
        "and an estimate of the chance to win.",
    )
    parser.add_argument("position", type=position_arg, metavar="SPN", help="the position")
    parser.add_argument(
        "--movetime",
        type=whole_number_arg(1, "milliseconds"),
        default=500,
        metavar="MS",
        help="time limit (500): the hint searches a million positions, fewer if the limit comes first",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled worlds (0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the hint."""
    advice = hint(args.position, limits=HintLimits(movetime=args.movetime / 1000, seed=args.seed))
    move = str(advice.move) if advice.move is not None else None
    if args.json:
        print(
            json.dumps(
                {
                    "move": move,
                    "reason": advice.reason,
                    "win_estimate": advice.win_estimate,
                    "win_chance": advice.win_chance,
                    "lost": advice.lost,
                    "samples": advice.samples,
                    "wins": advice.wins,
                    "undecided": advice.undecided,
                    "nodes": advice.nodes,
                    "seconds": round(advice.seconds, 3),
                }
            )
        )
        return EXIT_OK
    words = advice.estimate_words()
    estimate = f"  ({words})" if words else ""
    print(f"{move or 'none'}  {advice.reason}{estimate}")
    return EXIT_OK
