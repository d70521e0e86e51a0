"""The search itself, in pure Python: iterated beam search over compact positions.

This module is the specification of the solver; ``_native.c`` carries out the
same search move for move, and the two must give the same answer for the same
node limit (the tests compare them). Change both or neither.

Why this search:

* Spider needs guidance, not exhaustive depth-first search. A beam keeps, at
  each depth, the ``width`` best positions for each number of stock deals
  left (so dealing early and dealing late compete only with their kind),
  ranked by a score of removed runs, face-down cards, breaks in the face-up
  sequences and empty columns. Several weightings of that score take turns
  (a portfolio): they fail on different deals.
* Iterative widening: a narrow beam solves most deals at once; when it fails
  the search restarts with a wider beam, until the limits end it or the
  widest beam (``MAX_WIDTH``) fails too.
* A transposition table drops every position already kept in this run;
  columns are interchangeable in its key once the stock is empty.
* Pointless moves are pruned: a same-suit run is split only onto a card of
  its own suit, or its top card alone into an empty column while a deal is
  left (a deal needs every column filled); a run goes to the first empty
  column only, never a whole column into an empty one. Completed runs are removed at once (the rules).
* When a pruned beam ends without having cut anything, one unpruned, unlimited
  breadth-first run decides the position: if it finds no win, the position is
  proved lost ("exhaustive").

A position here is ``(columns, downs, dealt, removed)``: ``columns`` ten
``bytes`` of cards bottom first (a card is ``rank | suit_index << 4``),
``downs`` the face-down counts, ``dealt`` the stock deals made, ``removed``
the runs taken off. The stock is shared by the whole search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = [
    "DEAL", "MAX_DEPTH", "MAX_WIDTH", "OPAQUE", "Compact", "ExploreOutcome", "SearchOutcome", "Weights",
    "beam_run", "explore", "search",
]

RUN = 13
MAX_DEPTH = 1500
MAX_WIDTH = 12800  # wider beams need gigabytes; the search stops there
DEAL = (-1, -1, 0)
# A hidden card in explore(): rank 15 fits on nothing and takes nothing, so it
# moves only to an empty column and never joins a run.
OPAQUE = 15


# A weight set: per face-down card, per break in sequence, per break in suit
# only, per same-suit link, per empty column, per removed run.
Weights = tuple[int, int, int, int, int, int]

_COMPLETE = frozenset(bytes(rank | suit << 4 for rank in range(13, 0, -1)) for suit in range(4))

Compact = tuple[tuple[bytes, ...], tuple[int, ...], int, int]
Move = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a search ended with: ``status`` is ``won``, ``lost`` (proved) or ``stopped``."""

    status: str
    moves: tuple[Move, ...]
    nodes: int
    exhaustive: bool
    runs: int


@dataclass(frozen=True, slots=True)
class ExploreOutcome:
    """What explore() ended with: ``won`` or ``best``, and the moves.

    ``best`` gives the moves to the best-scoring position seen (none when
    nothing beat the root) and its ``score``.
    """

    status: str
    moves: tuple[Move, ...]
    nodes: int
    score: int


class _Best:
    """The best-scoring position an exploring beam run has generated: its score and how to get there."""

    def __init__(self, score: int) -> None:
        self.score = score
        self.hist = -1
        self.move: Move = DEAL
        self.history: list[tuple[int, Move]] = []


class _Stop(Exception):
    """A limit was reached."""


class _Context:
    def __init__(self, stock: bytes, deadline: float, node_limit: int) -> None:
        self.stock = stock
        self.deals = len(stock) // 10
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0

    def count_node(self) -> None:
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            raise _Stop
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self.check_time()

    def check_time(self) -> None:
        if self.deadline > 0 and time.monotonic() >= self.deadline:
            raise _Stop


def _settle(columns: list[bytes], downs: list[int], index: int) -> int:
    """Remove a completed run from the end of a column; return 1 if one went."""
    pile = columns[index]
    if len(pile) - downs[index] >= RUN and pile[-RUN:] in _COMPLETE:
        columns[index] = pile[:-RUN]
        return 1
    return 0


def _flip(columns: list[bytes], downs: list[int], index: int) -> None:
    if downs[index] and len(columns[index]) == downs[index]:
        downs[index] -= 1


def apply(position: Compact, move: Move, stock: bytes) -> Compact:
    """The position after ``move`` with its automatic removal and flips."""
    cols, downs_in, dealt, removed = position
    columns = list(cols)
    downs = list(downs_in)
    source, target, count = move
    if source < 0:
        row = stock[10 * dealt : 10 * dealt + 10]
        for index in range(10):
            columns[index] = columns[index] + row[index : index + 1]
        for index in range(10):
            removed += _settle(columns, downs, index)
        for index in range(10):
            _flip(columns, downs, index)
        return tuple(columns), tuple(downs), dealt + 1, removed
    pile = columns[source]
    columns[target] = columns[target] + pile[len(pile) - count :]
    columns[source] = pile[: len(pile) - count]
    removed += _settle(columns, downs, target)
    _flip(columns, downs, source)
    _flip(columns, downs, target)
    return tuple(columns), tuple(downs), dealt, removed


def key(position: Compact, deals: int) -> tuple[int, tuple[bytes, ...]]:
    """Transposition key: columns are interchangeable once no deal is left."""
    cols, downs, dealt, _ = position
    piles = tuple(bytes((down,)) + pile for pile, down in zip(cols, downs))
    left = deals - dealt
    return (left, piles if left > 0 else tuple(sorted(piles)))


def score(position: Compact, weights: Weights) -> int:
    """Higher is better: removed runs and empty columns up; face-down cards and breaks down."""
    w_down, w_break, w_semi, w_suited, w_empty, w_removed = weights
    cols, downs, _, removed = position
    total = w_removed * removed
    for pile, down in zip(cols, downs):
        if not pile:
            total += w_empty
            continue
        total -= w_down * down
        for j in range(down + 1, len(pile)):
            upper, lower = pile[j - 1], pile[j]
            if upper & 15 == (lower & 15) + 1:
                total += w_suited if upper >> 4 == lower >> 4 else -w_semi
            else:
                total -= w_break
    return total


def moves(position: Compact, deals: int, prune: bool) -> list[Move]:
    """Candidate moves in the search's fixed order: source, count, target, then the deal."""
    cols, downs, dealt, _ = position
    runs = []
    first_empty = -1
    for index, pile in enumerate(cols):
        if not pile:
            if first_empty < 0:
                first_empty = index
            runs.append(0)
            continue
        up = len(pile) - downs[index]
        run = 1
        while run < up:
            upper, lower = pile[-run - 1], pile[-run]
            if upper >> 4 != lower >> 4 or upper & 15 != (lower & 15) + 1:
                break
            run += 1
        runs.append(run)
    result: list[Move] = []
    for source, pile in enumerate(cols):
        length = len(pile)
        for count in range(1, runs[source] + 1):
            base = pile[length - count]
            split = count < runs[source]
            for target, other in enumerate(cols):
                if target == source:
                    continue
                if not other:
                    fill = count == 1 and dealt < deals  # a deal needs every column filled
                    if prune and (target != first_empty or count == length or (split and not fill)):
                        continue
                else:
                    top = other[-1]
                    if top & 15 != (base & 15) + 1:
                        continue
                    if prune and split and top >> 4 != base >> 4:
                        continue
                result.append((source, target, count))
    if dealt < deals and first_empty < 0:
        result.append(DEAL)
    return result


def beam_run(
    root: Compact, context: _Context, width: int, prune: bool, weights: Weights, best: _Best | None = None
) -> tuple[str, tuple[Move, ...], bool]:
    """One beam run (``width`` 0: unlimited); return status, winning moves, whether it cut.

    With ``best``, the best-scoring position generated is kept there as it goes.
    """
    deals = context.deals
    stock = context.stock
    truncated = False
    history: list[tuple[int, Move]] = [(-1, DEAL)]
    if best is not None:
        best.history = history
    layer: list[tuple[Compact, int]] = [(root, 0)]
    seen = {key(root, deals)}
    depth = 0
    while True:
        if prune and depth >= MAX_DEPTH:
            return "done", (), True
        candidates: list[tuple[int, int, int, int, Move, tuple[int, tuple[bytes, ...]]]] = []
        local: set[tuple[int, tuple[bytes, ...]]] = set()
        for parent, (position, _) in enumerate(layer):
            for move in moves(position, deals, prune):
                context.count_node()
                child = apply(position, move, stock)
                if child[3] == 8:
                    return "won", _path(history, layer[parent][1], move), truncated
                child_key = key(child, deals)
                if child_key in seen or child_key in local:
                    continue
                local.add(child_key)
                value = score(child, weights)
                if best is not None and value > best.score:
                    best.score, best.hist, best.move = value, layer[parent][1], move
                rank = -value
                candidates.append(
                    (-(deals - child[2]), rank, len(candidates), parent, move, child_key)
                )
        if not candidates:
            return "done", (), truncated
        candidates.sort(key=lambda c: (c[0], c[1], c[2]))
        context.check_time()  # wide layers sort long
        next_layer: list[tuple[Compact, int]] = []
        bucket = None
        kept = 0
        for negative_left, _, _, parent, move, child_key in candidates:
            if negative_left != bucket:
                bucket, kept = negative_left, 0
            if width > 0 and kept >= width:
                truncated = True
                continue
            kept += 1
            position, hist = layer[parent]
            history.append((hist, move))
            next_layer.append((apply(position, move, stock), len(history) - 1))
            seen.add(child_key)
        layer = next_layer
        depth += 1


def _path(history: list[tuple[int, Move]], hist: int, last: Move) -> tuple[Move, ...]:
    path = [last]
    while hist > 0:
        hist, move = history[hist]
        path.append(move)
    return tuple(reversed(path))


def search(
    root: Compact,
    stock: bytes,
    first_width: int,
    growth: int,
    seconds: float,
    node_limit: int,
    weight_sets: list[Weights],
) -> SearchOutcome:
    """Iterated beam search with widening; ``seconds``/``node_limit`` <= 0 mean no limit.

    Each width is tried with every weight set in turn: the sets fail on
    different deals, so a portfolio wins more than any one of them.
    """
    context = _Context(stock, time.monotonic() + seconds if seconds > 0 else 0.0, node_limit)
    if root[3] == 8:
        return SearchOutcome("won", (), 0, True, 0)
    runs = 0
    width = first_width
    try:
        while True:
            truncated = True
            for weights in weight_sets:
                runs += 1
                status, path, truncated = beam_run(root, context, width, True, weights)
                if status == "won":
                    return SearchOutcome("won", path, context.nodes, False, runs)
                if not truncated:
                    break
            if not truncated:
                runs += 1
                status, path, _ = beam_run(root, context, 0, False, weights)
                if status == "won":
                    return SearchOutcome("won", path, context.nodes, False, runs)
                return SearchOutcome("lost", (), context.nodes, True, runs)
            if width * growth > MAX_WIDTH:
                break
            width *= growth
    except _Stop:
        pass
    return SearchOutcome("stopped", (), context.nodes, False, runs)


def explore(root: Compact, stock: bytes, width: int, node_limit: int, weights: Weights) -> ExploreOutcome:
    """One pruned beam run of ``width`` that keeps the best position it generates.

    Hidden cards may be ``OPAQUE``: the run then plans only with the cards a
    player knows (a card it turns over or deals is a blocker it cannot use),
    so its line cannot profit from knowing what lies face down. It returns a
    win when one is found (possible only once every card is known), otherwise
    the moves to the best-scoring position (``node_limit`` <= 0: no limit).
    """
    context = _Context(stock, 0.0, node_limit)
    best = _Best(score(root, weights))
    if root[3] == 8:
        return ExploreOutcome("won", (), 0, best.score)
    try:
        status, path, _ = beam_run(root, context, width, True, weights, best)
        if status == "won":
            return ExploreOutcome("won", path, context.nodes, best.score)
    except _Stop:
        pass
    moves = _path(best.history, best.hist, best.move) if best.hist >= 0 else ()
    return ExploreOutcome("best", moves, context.nodes, best.score)
