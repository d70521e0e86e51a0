"""Planning under chance, in pure Python: a tree search over what a player sees.

This module is the specification of ``_native.c``'s ``plan_under_chance``;
the two make the same choices move for move, random draws included, for the
same seed (the tests compare them). Change both or neither.

Why this search: the full-information solver, run on sampled worlds, plans
as if it knew the hidden cards, and a plan on the known cards alone
(``search.explore``) treats every card it turns over as a blocker. A player
does neither: they expect the card under a pile to be one of the unseen
cards, any of them. So each iteration deals the unseen cards at random into
the face-down places and the stock, and walks a tree whose nodes are what a
player sees (the face-down cards masked): the same moves lead to the same
node in every world until a card turns over, and then to the node of the
card shown. Moves are chosen by UCB1; each new node is valued by a short
greedy line (the move to the best-scoring position, each time) whose best
score, relative to the root's, is squashed to 0..1 (a win is 1). The deal is
never played: the plan says what to do before it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from spider_vision.solver.search import Compact, Move, Weights, apply, moves, score

__all__ = ["ChanceOutcome", "ROLLOUT_SEEN", "TREE_DEPTH", "plan_under_chance"]

TREE_DEPTH = 64
ROLLOUT_SEEN = 256
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

BlindKey = tuple[int, tuple[tuple[int, bytes], ...]]


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """Iterations run, positions generated, and per first move: (move, visits, mean value, best value)."""

    iterations: int
    nodes: int
    moves: tuple[tuple[Move, int, float, float], ...]


class _Random:
    """splitmix64, as the native core draws."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)


class _Edge:
    """A move from a node: how often it was tried, the sum of its values and the best one."""

    __slots__ = ("best", "move", "n", "total")

    def __init__(self, move: Move) -> None:
        self.move = move
        self.n = 0
        self.total = 0.0
        self.best = 0.0


class _Node:
    """A position as a player sees it: its moves and how often the search passed through it."""

    __slots__ = ("edges", "visits")

    def __init__(self, edges: list[_Edge]) -> None:
        self.edges = edges
        self.visits = 0


def _blind_key(position: Compact, deals: int) -> BlindKey:
    """What a player sees of ``position``: the deals left and each column's face-down count and face-up cards."""
    cols, downs, dealt, _ = position
    return deals - dealt, tuple((down, pile[down:]) for pile, down in zip(cols, downs))


def _squash(value: int, base: int, temperature: float) -> float:
    """A score against ``base`` on 0..1: equal is 1/2, ``temperature`` more is 3/4."""
    x = (value - base) / temperature
    return 0.5 + 0.5 * x / (1.0 + abs(x))


class _Search:
    """One search's state: its random draws, the stock of the world being walked, the moves applied."""

    def __init__(self, deals: int, weights: Weights, temperature: float, seed: int) -> None:
        self.deals = deals
        self.weights = weights
        self.temperature = temperature
        self.random = _Random(seed)
        self.stock = b""
        self.nodes = 0
        self.base = 0

    def node_for(self, position: Compact) -> _Node:
        """A new node: one edge for each of the position's moves but the deal."""
        return _Node([_Edge(move) for move in moves(position, self.deals, True) if move[0] >= 0])

    def rollout(self, start: Compact, depth: int) -> float:
        """The best score a greedy player reaches in ``depth`` moves from ``start``, squashed (a win: 1)."""
        best = score(start, self.weights)
        if start[3] == 8:
            return 1.0
        seen = [_blind_key(start, self.deals)]
        position = start
        for _ in range(depth):
            chosen: Compact | None = None
            chosen_score = 0
            ties = 0
            for move in moves(position, self.deals, True):
                if move[0] < 0:
                    continue
                after = apply(position, move, self.stock)
                self.nodes += 1
                if after[3] == 8:
                    return 1.0
                if _blind_key(after, self.deals) in seen:
                    continue
                value = score(after, self.weights)
                if chosen is None or value > chosen_score:
                    chosen, chosen_score, ties = after, value, 1
                elif value == chosen_score:
                    ties += 1
                    if self.random.next() % ties == 0:
                        chosen = after
            if chosen is None:
                break
            position = chosen
            if len(seen) < ROLLOUT_SEEN:
                seen.append(_blind_key(position, self.deals))
            best = max(best, chosen_score)
        return _squash(best, self.base, self.temperature)

    def world(self, root: Compact, unseen: bytes) -> Compact:
        """``root`` with the unseen cards dealt at random into its face-down places; the rest is the stock."""
        pool = list(unseen)
        for k in range(len(pool) - 1, 0, -1):
            r = self.random.next() % (k + 1)
            pool[k], pool[r] = pool[r], pool[k]
        cols, downs, dealt, removed = root
        columns = []
        taken = 0
        for pile, down in zip(cols, downs):
            columns.append(bytes(pool[taken : taken + down]) + pile[down:])
            taken += down
        self.stock = bytes(pool[taken:])
        return tuple(columns), downs, dealt, removed


def plan_under_chance(
    root: Compact,
    unseen: bytes,
    iterations: int,
    node_limit: int,
    seconds: float,
    weights: Weights,
    exploration: float,
    temperature: float,
    rollout_depth: int,
    seed: int,
) -> ChanceOutcome:
    """Run the tree search from ``root`` (hidden cards opaque) over worlds dealt from ``unseen``.

    It stops after ``iterations``, or earlier after ``node_limit`` moves applied or ``seconds``
    (either <= 0: no such limit).
    """
    hidden = sum(root[1])
    if len(unseen) < hidden or (len(unseen) - hidden) % 10 or len(unseen) - hidden > 50 or len(unseen) > 104:
        raise ValueError("the unseen cards do not fill the face-down places and a stock")
    if temperature <= 0 or iterations < 1:
        raise ValueError("temperature and iterations must be positive")
    search = _Search((len(unseen) - hidden) // 10, weights, temperature, seed)
    search.base = score(root, weights)
    root_key = _blind_key(root, search.deals)
    root_node = search.node_for(root)
    tree = {root_key: root_node}
    done = 0
    deadline = time.monotonic() + seconds if seconds > 0 else 0.0
    while done < iterations:
        if node_limit > 0 and search.nodes >= node_limit:
            break
        if deadline > 0 and done & 15 == 0 and time.monotonic() >= deadline:
            break
        position = search.world(root, unseen)
        node = root_node
        keys = [root_key]
        path: list[tuple[_Node, _Edge]] = []
        value = -1.0
        for depth in range(TREE_DEPTH - 1):
            if not node.edges:
                break
            count = len(node.edges)
            start = search.random.next() % count
            logn = math.log1p(node.visits)
            pick = node.edges[0]
            best_ucb = -1.0
            for offset in range(count):
                edge = node.edges[(start + offset) % count]
                if edge.n == 0:
                    pick = edge
                    break
                ucb = edge.total / edge.n + exploration * math.sqrt(logn / edge.n)
                if ucb > best_ucb:
                    best_ucb, pick = ucb, edge
            path.append((node, pick))
            after = apply(position, pick.move, search.stock)
            search.nodes += 1
            if after[3] == 8:
                value = 1.0
                break
            key = _blind_key(after, search.deals)
            if key in keys[: depth + 1]:
                value = _squash(score(position, weights), search.base, temperature)
                break
            position = after
            keys.append(key)
            child = tree.get(key)
            if child is None:
                if len(tree) < iterations + 1:
                    tree[key] = search.node_for(position)
                value = search.rollout(position, rollout_depth)
                break
            node = child
        if value < 0:
            value = search.rollout(position, rollout_depth)
        for visited, edge in path:
            visited.visits += 1
            edge.n += 1
            edge.total += value
            edge.best = max(edge.best, value)
        done += 1
    rows = tuple(
        (edge.move, edge.n, edge.total / edge.n if edge.n else 0.0, edge.best) for edge in root_node.edges
    )
    return ChanceOutcome(done, search.nodes, rows)
