"""Fit and measure the hint's chance to win on games recorded by ``bench/play.py --record``.

Each hint of a recorded game is one example: what the hint knew (its
worlds' outcomes, the cards face down, the deals left, the runs removed) and
whether that game was then won. Per suit mode, a logistic model is fitted on
some deals and measured on the others (folds by deal number, so no game is
in both), against the raw estimates the hint gave before: the share of worlds
won (undecided counted as lost) and the middle of its range. It prints the
log loss, the Brier score and a calibration table of the held-out chances.
With ``--fit`` it then fits on every deal and prints the weights for
``spider_vision/hint/chance.py``. With ``--fit-also`` older records (another
engine, say) join every fit but are never measured, so the figures say
whether they help on the games measured. With ``--shipped`` it fits nothing and
measures the weights the library ships on every recorded hint instead: how
the chance a player is shown holds up on new deals or another hint budget.

    python3 bench/play.py --deals 60 --suits 1 2 4 --nodes-per-move 1000000 --record games.jsonl
    python3 bench/win_chance.py games.jsonl --folds 5 --fit
    python3 bench/win_chance.py new-games.jsonl --shipped
    python3 bench/win_chance.py new-games.jsonl --fit-also games.jsonl --folds 5
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spider_vision.engine import SuitMode  # noqa: E402
from spider_vision.hint.chance import FEATURE_NAMES, EstimateEvidence, win_chance  # noqa: E402

BINS = (0.2, 0.4, 0.6, 0.8)
"""Inner edges of the calibration table's bins of chance."""
PENALTY = 1.0
"""L2 penalty on the weights (not the bias), in units of one example: keeps a fit on few games tame."""


@dataclass(frozen=True)
class Example:
    """One hint of a recorded game and whether that game was won.

    ``record`` tells apart one deal's games in several files; an example not
    ``measured`` only helps fit (``--fit-also``).
    """

    deal: int
    evidence: EstimateEvidence
    won: bool
    record: int = 0
    measured: bool = True


def load(paths: Sequence[Path], fit_only: Sequence[Path] = ()) -> list[Example]:
    """The hints of every game in the ``--record`` files, those of ``fit_only`` marked not measured.

    Within a file a later record of a game replaces an earlier one (a rerun
    appends); the same game in two files (two hint budgets, say) is kept
    twice, under its one deal number, so both land in the same fold.
    """
    games: dict[tuple[int, int, int], dict[str, object]] = {}
    for file_index, path in enumerate([*paths, *fit_only]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                games[(int(game["suits"]), int(game["deal"]), file_index)] = game
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a game record ({error})") from None
    examples = []
    for (suits, deal, file_index), game in sorted(games.items()):
        mode = SuitMode(suits)
        measured = file_index < len(paths)
        for row in game["evidence"]:  # type: ignore[union-attr]
            evidence = EstimateEvidence.from_row(mode, row)
            examples.append(Example(deal, evidence, bool(game["won"]), file_index, measured))
    return examples


def fit(examples: Sequence[Example], penalty: float = PENALTY, steps: int = 50) -> tuple[float, ...]:
    """Logistic weights for ``examples`` by Newton's method, with an L2 penalty on all but the bias."""
    x = np.array([example.evidence.features() for example in examples], dtype=float)
    y = np.array([example.won for example in examples], dtype=float)
    weights = np.zeros(x.shape[1])
    ridge = np.full(x.shape[1], penalty)
    ridge[0] = 0.0
    for _ in range(steps):
        chance = 1.0 / (1.0 + np.exp(-np.clip(x @ weights, -40, 40)))
        gradient = x.T @ (chance - y) + ridge * weights
        hessian = (x * (chance * (1 - chance))[:, None]).T @ x + np.diag(ridge) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return tuple(float(weight) for weight in weights)


def raw_low(evidence: EstimateEvidence) -> float:
    """The share of worlds won, undecided counted as lost: the hint's old estimate."""
    return evidence.features()[1]


def raw_middle(evidence: EstimateEvidence) -> float:
    """The middle of the hint's old range (undecided worlds counted as half won)."""
    features = evidence.features()
    return (features[1] + features[2]) / 2


@dataclass(frozen=True)
class Score:
    """How well a predictor's chances match the games' outcomes."""

    log_loss: float
    brier: float


def score(pairs: Sequence[tuple[Example, float]]) -> Score:
    """Mean log loss (chances clipped to 1%..99%) and Brier score of chances given to examples."""
    losses, squares = [], []
    for example, chance in pairs:
        clipped = min(max(chance, 0.01), 0.99)
        losses.append(-math.log(clipped if example.won else 1 - clipped))
        squares.append((chance - example.won) ** 2)
    return Score(sum(losses) / len(losses), sum(squares) / len(squares))


def held_out(examples: Sequence[Example], folds: int, penalty: float = PENALTY) -> list[tuple[Example, float]]:
    """Each measured example with the chance a model fitted without its fold gives it (folds by deal number)."""
    result = []
    for fold in range(folds):
        train = [example for example in examples if example.deal % folds != fold]
        test = [example for example in examples if example.deal % folds == fold and example.measured]
        if not train or not test:
            continue
        mode = test[0].evidence.mode
        weights = {mode: fit(train, penalty)}
        result.extend((example, win_chance(example.evidence, weights) or 0.0) for example in test)
    return result


def shipped(examples: Sequence[Example]) -> list[tuple[Example, float]]:
    """Each measured example with the chance the shipped weights give it (none where the mode has no weights)."""
    pairs = []
    for example in (example for example in examples if example.measured):
        chance = win_chance(example.evidence)
        if chance is not None:
            pairs.append((example, chance))
    return pairs


def calibration_table(pairs: Sequence[tuple[Example, float]]) -> list[tuple[str, int, float, float]]:
    """Per bin of chance: its label, the hints in it, their mean chance and the share in won games."""
    edges = (0.0, *BINS, 1.0)
    rows = []
    for low, high in zip(edges, edges[1:]):
        members = [(example, chance) for example, chance in pairs if low <= chance < high or chance == high == 1.0]
        if members:
            rows.append((
                f"{low:.0%}-{high:.0%}",
                len(members),
                sum(chance for _, chance in members) / len(members),
                sum(example.won for example, _ in members) / len(members),
            ))
    return rows


def main() -> int:
    """Measure the raw estimates and the model per suit mode; with ``--fit``, print the shipped weights."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+", help="files written by bench/play.py --record")
    parser.add_argument("--folds", type=int, default=5, help="folds by deal number for the held-out figures")
    parser.add_argument("--penalty", type=float, default=PENALTY, help="L2 penalty on the weights")
    parser.add_argument("--fit", action="store_true", help="fit on every game and print the weights")
    parser.add_argument(
        "--fit-also", type=Path, nargs="+", default=[], metavar="RECORDS",
        help="more recorded games that join every fit but are not measured",
    )
    parser.add_argument(
        "--shipped", action="store_true", help="measure the shipped weights on every hint instead of held-out fits"
    )
    args = parser.parse_args()
    if args.folds < 2:
        parser.error("--folds must be at least 2")
    if args.shipped and args.fit_also:
        parser.error("--shipped fits nothing, so --fit-also has no use with it")
    try:
        examples = load(args.records, args.fit_also)
    except (OSError, ValueError) as error:
        print(f"win_chance: {error}", file=sys.stderr)
        return 2
    fitted: dict[SuitMode, tuple[float, ...]] = {}
    for mode in SuitMode:
        chosen = [example for example in examples if example.evidence.mode is mode]
        if not chosen:
            continue
        measured = [example for example in chosen if example.measured]
        if not measured:
            continue
        games = {(example.deal, example.record) for example in measured}
        won = {(example.deal, example.record) for example in measured if example.won}
        extra = len(chosen) - len(measured)
        also = f" (and {extra} only to fit)" if extra else ""
        print(f"{mode.value} suit(s): {len(games)} games, {len(won)} won, {len(measured)} hints{also}")
        if args.shipped:
            pairs = shipped(chosen)
            if pairs:
                _print_measures(pairs, "model, shipped weights")
            else:
                print("  no shipped weights for this mode")
            continue
        pairs = held_out(chosen, args.folds, args.penalty)
        if not pairs:
            print(f"  nothing held out: the games fall in fewer than two of the {args.folds} folds")
        else:
            _print_measures(pairs, f"model, held out ({args.folds} folds by deal)")
        if args.fit:
            fitted[mode] = fit(chosen, args.penalty)
    if args.fit:
        print("WIN_CHANCE_WEIGHTS: dict[SuitMode, tuple[float, ...]] = {")
        for mode, weights in fitted.items():
            print(f"    SuitMode.{mode.name}: ({', '.join(f'{weight:.3f}' for weight in weights)}),")
        print("}")
        print("# " + ", ".join(FEATURE_NAMES))
    return 0


def _print_measures(pairs: Sequence[tuple[Example, float]], model: str) -> None:
    """The scores of the old estimates and of the model (named ``model``), and the model's calibration table."""
    print(f"  {'estimate':<36} {'log loss':>9} {'Brier':>7}")
    for name, scored in (
        ("share of worlds won (old)", [(example, raw_low(example.evidence)) for example, _ in pairs]),
        ("middle of the old range", [(example, raw_middle(example.evidence)) for example, _ in pairs]),
        (model, pairs),
    ):
        result = score(scored)
        print(f"  {name:<36} {result.log_loss:>9.3f} {result.brier:>7.3f}")
    print(f"  {'chance':>16} {'hints':>6} {'mean chance':>12} {'in games won':>13}")
    for label, count, mean, share in calibration_table(pairs):
        print(f"  {label:>16} {count:>6} {mean:>12.1%} {share:>13.1%}")


if __name__ == "__main__":
    raise SystemExit(main())
