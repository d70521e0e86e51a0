"""Solver benchmark: numbered deals 1..N of each suit mode with a per-deal time limit.

Prints, per suit mode, the solve rate, the median and 90th-percentile time per
deal (over all deals, unsolved ones included), positions examined per second
and the peak memory of a worker process. Every solution is replayed through the
engine; one that does not win is reported as a failure.

    python3 bench/solver.py --deals 200 --time-limit 10 --suits 1 2 4 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from spider_vision.engine import apply_move, deal_position, resolve_move  # noqa: E402
from spider_vision.solver import SolveLimits, native_available, solve  # noqa: E402


@dataclass(frozen=True)
class DealRun:
    """One deal's outcome."""

    mode: int
    number: int
    solved: bool
    replayed: bool
    moves: int
    nodes: int
    seconds: float
    peak_mb: float


def run_deal(job: tuple[int, int, float, str]) -> DealRun:
    """Solve one deal and replay its solution through the engine."""
    mode, number, limit, backend = job
    start = deal_position(number, mode)
    result = solve(start, SolveLimits(seconds=limit), backend=backend)  # type: ignore[arg-type]
    replayed = False
    if result.solved:
        position = start
        for text in result.moves:
            position = apply_move(position, resolve_move(position, text)).after
        replayed = position.is_won
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return DealRun(mode, number, result.solved, replayed, len(result.moves), result.nodes,
                   result.seconds, peak)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals 1..N (default 50)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--suits", type=int, nargs="+", default=[1, 2, 4], choices=[1, 2, 4])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--backend", choices=["auto", "native", "python"], default="auto")
    parser.add_argument("--verbose", action="store_true", help="print every deal")
    args = parser.parse_args()
    jobs = [
        (mode, number, args.time_limit, args.backend)
        for mode in args.suits
        for number in range(args.first, args.first + args.deals)
    ]
    print(f"native core: {'yes' if native_available() else 'no'}; backend {args.backend}; "
          f"deals {args.first}..{args.first + args.deals - 1}; {args.time_limit:g} s per deal; "
          f"{args.jobs} jobs; load average {os.getloadavg()[0]:.2f}", flush=True)
    began = time.time()
    results: list[DealRun] = []
    with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for run in pool.imap_unordered(run_deal, jobs):
            results.append(run)
            if args.verbose:
                print(f"  {run.mode} suit deal {run.number}: "
                      f"{'won' if run.solved else 'no solution'} {run.moves} moves "
                      f"{run.nodes} positions {run.seconds:.2f} s", flush=True)
    failures = [r for r in results if r.solved and not r.replayed]
    header = (f"{'suits':>5} {'deals':>5} {'solved':>6} {'rate':>7} {'median s':>9} "
              f"{'p90 s':>7} {'positions/s':>12} {'peak MB':>8}")
    print(header)
    for mode in args.suits:
        runs = sorted((r for r in results if r.mode == mode), key=lambda r: r.number)
        solved = sum(r.solved and r.replayed for r in runs)
        times = [r.seconds for r in runs]
        rate = sum(r.nodes for r in runs) / max(sum(times), 1e-9)
        print(f"{mode:>5} {len(runs):>5} {solved:>6} {100 * solved / len(runs):>6.1f}% "
              f"{statistics.median(times):>9.2f} {percentile(times, 0.9):>7.2f} "
              f"{rate:>12,.0f} {max(r.peak_mb for r in runs):>8.0f}")
        unsolved = [r.number for r in runs if not (r.solved and r.replayed)]
        if unsolved:
            print(f"      not solved: {' '.join(map(str, unsolved))}")
    print(f"wall time {time.time() - began:.0f} s; load average now {os.getloadavg()[0]:.2f}")
    if failures:
        print(f"REPLAY FAILURES: {[(r.mode, r.number) for r in failures]}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
