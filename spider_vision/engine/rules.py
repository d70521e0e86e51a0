"""The rules of Spider: which moves are legal, why others are not, and what a move does.

Legality is an explicit check (``check_move`` raises an ``IllegalMoveError``
subclass whose message a player understands). ``apply_move`` returns a
``Step``: the position after the move with its automatic flips and removals.
With ``force`` it also carries out a move the rules refuse, as a player at a
real table can, and records the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spider_vision.engine.cards import Card, MaybeCard
from spider_vision.engine.errors import (
    BlockedDealError,
    EmptySourceError,
    EmptyStockError,
    FaceDownCardsError,
    IllegalMoveError,
    MixedSuitGroupError,
    NotARunError,
    NotationError,
    NothingToRemoveError,
    OntoAceError,
    PositionError,
    SameColumnError,
    UnknownCardError,
    WrongRankError,
)
from spider_vision.engine.moves import Deal, Move, Removal, TableauMove, column_letter, parse_move
from spider_vision.engine.position import RUN_LENGTH, Column, Position, rank_name

__all__ = [
    "Flip",
    "Removed",
    "Step",
    "Variant",
    "apply_move",
    "check_move",
    "is_legal",
    "legal_moves",
    "legal_steps",
    "resolve_move",
    "reveal",
]


@dataclass(frozen=True, slots=True)
class Variant:
    """Rule options that other programs use; both off by default (the standard rules).

    ``deal_with_empty_columns``: a deal is allowed with an empty column when
    fewer than ten cards remain on the tableau. ``manual_removal``: completed
    runs stay until the player removes them with ``x<column>``.
    """

    deal_with_empty_columns: bool = False
    manual_removal: bool = False

    def to_json(self) -> dict[str, bool]:
        """The variant as the game log's header writes it."""
        return {
            "deal_with_empty_columns": self.deal_with_empty_columns,
            "manual_removal": self.manual_removal,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Variant:
        """Read the header's variant object; unknown keys are ignored."""
        return cls(
            deal_with_empty_columns=bool(data.get("deal_with_empty_columns", False)),
            manual_removal=bool(data.get("manual_removal", False)),
        )


STANDARD = Variant()


@dataclass(frozen=True, slots=True)
class Flip:
    """A face-down card turned over (``card`` is ``None`` until it has been read)."""

    column: int
    card: MaybeCard


@dataclass(frozen=True, slots=True)
class Removed:
    """A completed King-to-Ace run taken off a column."""

    column: int
    suit: str


@dataclass(frozen=True, slots=True)
class Step:
    """One move carried out, or one card read (``move`` is then the ``Flip``).

    ``flips`` and ``removals`` are what followed automatically.
    """

    before: Position
    move: Move | Flip
    after: Position
    flips: tuple[Flip, ...] = ()
    removals: tuple[Removed, ...] = ()
    legal: bool = True
    reason: str = ""


# --- legality ----------------------------------------------------------------


def _group_text(cards: tuple[Card, ...]) -> str:
    return "-".join(str(card) for card in cards)


def _check_group(group: tuple[MaybeCard, ...], source: int) -> None:
    """Refuse a group of face-up cards that may not move together."""
    if any(card is None for card in group):
        raise UnknownCardError(
            f"column {column_letter(source)} holds a card not read yet (??); "
            "it must be read before it can move"
        )
    cards: tuple[Card, ...] = group  # type: ignore[assignment]
    for index in range(len(cards) - 1, 0, -1):
        upper, lower = cards[index - 1], cards[index]
        if upper.rank == lower.rank + 1 and upper.suit == lower.suit:
            continue
        movable = cards[index:]
        only = (
            f"only {movable[0]} can move"
            if len(movable) == 1
            else f"only {_group_text(movable)} can move together"
        )
        if upper.rank == lower.rank + 1:
            raise MixedSuitGroupError(
                f"illegal group move: {_group_text(cards)} is not one suit; {only}"
            )
        raise NotARunError(
            f"illegal group move: {_group_text(cards)} does not step down one rank at a time; "
            f"{only}"
        )


def _check_tableau(position: Position, move: TableauMove) -> None:
    source_letter = column_letter(move.source)
    if move.source == move.target:
        raise SameColumnError(
            f"a move needs two different columns: {source_letter} to {source_letter} goes nowhere"
        )
    source = position.columns[move.source]
    if source.is_empty:
        raise EmptySourceError(f"column {source_letter} is empty; there is nothing to move")
    if move.count > len(source.up):
        if source.down:
            raise FaceDownCardsError(
                f"column {source_letter} has only {len(source.up)} face-up "
                f"card{'s' if len(source.up) != 1 else ''}; face-down cards cannot move"
            )
        raise FaceDownCardsError(
            f"column {source_letter} has only {len(source.up)} "
            f"card{'s' if len(source.up) != 1 else ''}"
        )
    group = source.up[len(source.up) - move.count :]
    _check_group(group, move.source)
    target = position.columns[move.target]
    if target.is_empty:
        return
    base: Card = group[0]  # type: ignore[assignment]
    top = target.top
    target_letter = column_letter(move.target)
    if top is None:
        raise UnknownCardError(
            f"the last card of column {target_letter} is not read yet (??); "
            "it must be read before a card goes on it"
        )
    if top.rank == 1:
        raise OntoAceError(
            f"{base} cannot go on {top} in column {target_letter}: nothing may be put on an Ace"
        )
    if top.rank != base.rank + 1:
        raise WrongRankError(
            f"wrong rank: {base} cannot go on {top}; only {_a_rank(top.rank - 1)} "
            f"goes on {_a_rank(top.rank)}"
        )


def _a_rank(rank: int) -> str:
    """A rank with its article, as a player says it: ``a 9``, ``an 8``, ``an A``."""
    name = rank_name(rank)
    return f"an {name}" if name in ("A", "8") else f"a {name}"


def _check_deal(position: Position, variant: Variant) -> None:
    if not position.stock:
        raise EmptyStockError("the stock is empty; there is nothing left to deal")
    empty = position.empty_columns()
    if not empty:
        return
    if variant.deal_with_empty_columns and position.tableau_size() < 10:
        return
    letters = [column_letter(index) for index in empty]
    if len(letters) == 1:
        where = f"column {letters[0]} is empty"
    else:
        where = f"columns {', '.join(letters[:-1])} and {letters[-1]} are empty"
    raise BlockedDealError(f"blocked deal: {where}; fill every column before dealing")


def _check_removal(position: Position, move: Removal, variant: Variant) -> None:
    if not variant.manual_removal:
        raise IllegalMoveError(
            "completed runs are removed automatically in these rules; there is nothing to take off"
        )
    if position.columns[move.column].completed_suit() is None:
        raise NothingToRemoveError(
            f"column {column_letter(move.column)} does not end with a King-to-Ace run of one suit"
        )


def check_move(position: Position, move: Move, variant: Variant = STANDARD) -> None:
    """Raise an ``IllegalMoveError`` subclass saying why ``move`` is refused; return if legal."""
    if isinstance(move, TableauMove):
        _check_tableau(position, move)
    elif isinstance(move, Deal):
        _check_deal(position, variant)
    else:
        _check_removal(position, move, variant)


def is_legal(position: Position, move: Move, variant: Variant = STANDARD) -> bool:
    """Whether ``move`` is legal in ``position``."""
    try:
        check_move(position, move, variant)
    except IllegalMoveError:
        return False
    return True


def legal_moves(position: Position, variant: Variant = STANDARD) -> list[Move]:
    """Every legal move: tableau moves by source, target and count, then removals, then the deal.

    Generated in that order directly (no sort): a movable run's cards step down
    by one rank, so at most one count fits on a given top card, and every
    count fits an empty column.
    """
    moves: list[Move] = []
    columns = position.columns
    tops = [column.up[-1] if column.up else None for column in columns]
    empty = [column.is_empty for column in columns]
    for source, column in enumerate(columns):
        run = column.run_length()
        if not run:
            continue
        lowest = tops[source].rank  # type: ignore[union-attr]
        for target, top in enumerate(tops):
            if target == source:
                continue
            if empty[target]:
                moves.extend(TableauMove(source, target, count) for count in range(1, run + 1))
            elif top is not None:
                count = top.rank - lowest
                if 1 <= count <= run:
                    moves.append(TableauMove(source, target, count))
    if variant.manual_removal:
        moves.extend(
            Removal(index)
            for index, column in enumerate(columns)
            if column.completed_suit() is not None
        )
    if is_legal(position, Deal(), variant):
        moves.append(Deal())
    return moves


def resolve_move(position: Position, text: str, variant: Variant = STANDARD) -> Move:
    """Read a move in the context of a position.

    A tableau move written without a count means one card, unless one card
    cannot go there and exactly one other count can; when no count can, the
    count that would put the right rank on the target is chosen so that the
    refusal explains the real problem (mixed suits, say).
    """
    move, count_missing = parse_move(text)
    if not count_missing or not isinstance(move, TableauMove):
        return move
    source = position.columns[move.source]
    counts = range(1, len(source.up) + 1)
    legal = [c for c in counts if is_legal(position, replace(move, count=c), variant)]
    if 1 in legal or not counts:
        return move
    if len(legal) == 1:
        return replace(move, count=legal[0])
    top = position.columns[move.target].top
    if not legal and top is not None:
        for count in counts:
            card = source.up[-count]
            if card is not None and card.rank + 1 == top.rank:
                return replace(move, count=count)
    return move


# --- application -------------------------------------------------------------


def _flip(column: Column) -> tuple[Column, MaybeCard] | None:
    if column.up or not column.down:
        return None
    card = column.down[-1]
    return Column(column.down[:-1], (card,)), card


def _settle(
    columns: list[Column], touched: list[int], variant: Variant
) -> tuple[list[Removed], list[Flip]]:
    """Remove completed runs (unless manual) and turn over exposed face-down cards."""
    removals: list[Removed] = []
    if not variant.manual_removal:
        for index in touched:
            suit = columns[index].completed_suit()
            if suit is not None:
                column = columns[index]
                columns[index] = Column(column.down, column.up[:-RUN_LENGTH])
                removals.append(Removed(index, suit))
    flips: list[Flip] = []
    for index in touched:
        flipped = _flip(columns[index])
        if flipped is not None:
            columns[index], card = flipped
            flips.append(Flip(index, card))
    return removals, flips


def apply_move(
    position: Position, move: Move, variant: Variant = STANDARD, *, force: bool = False
) -> Step:
    """Carry out ``move``, with automatic flips and removals.

    A refused move raises its ``IllegalMoveError``; with ``force`` it is carried
    out as the cards were physically moved, and the step records the reason.
    Moves that cannot be made even physically (an empty stock, face-down
    cards, the same column) raise in both cases.
    """
    reason = ""
    try:
        check_move(position, move, variant)
    except (SameColumnError, EmptySourceError, FaceDownCardsError, EmptyStockError):
        raise
    except IllegalMoveError as error:
        if not force or isinstance(move, Removal):
            raise
        reason = str(error)
    return _carry_out(position, move, variant, reason)


def legal_steps(position: Position, variant: Variant = STANDARD) -> list[Step]:
    """Every legal move carried out, in the order of ``legal_moves``.

    The same steps as ``apply_move`` for each legal move, without checking
    each move again: the fast way for a search to expand a position.
    """
    return [_carry_out(position, move, variant, "") for move in legal_moves(position, variant)]


def _carry_out(position: Position, move: Move, variant: Variant, reason: str) -> Step:
    """Move the cards of a checked (or forced) move, then flip and remove what follows."""
    columns = list(position.columns)
    stock = position.stock
    removed = position.removed
    taken: Removed | None = None
    if isinstance(move, TableauMove):
        source, target = columns[move.source], columns[move.target]
        group = source.up[len(source.up) - move.count :]
        columns[move.source] = Column(source.down, source.up[: len(source.up) - move.count])
        columns[move.target] = Column(target.down, target.up + group)
        touched = sorted((move.source, move.target))
    elif isinstance(move, Deal):
        dealt, stock = stock[:10], stock[10:]
        for index, card in enumerate(dealt):
            column = columns[index]
            columns[index] = Column(column.down, column.up + (card,))
        touched = list(range(10))
    else:
        column = columns[move.column]
        suit = column.completed_suit()
        assert suit is not None
        columns[move.column] = Column(column.down, column.up[:-RUN_LENGTH])
        touched = [move.column]
        taken = Removed(move.column, suit)
    removals, flips = _settle(columns, touched, variant)
    if taken is not None:
        removals.insert(0, taken)
    removed += "".join(r.suit for r in removals)
    after = Position(tuple(columns), stock, removed, position.mode)
    return Step(position, move, after, tuple(flips), tuple(removals), not reason, reason)


def _check_readable(position: Position, card: Card) -> None:
    """Refuse a read that would make a position whose cards cannot all exist."""
    mode = position.mode
    try:
        mode.check_card(card)
    except NotationError as error:
        raise PositionError(str(error)) from None
    if position.known_cards()[card] >= mode.copies:
        raise PositionError(
            f"a {int(mode)}-suit game has {mode.copies} copies of {card} "
            "and all are known already"
        )


def reveal(position: Position, column: int, card: Card, variant: Variant = STANDARD) -> Step:
    """Give an unknown face-up card (``??``) of ``column`` the identity that was read.

    The lowest unknown face-up card is the one revealed: the one turned over or
    dealt first. A completed run that the reveal makes is removed (unless
    removal is manual). A card the suit mode does not have, or one whose
    copies are all known already, is refused with a ``PositionError``.
    """
    pile = position.columns[column]
    try:
        slot = pile.up.index(None)
    except ValueError:
        raise UnknownCardError(
            f"column {column_letter(column)} has no unread face-up card to reveal"
        ) from None
    _check_readable(position, card)
    columns = list(position.columns)
    columns[column] = Column(pile.down, pile.up[:slot] + (card,) + pile.up[slot + 1 :])
    removals, flips = _settle(columns, [column], variant)
    after = Position(
        tuple(columns), position.stock, position.removed + "".join(r.suit for r in removals),
        position.mode,
    )
    return Step(position, Flip(column, card), after, tuple(flips), tuple(removals))
