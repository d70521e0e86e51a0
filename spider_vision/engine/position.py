"""Positions: ten columns, the stock and the removed runs, read and written as SPN.

A position is an immutable value. Face-down and stock cards may be unknown
(``None``), as they are for a player at a real table; a full-information
position, such as the start of a numbered deal, knows them all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from spider_vision.engine.cards import (
    CARDS_IN_GAME,
    RANKS,
    Card,
    MaybeCard,
    SuitMode,
    card_text,
    count_known,
    make_card,
    parse_cards,
)
from spider_vision.engine.errors import NotationError, PositionError
from spider_vision.engine.moves import column_letter

__all__ = ["CARDS_IN_GAME", "Column", "Position", "RUN_LENGTH"]

RUN_LENGTH = 13
COLUMNS = 10


@dataclass(frozen=True, slots=True)
class Column:
    """One pile: face-down cards bottom first, then face-up cards ending with the exposed one."""

    down: tuple[MaybeCard, ...] = ()
    up: tuple[MaybeCard, ...] = ()

    def __len__(self) -> int:
        return len(self.down) + len(self.up)

    @property
    def is_empty(self) -> bool:
        """No card at all."""
        return not self.down and not self.up

    @property
    def top(self) -> MaybeCard:
        """The exposed card (the one a card is put on); ``None`` if unknown or empty."""
        return self.up[-1] if self.up else None

    def cards(self) -> tuple[MaybeCard, ...]:
        """Every card of the pile, bottom first."""
        return self.down + self.up

    def run_length(self) -> int:
        """How many cards at the end form one same-suit descending run (0 if the top is unknown)."""
        up = self.up
        if not up or up[-1] is None:
            return 0
        length = 1
        while length < len(up):
            upper, lower = up[-length - 1], up[-length]
            if upper is None or lower is None:
                break
            if upper.suit != lower.suit or upper.rank != lower.rank + 1:
                break
            length += 1
        return length

    def completed_suit(self) -> str | None:
        """The suit of a King-to-Ace run of one suit that ends the pile, if there is one."""
        if len(self.up) < RUN_LENGTH or self.up[-1] is None or self.up[-1].rank != 1:
            return None
        return self.up[-1].suit if self.run_length() >= RUN_LENGTH else None

    def text(self) -> str:
        """The SPN form ``<down>|<up>``."""
        return f"{_down_text(self.down)}|{''.join(card_text(c) for c in self.up)}"


@dataclass(frozen=True, slots=True)
class Position:
    """A Spider position: ten columns, the stock in dealing order, the removed runs' suits."""

    columns: tuple[Column, ...]
    stock: tuple[MaybeCard, ...] = ()
    removed: str = ""
    mode: SuitMode = SuitMode.FOUR
    _spn: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.columns) != COLUMNS:
            raise PositionError(f"tableau: a position has 10 columns, not {len(self.columns)}")

    def __str__(self) -> str:
        return self.spn()

    # --- SPN -----------------------------------------------------------------

    def spn(self) -> str:
        """The position in Spider Position Notation."""
        if not self._spn:
            tableau = "/".join(column.text() for column in self.columns)
            if not self.stock:
                stock = "-"
            elif all(card is None for card in self.stock):
                stock = str(len(self.stock))
            else:
                stock = "".join(card_text(card) for card in self.stock)
            removed = self.removed or "-"
            object.__setattr__(self, "_spn", f"{tableau} {stock} {removed} {int(self.mode)}")
        return self._spn

    @classmethod
    def from_spn(cls, text: str, *, validate: bool = True) -> Position:
        """Read SPN; with ``validate`` refuse positions whose cards cannot all exist."""
        fields = text.strip().split(" ")
        if len(fields) != 4:
            raise PositionError(
                "SPN has four fields separated by single spaces "
                f"(tableau, stock, removed, suits), found {len(fields)} in '{text.strip()}'"
            )
        tableau_text, stock_text, removed_text, suits_text = fields
        try:
            mode = SuitMode.parse(suits_text)
        except NotationError as error:
            raise PositionError(f"suits field: {error}") from None
        column_texts = tableau_text.split("/")
        if len(column_texts) != COLUMNS:
            raise PositionError(f"tableau field: expected 10 columns, found {len(column_texts)}")
        columns = tuple(
            _parse_column(column_text, column_letter(index))
            for index, column_text in enumerate(column_texts)
        )
        position = cls(
            columns=columns,
            stock=_parse_stock(stock_text),
            removed=_parse_removed(removed_text),
            mode=mode,
        )
        if validate:
            position.validate()
        return position

    def validate(self) -> None:
        """Refuse a position whose cards could not come from the 104 of its suit mode."""
        for letter, column in zip("abcdefghij", self.columns):
            if column.down and not column.up:
                raise PositionError(
                    f"tableau field: column {letter} has face-down cards but no face-up card"
                )
        if len(self.stock) % 10:
            raise PositionError(
                f"stock field: {len(self.stock)} cards is not a multiple of ten"
            )
        if len(self.removed) > 8:
            raise PositionError(f"removed field: at most 8 runs, not {len(self.removed)}")
        for suit in self.removed:
            if suit not in self.mode.suits:
                raise PositionError(
                    f"removed field: a {suit} run cannot exist in a {int(self.mode)}-suit game"
                )
        tableau = self.tableau_size()
        total = tableau + len(self.stock) + RUN_LENGTH * len(self.removed)
        if total != CARDS_IN_GAME:
            raise PositionError(
                f"the tableau, stock and removed fields hold {total} cards, not 104 "
                f"({tableau} on the tableau, {len(self.stock)} in the stock, "
                f"{RUN_LENGTH * len(self.removed)} in removed runs)"
            )
        for index, column in enumerate(self.columns):
            for card in column.cards():
                if card is not None:
                    self._check_suit(card, f"tableau field, column {column_letter(index)}")
        for card in self.stock:
            if card is not None:
                self._check_suit(card, "stock field")
        for card, count in sorted(self.known_cards().items()):
            if count > self.mode.copies:
                raise PositionError(
                    f"{card} appears {count} times ({self._places(card)}); "
                    f"a {int(self.mode)}-suit game has {self.mode.copies} copies"
                )

    def _check_suit(self, card: Card, field: str) -> None:
        try:
            self.mode.check_card(card)
        except NotationError as error:
            raise PositionError(f"{field}: {error}") from None

    def _places(self, card: Card) -> str:
        """Where a card lies, by SPN field, for messages: ``tableau field: columns a and c``."""
        letters = [
            column_letter(index)
            for index, column in enumerate(self.columns)
            if card in column.cards()
        ]
        places = []
        if letters:
            noun = "column" if len(letters) == 1 else "columns"
            places.append(f"tableau field: {noun} {_and_list(letters)}")
        if card in self.stock:
            places.append("stock field")
        if card.suit in self.removed:
            places.append("removed field")
        return "; ".join(places)

    # --- queries -------------------------------------------------------------

    def known_cards(self) -> Counter[Card]:
        """Every card known in the position, removed runs included."""
        counts = count_known(self.all_cards())
        for suit in self.removed:
            counts.update(make_card(rank, suit) for rank in range(1, 14))
        return counts

    def all_cards(self) -> Iterator[MaybeCard]:
        """The cards on the tableau and in the stock (removed runs excluded)."""
        for column in self.columns:
            yield from column.down
            yield from column.up
        yield from self.stock

    def unseen(self) -> Counter[Card]:
        """The multiset of cards of the deck not known anywhere in the position."""
        return self.mode.deck() - self.known_cards()

    @property
    def is_fully_known(self) -> bool:
        """Whether every card, face-down and stock included, is known."""
        return all(card is not None for card in self.all_cards())

    @property
    def is_won(self) -> bool:
        """Eight completed runs removed."""
        return len(self.removed) == 8

    @property
    def deals_left(self) -> int:
        """How many stock deals remain."""
        return len(self.stock) // 10

    def empty_columns(self) -> list[int]:
        """Indices of the empty columns."""
        return [index for index, column in enumerate(self.columns) if column.is_empty]

    def tableau_size(self) -> int:
        """How many cards lie on the tableau."""
        return sum(len(column) for column in self.columns)

    # --- derived positions ---------------------------------------------------

    def observed(self) -> Position:
        """What a player sees: face-down and stock cards replaced by unknowns."""
        columns = tuple(
            Column((None,) * len(column.down), column.up) for column in self.columns
        )
        return replace(self, columns=columns, stock=(None,) * len(self.stock))

    def with_columns(self, changes: dict[int, Column]) -> Position:
        """A copy with some columns replaced."""
        columns = tuple(changes.get(index, column) for index, column in enumerate(self.columns))
        return replace(self, columns=columns)


def _and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _down_text(down: Iterable[MaybeCard]) -> str:
    cards = tuple(down)
    if cards and all(card is None for card in cards):
        return str(len(cards))
    return "".join(card_text(card) for card in cards)


def _parse_column(text: str, letter: str) -> Column:
    if text.count("|") != 1:
        raise PositionError(f"tableau field: column {letter} '{text}' needs exactly one '|'")
    down_text, up_text = text.split("|")
    try:
        if down_text.isdigit():
            down: tuple[MaybeCard, ...] = (None,) * int(down_text)
        else:
            down = parse_cards(down_text)
        up = parse_cards(up_text)
    except NotationError as error:
        raise PositionError(f"tableau field, column {letter}: {error}") from None
    return Column(down, up)


def _parse_stock(text: str) -> tuple[MaybeCard, ...]:
    if text == "-":
        return ()
    if text.isdigit():
        return (None,) * int(text)
    try:
        return parse_cards(text)
    except NotationError as error:
        raise PositionError(f"stock field: {error}") from None


def _parse_removed(text: str) -> str:
    if text == "-":
        return ""
    for suit in text:
        if suit not in "shdc":
            raise PositionError(f"removed field: '{text}' must be suits (s, h, d, c) or '-'")
    return text


def rank_name(rank: int) -> str:
    """The rank as printed in notation: ``T`` for ten."""
    return RANKS[rank - 1]
