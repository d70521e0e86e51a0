"""Build the SPN of a read table: face-down cards as counts, the stock as a count, removed runs deduced.

The camera sees the ten columns but not the stock's size nor, usually, the
completed runs; both follow from the 104-card total (the stock is a multiple
of ten, a removed run is 13 cards, so the split is unique). A run laid aside
face up shows its King or its Ace on top, which gives its suit; a removed
run with neither in sight gets a guessed suit, one that the cards in sight
leave room for (both 9h on the table: no heart run can have gone). The
engine's parser then checks the result (copies per mode, card totals).
"""

from __future__ import annotations

from collections import Counter

from spider_vision.engine import Card, Position, PositionError, SuitMode, card_text

__all__ = ["RUN_TOPS", "build_spn", "split_rest"]

RUN_TOPS = (1, 13)
"""Ranks of the card a completed run laid aside face up shows on top: its Ace, or its King when it was
turned over as it was picked up."""


def split_rest(rest: int) -> tuple[int, int] | None:
    """(stock cards, removed runs) with stock = 10 s (s <= 5) and 13 r (r <= 8) making ``rest``."""
    for runs in range(9):
        stock = rest - 13 * runs
        if 0 <= stock <= 50 and stock % 10 == 0:
            return stock, runs
    return None


def _room_for_runs(cards: list[Card], mode: SuitMode) -> Counter[str]:
    """How many completed runs of each suit can have left the table, given the cards in sight.

    A removed run holds one card of every rank of its suit, so a suit has
    room for as many runs as its most-seen card has copies not in sight.
    """
    in_sight = Counter(cards)
    return Counter({suit: mode.copies - max(in_sight[Card(rank, suit)] for rank in range(1, 14))
                    for suit in mode.suits})


def _removed_suits(columns: list[tuple[int, list[Card | None]]], mode: SuitMode, runs: int,
                   loose: list[Card]) -> str:
    """The suits of ``runs`` removed runs: the Kings and Aces seen off the tableau first (a run's top
    card) where the cards on the tableau leave room for such a run, then guesses the cards allow.

    A guess takes the suit with the fewest cards in sight (the likeliest to
    have been completed) among those with room for another run; with no room
    anywhere the guess stands and the engine's check withholds the position.
    A card off the tableau may be no run's (a card in a hand, a misread), so
    it counts only where there is room.
    """
    in_sight = [card for _, up in columns for card in up if card is not None]
    room = _room_for_runs(in_sight, mode)
    seen = Counter(card.suit for card in in_sight)
    chosen: list[str] = []
    for card in loose:
        if card.rank in RUN_TOPS and len(chosen) < runs and room[card.suit] > 0:
            chosen.append(card.suit)
            room[card.suit] -= 1
    while len(chosen) < runs:
        open_suits = [suit for suit in mode.suits if room[suit] > 0] or list(mode.suits)
        suit = min(open_suits, key=lambda s: (seen[s] + 13 * chosen.count(s), mode.suits.index(s)))
        chosen.append(suit)
        room[suit] -= 1
    return "".join(chosen)


def build_spn(columns: list[tuple[int, list[Card | None]]], suits: int,
              loose: list[Card]) -> tuple[str | None, list[str]]:
    """SPN from ten (face-down count, face-up cards) columns, or None with the reason as a warning."""
    warnings: list[str] = []
    total = sum(down + len(up) for down, up in columns)
    split = split_rest(104 - total)
    if split is None:
        return None, [f"the {total} cards on the tableau leave no whole stock and removed runs; "
                      "position withheld"]
    stock, runs = split
    mode = SuitMode(suits)
    removed = ""
    if runs:
        removed = _removed_suits(columns, mode, runs, loose)
        if suits != 1:
            warnings.append(f"{runs} completed run(s) assumed from the card count; their suits are guessed")
    tableau = "/".join(f"{down or ''}|{''.join(card_text(card) for card in up)}" for down, up in columns)
    spn = f"{tableau} {stock or '-'} {removed or '-'} {suits}"
    unknown = sum(card is None for _, up in columns for card in up)
    if unknown:
        warnings.append(f"{unknown} face-up card(s) could not be read with confidence; they are ?? in the position")
    try:
        return Position.from_spn(spn).spn(), warnings
    except PositionError as error:
        return None, warnings + [f"the cards read do not make a Spider position ({error}); position withheld"]
