"""Truth helpers: the lowest face-up card of each column, with the face-down cards under it."""

from __future__ import annotations

import pytest

from spider_vision.synth.truth import CardTruth, lowest_face_up


def _card(pile: str, column: int, index: int, face_up: bool) -> CardTruth:
    return CardTruth(pile, column, index, None, face_up, (), (), 1.0)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ([], {}),
        ([_card("tableau", 0, 0, False)], {}),
        ([_card("tableau", 2, 0, False), _card("tableau", 2, 2, True), _card("tableau", 2, 1, True)], {2: (1, 1)}),
        ([_card("tableau", 3, 0, True), _card("stock", 3, 0, False), _card("hand", 3, 5, True)], {3: (0, 0)}),
        ([_card("tableau", 1, 4, True), _card("tableau", 1, 3, False), _card("tableau", 5, 0, True)],
         {1: (4, 1), 5: (0, 0)}),
    ],
)
def test_lowest_face_up_card_and_face_down_count(cards: list[CardTruth], expected: dict) -> None:
    found = lowest_face_up(cards)
    assert {column: (card.index, down) for column, (card, down) in found.items()} == expected
    assert all(card.face_up and card.pile == "tableau" for card, _ in found.values())
