"""Warnings about how the camera frames the table, with what the player can do about it.

Most misreads a player can prevent come from the set-up, not the deck: cards
too small in the picture for their corner index to be read, columns that
run off the picture so that their last cards are never seen, and, in four
suits, cascades laid so tight that each card hides the suit pip of the one
under it. The reading still goes on; these warnings say why it may be wrong
and how to fix it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spider_vision.vision.detect import Detections
from spider_vision.vision.layout import Layout
from spider_vision.vision.reading import CardReading

__all__ = [
    "CUT_MARGIN", "FRAMING_PHRASES", "GOOD_CARD", "HIDDEN_SUITS", "HIDDEN_SUITS_PHRASE", "SMALL_CARD", "SUIT_SHOWN",
    "framing_warnings", "hidden_suit_warnings", "is_framing", "reaches_past_edge",
]

SMALL_CARD = 65.0
"""Card height (pixels) under which reads get markedly worse: on the unseen card style of
``bench/vision.py``, 62% right at 50-65 px against 86-89% at 65-100 px and 96% from 100 px."""
GOOD_CARD = 100.0
"""Card height (pixels) from which reads are at their best."""
CUT_MARGIN = 0.1
"""How far (of the card height) a column's last card may reach past the picture's edge unnoticed."""
SUIT_SHOWN = 0.5
"""Share of its suit pip a card must show for its suit to be read rather than guessed within its colour.
On the first 600 held-out-seed tables of ``bench/vision.py``, four-suit cards showing less were read right
78.5% of the time, against 98.0% for the rest."""
HIDDEN_SUITS = 3
"""Cards with a hidden suit pip a four-suit table must show before the player is told: the estimate of
one card is often off. On the first 600 + 600 held-out tables (``bench/vision.py``) the warning came on
53 of the 71 / 34 of the 46 four-suit tables that hide three pips or more, and on 6 of 143 / 4 of 131 of
the others; two cards, in a scratch run on the first 400 + 400, warned rightly on 2 / 0 tables more and
wrongly on 2 / 1 more."""
HIDDEN_SUITS_PHRASE = "hides the suit"
"""Words of the warning ``hidden_suit_warnings`` gives."""
FRAMING_PHRASES = ("small in the picture", "off the picture", HIDDEN_SUITS_PHRASE)
"""Words that mark each kind of framing warning (the window and the terminal match on them)."""


def framing_warnings(detections: Detections, layout: Layout, size: tuple[int, int]) -> list[str]:
    """What is wrong with the framing of this picture, as warnings a player can act on."""
    warnings: list[str] = []
    height = layout.card_size[1]
    if layout.columns and height < SMALL_CARD:
        warnings.append(f"the cards are small in the picture (about {height:.0f} px tall; reads are best from "
                        f"{GOOD_CARD:.0f} px and often wrong under {SMALL_CARD:.0f} px): move the camera closer or "
                        "raise its resolution")
    cut = _cut_columns(detections, layout, size)
    past = _columns_past_edge(detections, layout, size)
    if cut or past:
        if cut and all(name is not None for name in cut):
            what = f"column {cut[0]} runs" if len(cut) == 1 else f"columns {', '.join(map(str, cut))} run"
        elif cut:
            what = "1 pile runs" if len(cut) == 1 else f"{len(cut)} piles run"
        else:
            what = "the row of columns seems to run"
        warnings.append(f"{what} off the picture, so cards past the edge cannot be seen: move the camera back "
                        "or aim it at the middle of the table")
    return warnings


def hidden_suit_warnings(cards: Sequence[CardReading], suits: int) -> list[str]:
    """In four suits, a warning when ``HIDDEN_SUITS`` or more cards of the columns show under ``SUIT_SHOWN`` of
    their suit pip (``CardReading.suit_shown``): those suits are guesses, and spreading the cascade mends it."""
    hidden = [card for card in cards if card.face_up and card.column is not None and card.suit_shown < SUIT_SHOWN]
    if suits != 4 or len(hidden) < HIDDEN_SUITS:
        return []
    letters = sorted({"abcdefghij"[card.column] for card in hidden if card.column is not None})
    where = f"column {letters[0]}" if len(letters) == 1 else f"columns {', '.join(letters)}"
    return [f"in {where} the next card {HIDDEN_SUITS_PHRASE} of {len(hidden)} cards, so their suits are guesses: "
            "spread the cascade so that about a quarter of each card shows"]


def is_framing(warning: str) -> bool:
    """Whether a reading's warning is one of ``framing_warnings`` or ``hidden_suit_warnings``."""
    return any(phrase in warning for phrase in FRAMING_PHRASES)


def _cut_columns(detections: Detections, layout: Layout, size: tuple[int, int]) -> list[str | None]:
    """Letters of the columns whose last card reaches past the picture's edge (None: a pile with no letter)."""
    margin = CUT_MARGIN * (layout.card_size[1] or 1.0)
    quads = detections.quads()
    cut: list[str | None] = []
    for column, letter in zip(layout.columns, layout.letters):
        if reaches_past_edge(quads[column[-1]], size, margin):
            cut.append(chr(ord("a") + letter) if letter is not None else None)
    return cut


def _columns_past_edge(detections: Detections, layout: Layout, size: tuple[int, int]) -> bool:
    """Whether the row of piles found runs on past the picture's edge at either end.

    A column wholly off the picture has no card to find, so its pile cannot
    run past the edge. Where fewer than ten piles are found and the row of
    them, stepped on by one column, puts the next pile's top corner index
    outside the picture, more columns likely lie there.
    """
    if layout.full or not 2 <= len(layout.columns) < 10:
        return False
    tops = np.array([column[0] for column in layout.columns])
    row = layout.rotation[0]
    across = detections.origins[tops] @ row
    order = np.argsort(across)
    tops, across = tops[order], across[order]
    step = float(np.median(np.diff(across)))
    if step < float(np.median(np.linalg.norm(detections.rights[tops], axis=1))):
        return False
    width, height = size
    nexts = (detections.centres[end] + direction * step * row for end, direction in ((tops[0], -1.0), (tops[-1], 1.0)))
    return any(not (0 <= x < width and 0 <= y < height) for x, y in nexts)


def reaches_past_edge(corners: np.ndarray, size: tuple[int, int], margin: float) -> bool:
    """Whether a card's corners (4, 2) reach past the picture's edge by more than ``margin`` pixels."""
    width, height = size
    inside = ((corners[:, 0] >= -margin) & (corners[:, 0] <= width + margin)
              & (corners[:, 1] >= -margin) & (corners[:, 1] <= height + margin))
    return not bool(np.all(inside))
