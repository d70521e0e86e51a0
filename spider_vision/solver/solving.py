"""``solve(position, limits)``: find a winning line for a position whose every card is known.

The search (``search.py``, or its native twin ``_native.c`` when it was
built) works on a compact copy of the position; its moves come back here in
notation. A search stopped by a limit says "no solution found"; only an
exhaustive search says "unwinnable". Two plans for a player who cannot see
the hidden cards sit beside it: ``explore`` (every hidden card a blocker)
and ``plan_under_chance`` (the unseen cards dealt afresh at every iteration,
``chance_tree.py``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Literal

from spider_vision.engine import STANDARD, Card, Deal, MaybeCard, Move, Position, TableauMove, Variant
from spider_vision.engine.errors import SpiderError
from spider_vision.solver import chance_tree, search

__all__ = [
    "ChanceMove",
    "ChancePlan",
    "ExploreResult",
    "SolveLimits",
    "SolveResult",
    "SolverError",
    "explore",
    "native_available",
    "plan_under_chance",
    "solve",
]

logger = logging.getLogger(__name__)

try:
    from spider_vision.solver import _native  # type: ignore[attr-defined]
except ImportError:  # the C extension was not built: the pure-Python search runs instead
    _native = None

FIRST_WIDTH = 50
GROWTH = 2
CHANCE_EXPLORATION = 0.3
CHANCE_TEMPERATURE = 100.0
CHANCE_ROLLOUT = 10
"""The tree search under chance: its UCB1 constant, the score gain valued 3/4 (as much lost: 1/4;
none: 1/2), and the moves of the greedy line that values a new node (two suits, the plan alone,
deals 1001..1100: 45 won with these; 41 with a gain of 50; 45 with 50 and 20 moves, slower)."""
# Weight sets (face-down card, break, suit break, same-suit link, empty column,
# removed run) that take turns at each beam width; chosen on deals 1..150 of
# four suits (bench/solver.py), where each fails on deals the other wins.
WEIGHT_SETS: list[search.Weights] = [(12, 6, 2, 4, 30, 60), (12, 6, 2, 2, 15, 60)]
_SUIT_INDEX = {"s": 0, "h": 1, "d": 2, "c": 3}

Backend = Literal["auto", "native", "python"]


class SolverError(SpiderError, ValueError):
    """A position or request the solver cannot take (unknown cards, a rule variant, bad limits)."""


@dataclass(frozen=True, slots=True)
class SolveLimits:
    """When to give up: after ``seconds`` of search or ``nodes`` positions (``None``: no limit).

    ``first_width`` is the beam the search starts with before it widens: a
    narrow one solves easy positions in fewer positions, a wide one wastes
    less on hard ones.
    """

    seconds: float | None = 10.0
    nodes: int | None = None
    first_width: int = FIRST_WIDTH

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise SolverError(f"time limit must be more than 0 seconds, not {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise SolverError(f"position limit must be at least 1, not {self.nodes}")
        if self.first_width < 1:
            raise SolverError(f"the first beam must be at least 1 wide, not {self.first_width}")


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The answer: ``moves`` in notation win the game when ``solved``.

    ``exhaustive`` is true only when the search covered every line, so that
    ``solved`` false means the position cannot be won.
    """

    solved: bool
    moves: tuple[str, ...]
    nodes: int
    seconds: float
    exhaustive: bool
    backend: str = field(default="python", compare=False)

    @property
    def verdict(self) -> str:
        """``solved``, ``unwinnable`` (proved) or ``no solution found``."""
        if self.solved:
            return "solved"
        return "unwinnable" if self.exhaustive else "no solution found"

    def to_json(self) -> dict[str, object]:
        """The command line's JSON form."""
        return {
            "solved": self.solved,
            "moves": list(self.moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "exhaustive": self.exhaustive,
        }


@dataclass(frozen=True, slots=True)
class ExploreResult:
    """What ``explore`` found: a win (``won``) or the moves to the best position and its score.

    ``moves`` is empty when nothing beat the position itself (``score`` is then its own).
    """

    won: bool
    moves: tuple[str, ...]
    nodes: int
    score: int


def native_available() -> bool:
    """Whether the compiled search core is present."""
    return _native is not None


def encode(position: Position) -> tuple[search.Compact, bytes]:
    """The search's compact form of a fully known position, and its stock."""
    if not position.is_fully_known:
        raise SolverError(
            "the solver needs every card known, face-down and stock cards included; "
            "this position has unknown cards (??)"
        )
    return _compact(position, _card_bytes)


def _card_bytes(cards: tuple[MaybeCard, ...]) -> bytes:
    return bytes(card.rank | _SUIT_INDEX[card.suit] << 4 for card in cards if card is not None)


def _blind_bytes(cards: tuple[MaybeCard, ...]) -> bytes:
    return bytes(
        search.OPAQUE if card is None else card.rank | _SUIT_INDEX[card.suit] << 4 for card in cards
    )


def encode_blind(position: Position) -> tuple[search.Compact, bytes]:
    """The compact form of a position whose unknown cards (face down, stock) become opaque blockers."""
    if any(None in column.up for column in position.columns):
        raise SolverError("explore needs every face-up card read; this position has unread cards (??)")
    return _compact(position, _blind_bytes)


def _compact(
    position: Position, to_bytes: Callable[[tuple[MaybeCard, ...]], bytes]
) -> tuple[search.Compact, bytes]:
    """Columns, face-down counts and stock as the search's bytes, each card written by ``to_bytes``."""
    columns = tuple(to_bytes(column.cards()) for column in position.columns)
    downs = tuple(len(column.down) for column in position.columns)
    stock = to_bytes(position.stock)
    if len(stock) % 10:
        raise SolverError(f"the stock holds {len(stock)} cards, not a multiple of ten")
    return (columns, downs, 0, len(position.removed)), stock


def _native_columns(root: search.Compact) -> list[bytes]:
    """The native core's columns: each the face-down count, then the cards bottom first."""
    return [bytes((down,)) + pile for pile, down in zip(root[0], root[1])]


def _uses_native(backend: Backend) -> bool:
    """Whether ``backend`` runs on the native core; asking for it when it was not built is an error."""
    if backend == "native" and _native is None:
        raise SolverError("the native solver core was not built; reinstall with a C compiler")
    return backend != "python" and _native is not None


def _to_move(step: search.Move) -> Move:
    source, target, count = step
    return Deal() if source < 0 else TableauMove(source, target, count)


def solve(
    position: Position,
    limits: SolveLimits = SolveLimits(),
    *,
    variant: Variant = STANDARD,
    backend: Backend = "auto",
) -> SolveResult:
    """Search for a winning line of ``position`` within ``limits``.

    ``backend`` picks the native core (``native``, an error if it was not
    built), the pure-Python search (``python``) or the native one when present
    (``auto``); both give the same answer for the same position limit.
    """
    if variant != STANDARD:
        raise SolverError("the solver plays the standard rules only")
    root, stock = encode(position)
    use_native = _uses_native(backend)
    seconds = limits.seconds or 0.0
    nodes = limits.nodes or 0
    started = time.monotonic()
    if use_native:
        status, path, count, exhaustive, runs = _native.solve(
            _native_columns(root), stock, root[3], limits.first_width, GROWTH, seconds, nodes, WEIGHT_SETS
        )
        outcome = search.SearchOutcome(status, tuple(path), count, bool(exhaustive), runs)
    else:
        outcome = search.search(root, stock, limits.first_width, GROWTH, seconds, nodes, WEIGHT_SETS)
    elapsed = time.monotonic() - started
    logger.info(
        "%s: %s after %d positions, %d beam runs, %.2f s",
        "native" if use_native else "python", outcome.status, outcome.nodes, outcome.runs, elapsed,
    )
    return SolveResult(
        solved=outcome.status == "won",
        moves=tuple(str(_to_move(step)) for step in outcome.moves),
        nodes=outcome.nodes,
        seconds=elapsed,
        exhaustive=outcome.exhaustive,
        backend="native" if use_native else "python",
    )


def explore(
    position: Position,
    nodes: int,
    *,
    width: int = FIRST_WIDTH,
    weights: search.Weights = WEIGHT_SETS[0],
    backend: Backend = "auto",
    see_face_down: bool = False,
) -> ExploreResult:
    """Plan with the known cards only: the moves to the best-scoring position one beam run finds.

    Unknown cards (face down or in the stock, known or not) are opaque
    blockers: a card the plan turns over or deals is one it cannot use. So the
    plan is one a player could make, and it cannot profit from hidden cards.
    With ``see_face_down`` the face-down cards that ``position`` gives are
    used (the stock stays blind): not a player's plan but a bound on what
    knowing them is worth (``bench/first_deal.py``).
    """
    observed = position.observed()
    root, stock = encode_blind(replace(position, stock=observed.stock) if see_face_down else observed)
    if _uses_native(backend):
        status, path, count, best = _native.explore(_native_columns(root), stock, root[3], width, nodes, weights)
        outcome = search.ExploreOutcome(status, tuple(path), count, best)
    else:
        outcome = search.explore(root, stock, width, nodes, weights)
    return ExploreResult(
        won=outcome.status == "won",
        moves=tuple(str(_to_move(step)) for step in outcome.moves),
        nodes=outcome.nodes,
        score=outcome.score,
    )


@dataclass(frozen=True, slots=True)
class ChanceMove:
    """One first move of ``plan_under_chance``: how often the search tried it and what it was worth (0..1).

    ``mean`` is the mean value of the lines tried through it and ``best``
    the best; 0.5 is the position as it stands, 1 a win.
    """

    move: str
    visits: int
    mean: float
    best: float


@dataclass(frozen=True, slots=True)
class ChancePlan:
    """What ``plan_under_chance`` found: its first moves, the iterations run and the positions generated."""

    moves: tuple[ChanceMove, ...]
    iterations: int
    nodes: int

    def choice(self, allowed: set[str]) -> str | None:
        """The allowed move tried most, if some line through it improves the position (``None`` if none does)."""
        ranked = sorted(
            (row for row in self.moves if row.move in allowed and row.best > 0.5),
            key=lambda row: (-row.visits, row.move),
        )
        return ranked[0].move if ranked else None


def plan_under_chance(
    position: Position,
    unseen: tuple[Card, ...],
    iterations: int,
    *,
    nodes: int = 0,
    seconds: float = 0.0,
    weights: search.Weights = WEIGHT_SETS[0],
    exploration: float = CHANCE_EXPLORATION,
    temperature: float = CHANCE_TEMPERATURE,
    rollout_depth: int = CHANCE_ROLLOUT,
    seed: int = 0,
    backend: Backend = "auto",
) -> ChancePlan:
    """Plan as a player: a tree search over what they see, the ``unseen`` cards dealt afresh each iteration.

    See ``chance_tree.py``. ``unseen`` are the cards a player has not seen,
    as many as the face-down places and the stock hold; the position's own
    hidden cards are never looked at. ``nodes`` and ``seconds`` (0: none)
    stop the search after that many moves applied or that much time.
    """
    observed = position.observed()
    root, _ = encode_blind(observed)
    hidden = sum(root[1]) + len(observed.stock)
    if len(unseen) != hidden:
        raise SolverError(f"{len(unseen)} unseen cards for {hidden} hidden places (face down and stock)")
    if iterations < 1:
        raise SolverError(f"the plan needs at least one iteration, not {iterations}")
    cards = _card_bytes(unseen)
    args = (iterations, nodes, seconds, weights, exploration, temperature, rollout_depth, seed & (2**64 - 1))
    if _uses_native(backend):
        done, spent, rows = _native.plan_under_chance(_native_columns(root), cards, root[3], *args)
    else:
        outcome = chance_tree.plan_under_chance(root, cards, *args)
        done, spent, rows = outcome.iterations, outcome.nodes, [(*move, *rest) for move, *rest in outcome.moves]
    found = tuple(
        ChanceMove(str(_to_move((source, target, count))), visits, mean, best)
        for source, target, count, visits, mean, best in rows
    )
    return ChancePlan(found, done, spent)
