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


@pytest.mark.parametrize(("floor", "listed"), [(None, False), (-3.0, True), (-1.0, False)])
def test_a_floor_admits_every_identity_the_evidence_leaves_possible(floor: float | None, listed: bool) -> None:
    """A reader unsure of a card spreads its evidence: the identity a legal move needs may come seventh."""
    position = deal_position(3, 4).observed()
    book = CardBook.for_position(position, allowed_classes(SuitMode.FOUR))
    card_id = book.id_at(0, 0)
    evidence = np.full(52, -6.0)
    for rank, value in zip(range(2, 2 + ALTERNATIVES), np.linspace(2.2, 1.0, ALTERNATIVES)):
        evidence[class_index(Card(rank, "h"))] = value
    evidence[class_index(Card.parse("Js"))] = -2.0
    book.vote(card_id, evidence)
    options = book.candidates(card_id, position, None, floor=floor)
    assert (Card.parse("Js") in options) is listed
    assert options[:ALTERNATIVES] == [Card(rank, "h") for rank in range(2, 2 + ALTERNATIVES)]
