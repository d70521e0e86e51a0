"""Engine speed: legal-move generation plus apply on random reachable positions.

Positions come from random play out of numbered deals in every suit mode
(collected first, untimed). The timed part expands each position the way a
solver does: ``legal_moves`` once, then ``apply_move`` for every legal move.
The figure is expanded positions per second (and applied moves per second);
``legal_steps``, where the engine has it, is measured as well. The steps are
dropped at once, so the garbage collector hardly runs; a search that keeps
its positions also pays for collection (``gc.freeze()`` after set-up helps).

``--baseline REV`` runs the same measurement on the engine of git revision
``REV`` in a child process first, so that before and after are measured in
one run on the same machine load.

    python3 bench/engine.py [--deals 20] [--plies 150] [--repeat 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spider_vision.engine import Position

ROOT = Path(__file__).resolve().parent.parent


def collect_positions(deals: int, plies: int, seed: int) -> list[Position]:
    """Random play from deals 0..deals-1 in each mode; every position reached."""
    from spider_vision.engine import STANDARD, SuitMode, apply_move, deal_position, legal_moves

    rng = random.Random(seed)
    positions = []
    for mode in SuitMode:
        for number in range(deals):
            position = deal_position(number, mode)
            for _ in range(plies):
                positions.append(position)
                moves = legal_moves(position, STANDARD)
                if not moves:
                    break
                position = apply_move(position, rng.choice(moves), STANDARD).after
    return positions


def expand(positions: list[Position]) -> tuple[float, int]:
    """Time legal_moves plus apply_move of every legal move; return seconds and moves applied."""
    from spider_vision.engine import STANDARD, apply_move, legal_moves

    applied = 0
    start = time.perf_counter()
    for position in positions:
        for move in legal_moves(position, STANDARD):
            apply_move(position, move, STANDARD)
            applied += 1
    return time.perf_counter() - start, applied


def expand_with_legal_steps(positions: list[Position]) -> tuple[float, int] | None:
    """Time ``legal_steps`` (moves carried out without a second check), where the engine has it."""
    from spider_vision import engine

    if not hasattr(engine, "legal_steps"):
        return None
    applied = 0
    start = time.perf_counter()
    for position in positions:
        applied += len(engine.legal_steps(position, engine.STANDARD))
    return time.perf_counter() - start, applied


def measure(args: argparse.Namespace, label: str) -> None:
    """Print the figures of both ways of expanding, best of ``args.repeat`` runs."""
    positions = collect_positions(args.deals, args.plies, args.seed)
    for name, method in (
        ("legal_moves + apply_move", expand),
        ("legal_steps", expand_with_legal_steps),
    ):
        best = None
        for _ in range(args.repeat):
            result = method(positions)
            if result is None:
                break
            seconds, applied = result
            best = seconds if best is None else min(best, seconds)
        if best is None:
            print(f"{label}, {name}: not in this engine")
            continue
        print(
            f"{label}, {name}: {len(positions)} positions, {applied} moves applied, "
            f"best of {args.repeat}: {best:.3f} s = {len(positions) / best:,.0f} positions/s, "
            f"{applied / best:,.0f} moves/s"
        )
    sys.stdout.flush()


def run_baseline(args: argparse.Namespace) -> None:
    """Export the engine of revision ``args.baseline`` and measure it in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.baseline, "spider_vision"],
            capture_output=True,
        )
        if archive.returncode:
            print(f"bench: cannot read revision '{args.baseline}' from git", file=sys.stderr)
            sys.exit(2)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        command = [
            sys.executable, str(Path(__file__).resolve()), "--deals", str(args.deals),
            "--plies", str(args.plies), "--repeat", str(args.repeat), "--seed", str(args.seed),
            "--label", f"baseline {args.baseline}", "--engine-root", tmp,
        ]
        subprocess.run(command, check=True, cwd=tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per suit mode")
    parser.add_argument("--plies", type=int, default=150, help="random moves per deal at most")
    parser.add_argument("--repeat", type=int, default=3, help="timed repetitions (best is kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="git revision whose engine to measure first")
    parser.add_argument("--label", default="current", help=argparse.SUPPRESS)
    parser.add_argument("--engine-root", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, args.engine_root)
    if args.baseline:
        run_baseline(args)
    measure(args, args.label)


if __name__ == "__main__":
    main()
