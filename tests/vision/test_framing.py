"""Framing warnings: cards too small to read reliably, columns that run off the picture, suits hidden."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.vision.detect import Detections
from spider_vision.vision.framing import SMALL_CARD, framing_warnings, hidden_suit_warnings, is_framing
from spider_vision.vision.layout import group_columns
from spider_vision.vision.reading import CardReading


def _table(card_height: float, piles: list[int], top: float = 10.0) -> tuple[Detections, tuple[int, int]]:
    """Ten columns of face-up cards (``piles`` cards each) laid out like a real cascade, and the picture size."""
    width = 0.7 * card_height
    origins = [(10 + 1.2 * width * column, top + 0.25 * card_height * k)
               for column, count in enumerate(piles) for k in range(count)]
    n = len(origins)
    o = np.array(origins, float)
    rights = np.tile([width, 0.0], (n, 1))
    downs = np.tile([0.0, card_height], (n, 1))
    sizes = np.tile([0.12 * width, 0.3 * card_height], (n, 1))
    detections = Detections(np.ones(n), o + sizes / 2, o, rights, downs, sizes)
    picture = (int(20 + 12 * width), int(top + 2.5 * card_height))
    return detections, picture


@pytest.mark.parametrize(
    ("card_height", "piles", "expected"),
    [
        (100.0, [3] * 10, []),
        (SMALL_CARD - 15, [3] * 10, ["small in the picture"]),
        (100.0, [3, 3, 8, 3, 3, 3, 3, 3, 9, 3], ["columns c, i run off the picture"]),
        (100.0, [3, 3, 3, 3, 8, 3, 3, 3, 3, 3], ["column e runs off the picture"]),
    ],
)
def test_framing_warnings_say_what_to_fix(card_height: float, piles: list[int], expected: list[str]) -> None:
    detections, picture = _table(card_height, piles)
    layout = group_columns(detections)
    assert layout.full
    warnings = framing_warnings(detections, layout, picture)
    assert len(warnings) == len(expected)
    for warning, phrase in zip(warnings, expected):
        assert phrase in warning and is_framing(warning)


def test_other_warnings_are_not_framing() -> None:
    assert not is_framing("suit mode 2 inferred from the suits seen; pass --suits to fix it")


@pytest.mark.parametrize(("shift", "expected"), [(-1.0, ["the row of columns seems to run off the picture"]), (0.0, [])])
def test_a_column_wholly_off_the_picture_is_warned_of(shift: float, expected: list[str]) -> None:
    # Column a is left out: slid one column past the picture's left edge it cannot be seen at all; in place
    # (an empty column, or one the detector missed) the picture holds it.
    detections, picture = _table(100.0, [3] * 10)
    detections.origins[:, 0] += shift * 1.2 * 70.0
    detections.centres[:, 0] += shift * 1.2 * 70.0
    layout = group_columns(detections.subset(np.arange(3, len(detections))))
    assert not layout.full and len(layout.columns) == 9
    warnings = framing_warnings(detections.subset(np.arange(3, len(detections))), layout, picture)
    assert len(warnings) == len(expected)
    for warning, phrase in zip(warnings, expected):
        assert phrase in warning and is_framing(warning)


def _shown(column: int | None, suit_shown: float) -> CardReading:
    quad = np.zeros((4, 2))
    return CardReading(column, 0, True, None, 0.9, quad, quad, suit_shown=suit_shown)


@pytest.mark.parametrize(
    ("suits", "cards", "expected"),
    [
        (4, [(2, 0.1), (2, 0.3), (5, 0.0), (5, 1.0)], "in columns c, f the next card hides the suit of 3 cards"),
        (4, [(7, 0.2), (7, 0.45), (7, 0.0), (7, 0.3)], "in column h the next card hides the suit of 4 cards"),
        (4, [(7, 0.2), (7, 0.6), (3, 0.1), (None, 0.0)], None),  # two hidden pips in the columns are not enough
        (2, [(2, 0.1), (2, 0.3), (5, 0.0)], None),  # the colour tells spades from hearts
        (4, [(1, 0.9)] * 5, None),
    ],
)
def test_hidden_suits_are_warned_of_in_four_suits(suits: int, cards: list[tuple[int | None, float]],
                                                 expected: str | None) -> None:
    warnings = hidden_suit_warnings([_shown(column, shown) for column, shown in cards], suits)
    if expected is None:
        assert warnings == []
    else:
        assert len(warnings) == 1 and warnings[0].startswith(expected) and is_framing(warnings[0])
        assert "spread the cascade" in warnings[0]
