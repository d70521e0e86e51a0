"""Cards, ranks, suits and suit modes, with their notation.

A card prints as rank then suit (``Ts``, ``Ah``); an unknown card is ``??``
and is represented by ``None`` wherever a card may be unknown.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Optional

from spider_vision.engine.errors import NotationError

__all__ = [
    "CARDS_IN_GAME",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "Card",
    "MaybeCard",
    "SuitMode",
    "UNKNOWN",
    "card_text",
    "parse_card",
    "parse_cards",
]

CARDS_IN_GAME = 104
RANKS = "A23456789TJQK"
SUITS = "shdc"
UNKNOWN = "??"

SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
_CARD_RE = re.compile(r"(10|[A2-9TJQK])([SHDCshdc])")
_TOKEN_RE = re.compile(r"\?\?|10[A-Za-z]|[A-Za-z0-9][A-Za-z]")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card: ``rank`` 1 (Ace) to 13 (King) and ``suit`` one of ``shdc``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise NotationError(f"rank {self.rank} is not between 1 (Ace) and 13 (King)")
        if self.suit not in SUIT_NAMES:
            raise NotationError(f"suit {self.suit!r} is not one of s, h, d, c")

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def suit_name(self) -> str:
        """The suit spelled out, for messages: ``spades``."""
        return SUIT_NAMES[self.suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``Ts``; ``10s`` and upper-case suits are accepted too."""
        card = parse_card(text)
        if card is None:
            raise NotationError(f"expected a known card, got '{text}'")
        return card


MaybeCard = Optional[Card]

_ALL_CARDS = {(rank, suit): Card(rank, suit) for rank in range(1, 14) for suit in SUITS}


def make_card(rank: int, suit: str) -> Card:
    """The shared instance of a card (cards are values; sharing saves memory)."""
    try:
        return _ALL_CARDS[(rank, suit)]
    except KeyError:
        return Card(rank, suit)


def card_text(card: MaybeCard) -> str:
    """Print a card, or ``??`` for an unknown one."""
    return UNKNOWN if card is None else str(card)


def parse_card(text: str) -> MaybeCard:
    """Read one card or ``??`` (returned as ``None``); quote the text on failure."""
    if text == UNKNOWN:
        return None
    match = _CARD_RE.fullmatch(text)
    if match is None:
        raise NotationError(f"'{text}' is not a card: write rank then suit, like Ts, Ah or 7d")
    rank_text, suit_text = match.groups()
    rank = 10 if rank_text == "10" else RANKS.index(rank_text) + 1
    return make_card(rank, suit_text.lower())


def parse_cards(text: str) -> tuple[MaybeCard, ...]:
    """Read a run of cards written together, such as ``Ks9h??2c``."""
    cards: list[MaybeCard] = []
    position = 0
    while position < len(text):
        match = _TOKEN_RE.match(text, position)
        if match is None:
            raise NotationError(f"cannot read cards in '{text}' from '{text[position:]}'")
        cards.append(parse_card(match.group()))
        position = match.end()
    return tuple(cards)


class SuitMode(IntEnum):
    """How many suits the 104 cards use: 1, 2 or 4."""

    ONE = 1
    TWO = 2
    FOUR = 4

    @property
    def suits(self) -> str:
        """The suits of this mode, in deal-numbering order."""
        return SUITS[: int(self)]

    @property
    def copies(self) -> int:
        """How many copies of each card the 104 cards hold."""
        return 8 // int(self)

    @classmethod
    def parse(cls, text: str | int) -> SuitMode:
        """Read ``1``, ``2`` or ``4``."""
        try:
            return cls(int(text))
        except ValueError:
            raise NotationError(f"suit mode '{text}' is not 1, 2 or 4") from None

    def deck(self) -> Counter[Card]:
        """The multiset of the 104 cards of this mode."""
        return Counter(
            {make_card(rank, suit): self.copies for suit in self.suits for rank in range(1, 14)}
        )

    def check_card(self, card: Card) -> None:
        """Refuse a card whose suit this mode does not have."""
        if card.suit not in self.suits:
            raise NotationError(
                f"{card} cannot exist in a {int(self)}-suit game, which uses only {self.suit_names}"
            )

    @property
    def suit_names(self) -> str:
        """The suits of this mode spelled out, for messages: ``spades and hearts``."""
        names = [SUIT_NAMES[suit] for suit in self.suits]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def count_known(cards: Iterable[MaybeCard]) -> Counter[Card]:
    """Count the known cards of an iterable, ignoring unknown ones."""
    return Counter(card for card in cards if card is not None)
