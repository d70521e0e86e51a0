"""Card identities: which ones a card may be read as again."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.engine import Card, SuitMode, deal_position
from spider_vision.tracking.identities import ALTERNATIVES, CardBook
from spider_vision.tracking.observation import allowed_classes
from spider_vision.vision.reading import class_index


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_a_card_never_seen_may_be_any_identity_left(suits: int) -> None:
    position = deal_position(3, suits).observed()
    book = CardBook.for_position(position, allowed_classes(SuitMode(suits)))
    card_id = book.id_at(0, 0)
    options = book.candidates(card_id, position, None)
    known = position.known_cards()
    left = {Card(rank, suit) for suit in SuitMode(suits).suits for rank in range(1, 14)
            if known[Card(rank, suit)] < SuitMode(suits).copies}
    assert set(options) == left and len(options) > ALTERNATIVES


def test_a_card_seen_keeps_its_likeliest_identities() -> None:
    position = deal_position(3, 2).observed()
    book = CardBook.for_position(position, allowed_classes(SuitMode.TWO))
    card_id = book.id_at(0, 0)
    evidence = np.zeros(52)
    evidence[class_index(Card.parse("Qh"))] = 3.0
    book.vote(card_id, evidence)
    options = book.candidates(card_id, position, None)
    assert len(options) == ALTERNATIVES and options[0] == Card.parse("Qh")
