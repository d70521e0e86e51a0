"""Sampled worlds carried from one hint to the next.

A world is one full-information guess of the hidden cards, consistent with
what the player has seen, with the winning line the solver found in it. When
the game moves on, each world makes the same move; a card turned over in the
real game that differs from the world's guess is swapped in from the world's
hidden cards, so the world stays consistent with everything seen. A world's
line survives a move that follows it and no swap that breaks it, which makes
most hints along a game nearly free. Until a card is shown a player learns
nothing, so the moves up to there are one for every world
(``shared_prefix``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from spider_vision.engine import (
    Column,
    IllegalMoveError,
    Move,
    Position,
    apply_move,
    legal_moves,
    parse_move,
)

__all__ = [
    "World", "advance", "game_progress", "infer_move", "line_wins", "play_line", "shared_prefix", "shows_card",
    "without_loops",
]


@dataclass(frozen=True)
class World:
    """A full-information guess and the winning lines found in it, by first move.

    ``tried`` are the first moves already searched (won or not); ``searched``
    says whether the world was searched from its own position at all, and
    ``proved_lost`` whether that search covered every line without a win.
    """

    position: Position
    lines: dict[str, tuple[str, ...]] = field(default_factory=dict)
    searched: bool = False
    tried: frozenset[str] = frozenset()
    proved_lost: bool = False

    @property
    def won(self) -> bool:
        """Whether the solver found a winning line in this world."""
        return bool(self.lines)

    def with_line(self, first: str, line: tuple[str, ...] | None) -> World:
        """This world with the first move ``first`` tried, and its winning line if one was found."""
        lines = dict(self.lines)
        if line is not None:
            lines[first] = line
        return World(self.position, lines, True, self.tried | {first})


def infer_move(before: Position, after: Position) -> Move | None:
    """The legal move of observed position ``before`` that leads to observed ``after``, if one does.

    Cards turned over by the move are unknown in ``before``'s result and may be
    anything in ``after``.
    """
    for move in legal_moves(before):
        if _fits(apply_move(before, move).after, after):
            return move
    return None


def _fits(expected: Position, seen: Position) -> bool:
    """Same shape, and every card known in ``expected`` is the one in ``seen``."""
    return (
        expected.mode == seen.mode
        and _same_shape(expected, seen)
        and all(
            card is None or card == other
            for mine, theirs in zip(expected.columns, seen.columns)
            for card, other in zip(mine.up, theirs.up)
        )
    )


def advance(world: World, move: Move, observed: Position) -> World | None:
    """The world after ``move``, made consistent with ``observed``; ``None`` if it cannot be."""
    try:
        moved = apply_move(world.position, move).after
    except IllegalMoveError:
        return None
    repaired, swapped = _repair(moved, observed)
    if repaired is None:
        return None
    line = world.lines.get(str(move))
    if line is not None and len(line) > 1:
        rest = line[1:]
        if not swapped or line_wins(repaired, rest):
            return World(repaired, {rest[0]: rest}, searched=True, tried=frozenset({rest[0]}))
    return World(repaired)


def _repair(world: Position, observed: Position) -> tuple[Position | None, bool]:
    """Swap hidden cards of ``world`` so that its face-up cards are the observed ones.

    The observed card comes from the last hidden place holding it: the stock's
    last deals when the stock holds it, so the world's face-down cards, which
    its line uses soonest, stay as they were and the line mostly still wins.
    Drawing the place at random, which keeps a uniformly drawn world uniform,
    broke more lines and lost more games (four suits, deals 1..21: 1 won
    against 7; ``docs/hints.md``).
    """
    if not _same_shape(world, observed):
        return None, False
    columns = [list(column.down) for column in world.columns]
    ups = [list(column.up) for column in world.columns]
    stock = list(world.stock)
    hidden: dict[object, list[tuple[str, int, int]]] = {}
    for index, down in enumerate(columns):
        for slot, card in enumerate(down):
            hidden.setdefault(card, []).append(("down", index, slot))
    for slot, card in enumerate(stock):
        hidden.setdefault(card, []).append(("stock", 0, slot))
    swapped = False
    for index, column in enumerate(observed.columns):
        for slot, wanted in enumerate(column.up):
            have = ups[index][slot]
            if wanted is None or wanted == have:
                continue
            places = hidden.get(wanted)
            if not places:
                return None, False
            kind, where, place = places.pop()
            if kind == "down":
                columns[where][place] = have
            else:
                stock[place] = have
            hidden.setdefault(have, []).append((kind, where, place))
            ups[index][slot] = wanted
            swapped = True
    repaired = Position(
        tuple(Column(tuple(down), tuple(up)) for down, up in zip(columns, ups)),
        tuple(stock),
        world.removed,
        world.mode,
    )
    if any(column.completed_suit() is not None for column in repaired.columns):
        return None, False
    return repaired, swapped


def _same_shape(world: Position, observed: Position) -> bool:
    """Same removed runs, stock size and face-down and face-up counts in every column."""
    return (
        world.removed == observed.removed
        and len(world.stock) == len(observed.stock)
        and all(
            len(mine.down) == len(theirs.down) and len(mine.up) == len(theirs.up)
            for mine, theirs in zip(world.columns, observed.columns)
        )
    )


def play_line(position: Position, line: tuple[str, ...]) -> Position | None:
    """``position`` after the moves of ``line``, or ``None`` if one of them is not legal on the way."""
    try:
        for text in line:
            move, _ = parse_move(text)
            position = apply_move(position, move).after
    except (IllegalMoveError, ValueError):
        return None
    return position


def line_wins(position: Position, line: tuple[str, ...]) -> bool:
    """Whether playing ``line`` from the full-information ``position`` wins."""
    after = play_line(position, line)
    return after is not None and after.is_won


def without_loops(position: Position, line: tuple[str, ...]) -> tuple[str, ...]:
    """``line`` from the full-information ``position`` with every stretch that comes back to a position cut out.

    A winning line stays winning: it passes the same positions, minus the
    detours. Detours come from trying a first move in a world: the solver's
    line from there may begin by undoing it ("ci" then "ic"), which would make
    every reversible move look as good as the world's own line, and a hint
    that follows such lines plays moves back and forth.
    """
    passed = [position]
    kept: list[str] = []
    where = {position: 0}
    for step, text in enumerate(line):
        try:
            move, _ = parse_move(text)
            position = apply_move(position, move).after
        except (IllegalMoveError, ValueError):
            return (*kept, *line[step:])  # not a line of this position: nothing more to cut
        back = where.get(position)
        if back is None:
            kept.append(text)
            passed.append(position)
            where[position] = len(kept)
            continue
        for dropped in passed[back + 1 :]:
            del where[dropped]
        del kept[back:], passed[back + 1 :]
    return tuple(kept)


def game_progress(position: Position) -> tuple[int, int, int]:
    """Face-down cards, stock cards and runs removed: what changes only when a game moves on."""
    return (sum(len(column.down) for column in position.columns), len(position.stock), len(position.removed))


def shows_card(before: Position, after: Position) -> bool:
    """Whether a move from ``before`` to ``after`` showed a card: one turned over or the stock dealt."""
    return game_progress(after)[:2] != game_progress(before)[:2]


def shared_prefix(worlds: list[World], first: str) -> tuple[str, ...]:
    """The moves from ``first`` up to the first that shows a card, as most worlds' lines from ``first`` play them.

    Until a card is shown a player learns nothing, so every world must play
    the same moves up to there; a world's own line chose them knowing its
    hidden cards. ``(first,)`` when no world has a line starting with it.
    """
    prefixes: Counter[tuple[str, ...]] = Counter()
    for world in worlds:
        line = world.lines.get(first)
        if line is None:
            continue
        position = world.position
        prefix: list[str] = []
        for text in line:
            move, _ = parse_move(text)
            after = apply_move(position, move).after
            prefix.append(text)
            if shows_card(position, after):
                break
            position = after
        prefixes[tuple(prefix)] += 1
    if not prefixes:
        return (first,)
    return max(prefixes, key=lambda prefix: (prefixes[prefix], -len(prefix)))
