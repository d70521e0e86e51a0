"""Shared test helpers: hypothesis strategies for positions and random play from deals."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from spider_vision.engine import (
    STANDARD,
    Card,
    Column,
    Deal,
    Move,
    Position,
    Removal,
    Step,
    SuitMode,
    TableauMove,
    Variant,
    apply_move,
    deal_position,
    legal_moves,
)

MODES = list(SuitMode)
VARIANTS = [
    STANDARD,
    Variant(deal_with_empty_columns=True),
    Variant(manual_removal=True),
    Variant(deal_with_empty_columns=True, manual_removal=True),
]


def conserved(position: Position) -> bool:
    """Whether a full-information position holds exactly the 104 cards of its mode.

    Tableau plus stock plus 13 per removed run, each card exactly as many
    times as the mode has copies.
    """
    cards = Counter(position.all_cards())
    for suit in position.removed:
        cards.update(Card(rank, suit) for rank in range(1, 14))
    return None not in cards and cards == position.mode.deck()


def candidate_moves(position: Position) -> list[Move]:
    """Every move worth asking about: all column pairs and counts up to one past the face-up cards."""
    moves: list[Move] = [Deal()]
    for source, column in enumerate(position.columns):
        moves.append(Removal(source))
        for target in range(10):
            for count in range(1, min(len(column.up) + 1, 104) + 1):
                moves.append(TableauMove(source, target, count))
    return moves


def play_randomly(start: Position, variant: Variant, rng: random.Random, plies: int) -> list[Step]:
    """Legal random moves from ``start``.

    Deals are taken less often and moves that build in suit more often, so
    that the tableau gets played and runs get completed now and then.
    """
    steps: list[Step] = []
    position = start
    for _ in range(plies):
        moves = legal_moves(position, variant)
        if not moves:
            break
        tableau = [move for move in moves if not isinstance(move, Deal)]
        in_suit = [move for move in tableau if _builds_in_suit(position, move)]
        if in_suit and rng.random() < 0.6:
            move = rng.choice(in_suit)
        elif tableau and rng.random() < 0.9:
            move = rng.choice(tableau)
        else:
            move = rng.choice(moves)
        step = apply_move(position, move, variant)
        steps.append(step)
        position = step.after
    return steps


def _builds_in_suit(position: Position, move: Move) -> bool:
    if isinstance(move, Removal):
        return True
    assert isinstance(move, TableauMove)
    top = position.columns[move.target].top
    up = position.columns[move.source].up
    base = up[-move.count]
    if top is None or base is None or top.suit != base.suit:
        return False
    below = up[-move.count - 1] if move.count < len(up) else None
    return below is None or below.suit != base.suit or below.rank != base.rank + 1


@st.composite
def deals(draw: st.DrawFn) -> Position:
    """The full-information start of a random numbered deal in a random mode."""
    return deal_position(draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from(MODES)))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Arbitrary valid positions (not necessarily reachable), some cards unknown."""
    mode = draw(st.sampled_from(MODES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    deck = list(mode.deck().elements())
    runs = draw(st.permutations(mode.suits * mode.copies))
    removed = "".join(runs[: draw(st.integers(0, 8))])
    for suit in removed:
        for rank in range(1, 14):
            deck.remove(Card(rank, suit))
    rng.shuffle(deck)
    stock_size = 10 * draw(st.integers(0, min(5, len(deck) // 10)))
    stock = tuple(deck[:stock_size])
    rest = deck[stock_size:]
    cuts = sorted(draw(st.lists(st.integers(0, len(rest)), min_size=9, max_size=9)))
    piles = [rest[a:b] for a, b in zip([0, *cuts], [*cuts, len(rest)])]
    columns = []
    for pile in piles:
        down_size = draw(st.integers(0, max(0, len(pile) - 1))) if pile else 0
        down, up = tuple(pile[:down_size]), tuple(pile[down_size:])
        hide = draw(st.sampled_from(["none", "all", "some"]))
        if hide == "all":
            down = (None,) * len(down)
        elif hide == "some":
            down = tuple(None if rng.random() < 0.5 else card for card in down)
            up = tuple(None if rng.random() < 0.2 else card for card in up)
        columns.append(Column(down, up))
    if draw(st.booleans()):
        stock = (None,) * len(stock)
    elif draw(st.booleans()):
        stock = tuple(None if rng.random() < 0.3 else card for card in stock)
    return Position(tuple(columns), stock, removed, mode)
