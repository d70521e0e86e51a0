"""Each legal move's share of newly drawn worlds won, each world going its own way and sharing the moves a player must.

    python3 bench/appraise.py "SPN" [--worlds 12] [--nodes 200000] [--seed 0]
    python3 bench/appraise.py --deal 9 --suits 1 --move 54 [--hint-nodes 1000000]

With ``--deal`` the deal is played with the hint engine (``--hint-nodes``
positions a hint, as ``bench/play.py --nodes-per-move`` plays it) for
``--move`` moves, and that position is appraised: so a move of a game the
benchmark lost can be looked at again. Prints, for every legal move, whether
it shows a card, the worlds won when each world's search goes its own way
(``own``), and when every world first plays the same moves up to the first
card shown (``shared``, with those moves): ``spider_vision.hint.appraisal``.
"""

from __future__ import annotations

import argparse
import logging
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spider_vision.engine import Game, Position, SpiderError, SuitMode, deal_position  # noqa: E402
from spider_vision.hint import HintLimits, HintSession  # noqa: E402
from spider_vision.hint.appraisal import appraise_moves  # noqa: E402


def position_after(deal: int, suits: int, moves: int, hint_nodes: int) -> tuple[Position, list[str]]:
    """The true position after the hint engine played ``moves`` moves of ``deal``, and the moves it played."""
    game = Game(deal_position(deal, SuitMode(suits)))
    session = HintSession(HintLimits(movetime=math.inf, nodes_per_move=hint_nodes))
    played = []
    while game.moves_made < moves:
        advice = session.hint(game.position.observed())
        if advice.move is None:
            raise SystemExit(f"error: the game ended after {game.moves_made} moves ({advice.reason})")
        played.append(str(advice.move))
        game.play(advice.move)
    return game.position, played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spn", nargs="?", help="the position (face-down and stock cards are ignored)")
    parser.add_argument("--deal", type=int, help="play this deal with the hint engine instead of an SPN")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=1)
    parser.add_argument("--move", type=int, default=0, help="moves the hint engine plays before the appraisal")
    parser.add_argument("--hint-nodes", type=int, default=1_000_000, help="positions a hint while it plays")
    parser.add_argument("--worlds", type=int, default=12, help="newly drawn worlds (default 12)")
    parser.add_argument("--nodes", type=int, default=200_000, help="positions each search may examine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="log each move's figures as they come")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    if (args.spn is None) == (args.deal is None):
        parser.error("give either an SPN or --deal")
    try:
        if args.deal is not None:
            position, played = position_after(args.deal, args.suits, args.move, args.hint_nodes)
            print(f"deal {args.deal}, {args.suits} suit(s), after {len(played)} moves: {' '.join(played[-5:])}")
        else:
            position = Position.from_spn(args.spn)
        print(position.observed().spn())
        started = time.process_time()
        appraisals = appraise_moves(position, worlds=args.worlds, nodes=args.nodes, seed=args.seed)
    except SpiderError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{'move':6s} {'kind':6s} {'own':>5s} {'shared':>6s}  moves shared")
    for appraisal in sorted(appraisals, key=lambda a: (-a.shared, -a.own, str(a.move))):
        kind = "shows" if appraisal.shows_card else "quiet"
        print(f"{str(appraisal.move):6s} {kind:6s} {appraisal.own:5.1f} {appraisal.shared:6.1f}  "
              f"{' '.join(appraisal.prefix)}")
    print(f"{args.worlds} worlds, {args.nodes} positions a search, {time.process_time() - started:.1f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
