"""How many newly drawn worlds each legal move wins, judged as a player must play it.

A measure for studying hints and lost games (``bench/appraise.py``), not part
of a hint: it costs one or two searches per world and move. Each world is a
guess of the hidden cards drawn afresh from what a player knows. A world's
search knows that world's hidden cards, so after a move that shows no card it
picks the continuation that suits them, and a quiet move looks better than it
is (strategy fusion). So two figures are given for each move: ``own``, the
worlds won when each world goes on as its own search finds best, and
``shared``, the worlds won when every world first makes the same moves up to
the first card shown (``shared_prefix``: as most worlds' own winning lines
play them) and only then goes its own way. A move that shows a card has one
figure. A world whose search stops at its limit, neither won nor proved lost,
counts a half.
"""

from __future__ import annotations

import logging
import random
import zlib
from dataclasses import dataclass

from spider_vision.engine import Card, Move, Position, apply_move, legal_moves
from spider_vision.hint.knowledge import Knowledge, determinise
from spider_vision.hint.worlds import World, play_line, shared_prefix, shows_card
from spider_vision.solver import SolveLimits, SolveResult, solve

__all__ = ["MoveAppraisal", "appraise_moves"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MoveAppraisal:
    """One move's worlds won out of ``worlds``: each world going its own way, and sharing ``prefix`` first."""

    move: Move
    shows_card: bool
    own: float
    shared: float
    prefix: tuple[str, ...]
    worlds: int


def appraise_moves(
    position: Position,
    seen: tuple[Card, ...] = (),
    *,
    worlds: int = 12,
    nodes: int = 200_000,
    seed: int = 0,
) -> list[MoveAppraisal]:
    """Every legal move of ``position`` as a player sees it, tried in ``worlds`` newly drawn worlds.

    Face-down and stock cards given in ``position`` are ignored; the same
    position and ``seed`` give the same worlds. Each search may examine
    ``nodes`` positions.
    """
    knowledge = Knowledge.of(position, seen)
    observed = knowledge.position
    rng = random.Random(zlib.crc32(f"{observed.spn()} {seed}".encode()))
    drawn = [determinise(knowledge, random.Random(rng.getrandbits(64))) for _ in range(worlds)]
    limits = SolveLimits(seconds=None, nodes=nodes)
    appraisals = []
    for move in legal_moves(observed):
        text = str(move)
        results = [solve(apply_move(world, move).after, limits) for world in drawn]
        own = sum(_worth(result) for result in results)
        if shows_card(observed, apply_move(observed, move).after):
            appraisals.append(MoveAppraisal(move, True, own, own, (text,), worlds))
            continue
        # A line that undoes the move first (a card to an empty column and back) keeps that detour: the
        # moves shared are then the ones really played, not the move alone with each world's own sequel.
        lined = [World(world, {text: (text, *result.moves)} if result.solved else {})
                 for world, result in zip(drawn, results)]
        prefix = shared_prefix(lined, text)
        starts = [play_line(world, prefix) for world in drawn]
        shared = sum(_worth(solve(start, limits)) for start in starts if start is not None)
        logger.info("%s: own %.1f, shared %.1f of %d after %s", text, own, shared, worlds, " ".join(prefix))
        appraisals.append(MoveAppraisal(move, False, own, shared, prefix, worlds))
    return appraisals


def _worth(result: SolveResult) -> float:
    """A world won counts one, proved lost none, stopped at its limit a half."""
    return 1.0 if result.solved else 0.0 if result.exhaustive else 0.5
