"""Play whole games with the hint engine seeing only what a player sees; print win rates.

The harness keeps the true deal. The hint engine is given the observed
position only (face-down cards and stock as counts, cards revealed as they turn
over), its move is played on the true position, and the game goes on until it
is won, lost (no legal move), resigned (every sampled world proved lost
for ``RESIGN_AFTER`` hints in a row: a player would give up too, and it saves
the bench from playing out lost games), or stuck (a position seen three
times, ``NO_PROGRESS`` moves without a card turned over, a run removed or a
deal, or the move cap). Games run in parallel processes. With
``--calibration`` it also prints how often the games were won after hints
that gave each win estimate, binned by the estimate's low end (undecided
worlds counted as lost), by its high end (counted as won) and by the win
chance of the shipped model: the estimate's worlds know their hidden cards
and its searches stop at a budget, so this shows how far each is from the
real chance. ``--record`` keeps every game with what its hints knew, the
data ``bench/win_chance.py`` fits that model on. ``--peek`` measures what
the hidden cards are worth: the engine's sampled worlds are then drawn with
the true face-down cards (``face-down``; the stock is still drawn at random)
or the whole true deal (``all``), the ceiling of the method, never a hint.

The hints are budgeted as the library budgets them (``HINT_POSITIONS`` a
hint, ``--movetime`` the time limit); ``--nodes-per-move`` alone
counts positions only, so the games are the same on any machine and under
any load; ``--count-seconds`` counts seconds instead (``--movetime`` a hint
on average), as hints did before stop 74.

    python3 bench/play.py --deals 30 --suits 1 2 4 --jobs 2
    python3 bench/play.py --deals 30 --suits 2 --nodes-per-move 1000000 --jobs 2
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spider_vision.engine import Column, Game, Position, SuitMode, deal_position  # noqa: E402
from spider_vision.hint import HintLimits, HintLimitsError, HintSession, Knowledge, game_progress  # noqa: E402
from spider_vision.hint.chance import EstimateEvidence, win_chance  # noqa: E402

MOVE_CAP = 1000
RESIGN_AFTER = 30
NO_PROGRESS = 200
PEEKS = ("none", "face-down", "all")
ESTIMATE_BINS = (0.2, 0.4, 0.6, 0.8, 1.0)
"""Upper ends of the win-estimate bins of the calibration table (the last bin takes 100%)."""


@dataclass(frozen=True)
class GameResult:
    """One finished game."""

    deal: int
    suits: int
    won: bool
    moves: int
    hints: int
    hint_seconds: float
    hint_cpu_seconds: float
    ending: str
    evidence: tuple[EstimateEvidence, ...] = ()
    """What each hint that searched worlds knew about its chances, in order (``--record``)."""

    @property
    def estimates(self) -> tuple[tuple[float, float] | None, ...]:
        """Each such hint's win estimate as its low and high ends (``None`` when no world was decided)."""
        return tuple(
            None if item.undecided == item.samples
            else (item.wins / item.samples, (item.wins + item.undecided) / item.samples)
            for item in self.evidence
        )

    def record(self) -> dict[str, object]:
        """The game as one JSON object for ``--record``: the outcome and each hint's evidence."""
        return {
            "deal": self.deal,
            "suits": self.suits,
            "won": self.won,
            "ending": self.ending,
            "evidence": [list(item.as_row()) for item in self.evidence],
        }


class Oracle:
    """Draws worlds that know the true hidden cards of the game being played (``--peek``).

    With ``face-down`` a world has the true face-down cards and the other
    unseen cards shuffled into the stock; with ``all`` it is the true deal.
    ``truth`` is set to the true position before each hint.
    """

    def __init__(self, peek: str) -> None:
        if peek not in PEEKS[1:]:
            raise ValueError(f"an oracle peeks at 'face-down' or 'all', not {peek!r}")
        self.peek = peek
        self.truth: Position | None = None

    def __call__(self, knowledge: Knowledge, rng: random.Random) -> Position:
        truth, observed = self.truth, knowledge.position
        if truth is None:
            raise RuntimeError("the oracle was asked for a world before it was shown the true position")
        if self.peek == "all":
            stock = truth.stock
        else:
            face_down = Counter(card for column in truth.columns for card in column.down if card is not None)
            rest = list((knowledge.unseen - face_down).elements())
            rng.shuffle(rest)
            stock = tuple(rest)
        columns = tuple(Column(true.down, seen.up) for true, seen in zip(truth.columns, observed.columns))
        return Position(columns, stock, observed.removed, observed.mode)


def play_game(deal: int, suits: int, limits: HintLimits, peek: str = "none") -> GameResult:
    """Play deal ``deal`` to the end with hints only; the hint never sees hidden cards unless ``peek`` says."""
    game = Game(deal_position(deal, SuitMode(suits)))
    oracle = Oracle(peek) if peek != "none" else None
    session = HintSession(limits) if oracle is None else HintSession(limits, sampler=oracle)
    repeats: Counter[str] = Counter()
    hints = 0
    hopeless = 0
    seconds = 0.0
    cpu_seconds = 0.0
    ending = "move cap"
    last_progress, progress_key = 0, game_progress(game.position)
    evidence: list[EstimateEvidence] = []
    while game.moves_made < MOVE_CAP:
        if game.is_won:
            ending = "won"
            break
        if game_progress(game.position) != progress_key:
            last_progress, progress_key = game.moves_made, game_progress(game.position)
        observed = game.position.observed()
        repeats[observed.spn()] += 1
        if repeats[observed.spn()] >= 3 or game.moves_made - last_progress >= NO_PROGRESS:
            ending = "stuck"
            break
        if oracle is not None:
            oracle.truth = game.position
        started, cpu_started = time.perf_counter(), time.process_time()
        advice = session.hint(observed)
        seconds += time.perf_counter() - started
        cpu_seconds += time.process_time() - cpu_started
        hints += 1
        if advice.samples:
            evidence.append(EstimateEvidence.of(observed, advice.samples, advice.wins, advice.undecided))
        if advice.move is None:
            ending = "lost"
            break
        hopeless = hopeless + 1 if advice.samples and advice.proved_lost == advice.samples else 0
        if hopeless >= RESIGN_AFTER:
            ending = "resigned"
            break
        game.play(advice.move)
    return GameResult(
        deal, suits, game.is_won, game.moves_made, hints, seconds, cpu_seconds, ending, tuple(evidence)
    )


@dataclass(frozen=True)
class CalibrationRow:
    """Hints whose win estimate fell in one bin, and the share of them in games that were won."""

    label: str
    hints: int
    games: int
    won_share: float


def calibration(results: list[GameResult], end: int = 0) -> list[CalibrationRow]:
    """How often the game was won after a hint in each bin of win estimate; ``unknown``: no world decided.

    Hints are binned by the estimate's low end (``end`` 0), its high end
    (1), or the win chance the shipped model gives them (2; ``unknown``:
    no model for the mode). Each hint counts once, so long games weigh more;
    ``games`` says how many games the hints of a bin came from.
    """
    labels = ["unknown"] + [
        f"{low:.0%}-{high:.0%}" for low, high in zip((0.0, *ESTIMATE_BINS[:-1]), ESTIMATE_BINS)
    ]
    hints = Counter[str]()
    won = Counter[str]()
    games: dict[str, set[int]] = {label: set() for label in labels}
    for result in results:
        if end == 2:
            values = [win_chance(evidence) for evidence in result.evidence]
        else:
            values = [None if ends is None else ends[end] for ends in result.estimates]
        for value in values:
            label = labels[0] if value is None else labels[1 + bisect.bisect_right(ESTIMATE_BINS[:-1], value)]
            hints[label] += 1
            won[label] += result.won
            games[label].add(result.deal)
    return [
        CalibrationRow(label, hints[label], len(games[label]), won[label] / hints[label])
        for label in labels
        if hints[label]
    ]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    divisor = 1 + z * z / games
    return ((centre - spread) / divisor, (centre + spread) / divisor)


def _run(task: tuple[int, int, HintLimits, str]) -> GameResult:
    return play_game(*task)


def _limits(args: argparse.Namespace) -> HintLimits:
    """The hint budget the options ask for (see the module's docstring)."""
    default = HintLimits()
    if args.count_seconds:
        nodes, movetime = None, default.movetime
    elif args.nodes_per_move is not None:
        nodes, movetime = args.nodes_per_move, math.inf
    else:
        nodes, movetime = default.nodes_per_move, default.movetime
    if args.movetime is not None:
        movetime = args.movetime
    return HintLimits(
        movetime=movetime, samples=args.samples, nodes_per_move=nodes,
        first_width=args.first_width, plan_iterations=args.plan_iterations,
    )


def main() -> int:
    """Run the games and print one line per suit mode."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="play deals 1..N (default 30)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    parser.add_argument("--suits", type=int, nargs="+", default=[1, 2, 4], choices=[1, 2, 4])
    parser.add_argument(
        "--movetime", type=float, default=None,
        help=f"a hint's time limit in seconds (default {HintLimits().movetime}; none with --nodes-per-move "
        "alone); with --count-seconds, the seconds a hint takes on average",
    )
    parser.add_argument("--samples", type=int, default=HintLimits().samples)
    parser.add_argument(
        "--nodes-per-move", type=int, default=None,
        help=f"positions a hint searches on average (default {HintLimits().nodes_per_move}); alone, with no "
        "time limit: the games are then the same on any machine and under any load (the CPU time per move "
        "is printed to compare)",
    )
    parser.add_argument(
        "--count-seconds", action="store_true",
        help="budget each hint in seconds (--movetime on average) instead of positions",
    )
    parser.add_argument(
        "--first-width", type=int, default=HintLimits().first_width,
        help="the solver's first beam width in each sampled world",
    )
    parser.add_argument(
        "--plan-iterations", type=int, default=HintLimits().plan_iterations,
        help="iterations of the plan's tree search under chance (0: the plan with hidden cards as blockers)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    parser.add_argument(
        "--calibration", action="store_true",
        help="print, for each bin of win estimate, the share of hints given in games that were won",
    )
    parser.add_argument(
        "--record", type=Path, default=None,
        help="append each game, with what every hint knew of its chances, as a JSON line to this file "
        "(the data of bench/win_chance.py)",
    )
    parser.add_argument(
        "--peek", choices=PEEKS, default="none",
        help="let the engine's sampled worlds know the true face-down cards or the whole deal: what the "
        "hidden cards are worth, never a hint (default none)",
    )
    args = parser.parse_args()
    if args.count_seconds and args.nodes_per_move is not None:
        parser.error("--count-seconds and --nodes-per-move are two budgets: give one")
    try:
        limits = _limits(args)
    except HintLimitsError as error:
        parser.error(str(error))
    if limits.nodes_per_move is None:
        budget = f"movetime {limits.movetime}s"
    else:
        ceiling = "" if math.isinf(limits.movetime) else f" (time limit {limits.movetime}s)"
        budget = f"{limits.nodes_per_move} positions{ceiling}"
    print(
        f"hint engine: {budget} per move, {args.samples} samples, first beam {args.first_width}, "
        f"plan {args.plan_iterations} iterations; "
        f"deals {args.first}..{args.first + args.deals - 1}; {args.jobs} processes"
    )
    print(
        f"{'suits':>5} {'won':>9} {'rate':>6} {'95% interval':>15} {'moves/game':>11} "
        f"{'s/move':>7} {'cpu s/move':>10} {'wall s':>7}",
        flush=True,
    )
    for suits in args.suits:
        tasks = [(deal, suits, limits, args.peek) for deal in range(args.first, args.first + args.deals)]
        started = time.perf_counter()
        results = []
        with multiprocessing.Pool(args.jobs) as pool:
            for result in pool.imap_unordered(_run, tasks):
                results.append(result)
                if args.record is not None:
                    with args.record.open("a", encoding="utf-8") as log:
                        log.write(json.dumps(result.record()) + "\n")
                if args.verbose:
                    per_hint = result.hint_seconds / max(result.hints, 1)
                    print(
                        f"  deal {result.deal} ({result.suits} suits): {result.ending}, "
                        f"{result.moves} moves, {per_hint:.3f} s/hint, "
                        f"{result.hint_cpu_seconds / max(result.hints, 1):.3f} cpu s/hint",
                        flush=True,
                    )
        wall = time.perf_counter() - started
        wins = sum(result.won for result in results)
        low, high = wilson(wins, len(results))
        moves = statistics.mean(result.moves for result in results)
        hints = max(sum(r.hints for r in results), 1)
        per_move = sum(r.hint_seconds for r in results) / hints
        cpu_per_move = sum(r.hint_cpu_seconds for r in results) / hints
        print(
            f"{suits:>5} {wins:>4}/{len(results):<4} {wins / len(results):>6.1%} "
            f"{low:>7.1%}-{high:<7.1%} {moves:>11.1f} {per_move:>7.3f} {cpu_per_move:>10.3f} {wall:>7.1f}",
            flush=True,
        )
        if args.calibration:
            for end, name in enumerate(("estimate, low end", "estimate, high end", "win chance")):
                print(f"  {name:>22} {'hints':>6} {'games':>6} {'in games won':>13}")
                for row in calibration(results, end):
                    print(f"  {row.label:>22} {row.hints:>6} {row.games:>6} {row.won_share:>13.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
