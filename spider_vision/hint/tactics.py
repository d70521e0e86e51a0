"""Cheap tactical judgement of moves: a ranking for when time is short, and reasons in words.

The rules are the ones a careful player follows: take a free flip, keep runs
in suit, empty a column, do not split a suited run for nothing, do not deal
while a useful move is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from spider_vision.engine import (
    SUIT_NAMES,
    Card,
    Deal,
    Move,
    Position,
    Removal,
    TableauMove,
    column_letter,
    legal_moves,
)
from spider_vision.engine.cards import MaybeCard

__all__ = ["MoveEffect", "effect", "explain", "tactical_score"]



@dataclass(frozen=True, slots=True)
class MoveEffect:
    """What a tableau move does to the two columns it touches."""

    move: TableauMove
    group: tuple[Card, ...]
    turns_over: bool
    empties: bool
    joins_suit: bool
    onto_empty: bool
    splits_suited: bool
    leaves_suited_home: bool
    joined_run: tuple[Card, ...]


def effect(position: Position, move: TableauMove) -> MoveEffect:
    """Describe a legal tableau move of ``position``."""
    source = position.columns[move.source]
    target = position.columns[move.target]
    group: tuple[Card, ...] = source.up[len(source.up) - move.count :]  # type: ignore[assignment]
    rest = source.up[: len(source.up) - move.count]
    above: MaybeCard = rest[-1] if rest else None
    top = target.top
    base = group[0]
    joins = top is not None and top.suit == base.suit
    in_sequence = above is not None and above.rank == base.rank + 1
    joined: tuple[Card, ...] = ()
    if joins:
        length = target.run_length()
        joined = tuple(target.up[len(target.up) - length :]) + group  # type: ignore[assignment]
    return MoveEffect(
        move=move,
        group=group,
        turns_over=not rest and bool(source.down),
        empties=not rest and not source.down,
        joins_suit=joins,
        onto_empty=target.is_empty,
        splits_suited=in_sequence and above is not None and above.suit == base.suit,
        leaves_suited_home=in_sequence,
        joined_run=joined,
    )


def _run_text(cards: tuple[Card, ...]) -> str:
    if len(cards) <= 4:
        return "-".join(str(card) for card in cards)
    return f"{cards[0]}-{cards[1]}-...-{cards[-1]}"


def explain(position: Position, move: Move) -> str:
    """A short reason for ``move`` in a player's words."""
    if isinstance(move, Deal):
        return "deal: nothing useful is left" if not useful_moves(position) else "deal new cards"
    if isinstance(move, Removal):
        return f"takes the finished run off column {column_letter(move.column)}"
    what = effect(position, move)
    source, target = column_letter(move.source), column_letter(move.target)
    if what.joined_run and what.joined_run[0].rank == 13 and what.joined_run[-1].rank == 1:
        return f"completes the King-to-Ace run of {SUIT_NAMES[what.group[0].suit]}"
    clauses = []
    if what.joins_suit:
        clauses.append(f"joins {_run_text(what.joined_run)} into one run")
    if what.turns_over:
        clauses.append(f"turns over a card in column {source}")
    if what.empties:
        clauses.append(f"empties column {source}")
    if clauses:
        return " and ".join(clauses)
    if what.onto_empty:
        return f"moves {_run_text(what.group)} to the empty column {target}"
    return f"moves {_run_text(what.group)} onto {position.columns[move.target].top}"


def tactical_score(position: Position, move: Move) -> float:
    """How good a move looks without looking ahead (higher is better; a deal scores 0)."""
    if isinstance(move, Deal):
        return 0.0
    if isinstance(move, Removal):
        return 1000.0
    what = effect(position, move)
    score = 0.0
    if what.joined_run and len(what.joined_run) >= 13:
        score += 1000.0
    if what.turns_over:
        score += 300.0 - 10.0 * len(position.columns[move.source].down)
    if what.empties:
        score += 150.0
    lateral = not what.turns_over and not what.empties
    if what.joins_suit and not what.splits_suited:
        score += 100.0 + 5.0 * len(what.joined_run)
    if what.splits_suited and lateral:
        score -= 300.0
    if what.leaves_suited_home and not what.joins_suit and lateral:
        score -= 60.0
    if what.onto_empty:
        score -= 40.0 if what.turns_over else 120.0
    return score


def useful_moves(position: Position) -> list[Move]:
    """Legal tableau moves that look useful (positive tactical score)."""
    return [
        move
        for move in legal_moves(position)
        if not isinstance(move, Deal) and tactical_score(position, move) > 0
    ]
