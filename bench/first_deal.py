"""Cards still face down when the first deal comes: a quick screen of early-game play.

Each deal is played by one policy until it deals (or has no move, or would
go back to a position it has seen); the cards then still face down measure
the play before any deal, the part of the game the hint engine finds
hardest. It takes seconds where whole games take an hour, and is far less
noisy than a win rate. Policies:

* ``plan``: the blind plan alone (``explore`` on what a player sees), planned
  again after each move;
* ``chance``: the plan under chance alone (``plan_move`` with
  ``--plan-iterations``: the unseen cards dealt afresh each iteration), its
  budget that of a hint of ``--nodes-per-move``;
* ``engine``: the hint engine (``HintSession``) at ``--nodes-per-move``;
* ``bound``: ``explore`` that sees the true face-down cards (the stock stays
  blind), planned again after each move; no player can do as well.

    python3 bench/first_deal.py --deals 100 --suits 4 --policy plan chance bound
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spider_vision.engine import (  # noqa: E402
    Deal, Game, Move, Position, SuitMode, apply_move, deal_position, legal_moves, parse_move,
)
from spider_vision.hint import HintLimits, HintSession  # noqa: E402
from spider_vision.hint.advisor import PLAN_NODES, plan_move  # noqa: E402
from spider_vision.hint.knowledge import Knowledge  # noqa: E402
from spider_vision.solver.solving import explore  # noqa: E402

POLICIES = ("plan", "chance", "engine", "bound")
CHANCE_ITERATIONS = 3000
"""The tree search's iterations for ``chance`` (about 0.06 s a move; ``docs/hints.md``, stop 71)."""
MOVE_CAP = 300


@dataclass(frozen=True)
class FirstDeal:
    """One deal played up to its first deal: the cards still face down then, and the moves made."""

    deal: int
    face_down: int
    moves: int


def play_to_first_deal(deal: int, suits: int, policy: str, nodes_per_move: int,
                       plan_iterations: int = CHANCE_ITERATIONS) -> FirstDeal:
    """Play ``deal`` with ``policy`` until the policy deals or has nothing left to do."""
    game = Game(deal_position(deal, SuitMode(suits)))
    limits = HintLimits(
        movetime=math.inf, nodes_per_move=nodes_per_move, plan_iterations=plan_iterations if policy == "chance" else 0
    )
    session = HintSession(limits)
    seen: set[str] = set()
    while game.moves_made < MOVE_CAP:
        observed = game.position.observed()
        seen.add(observed.spn())
        move = _next_move(game.position, observed, policy, session)
        if move is None or isinstance(move, Deal) or apply_move(observed, move).after.spn() in seen:
            break
        game.play(move)
    face_down = sum(len(column.down) for column in game.position.columns)
    return FirstDeal(deal, face_down, game.moves_made)


def _next_move(position: Position, observed: Position, policy: str, session: HintSession) -> Move | None:
    if policy == "engine":
        return session.hint(observed).move
    if policy == "chance":
        allowed = {str(move) for move in legal_moves(observed) if not isinstance(move, Deal)}
        move, _ = plan_move(Knowledge.of(observed), session.limits, allowed)
        return parse_move(move)[0] if move else None
    plan = explore(position, PLAN_NODES, see_face_down=policy == "bound")
    return parse_move(plan.moves[0])[0] if plan.moves else None


def _run(task: tuple[int, int, str, int, int]) -> FirstDeal:
    return play_to_first_deal(*task)


def main() -> int:
    """Play the deals with each policy; print the mean cards face down at the first deal."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="play deals FIRST..FIRST+N-1 (default 100)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    parser.add_argument("--suits", type=int, default=4, choices=[1, 2, 4])
    parser.add_argument("--policy", nargs="+", default=["plan", "bound"], choices=POLICIES)
    parser.add_argument("--nodes-per-move", type=int, default=1_000_000, help="the engine's budget a hint")
    parser.add_argument("--plan-iterations", type=int, default=CHANCE_ITERATIONS,
                        help=f"the tree search's iterations for the chance policy (default {CHANCE_ITERATIONS})")
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes")
    parser.add_argument("--verbose", action="store_true", help="print every deal's count")
    args = parser.parse_args()
    if args.plan_iterations < 1:
        parser.error(f"the plan's iterations must be at least 1, not {args.plan_iterations}")
    deals = range(args.first, args.first + args.deals)
    print(f"deals {deals.start}..{deals.stop - 1}, {args.suits} suits; 44 cards face down at the start")
    print(f"{'policy':>7} {'face down at first deal':>24} {'moves before it':>16} {'wall s':>7}")
    for policy in args.policy:
        started = time.perf_counter()
        tasks = [(deal, args.suits, policy, args.nodes_per_move, args.plan_iterations) for deal in deals]
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(_run, tasks)
        print(
            f"{policy:>7} {statistics.mean(r.face_down for r in results):>24.2f} "
            f"{statistics.mean(r.moves for r in results):>16.1f} {time.perf_counter() - started:>7.1f}",
            flush=True,
        )
        if args.verbose:
            print("   " + " ".join(f"{r.deal}:{r.face_down}" for r in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
