"""Card identities: which ones a card may be read as again."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.engine import Card, SuitMode, deal_position
from spider_vision.tracking.identities import ALTERNATIVES, EXPOSED_WEIGHT, CardBook
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


@pytest.mark.parametrize("covered_periods", [1, 3, 5, 8])
def test_a_read_of_the_exposed_card_outweighs_as_many_reads_of_its_covered_index(covered_periods: int) -> None:
    """Game 700004: a 9h read as such while exposed, then as 3h once a card lay on it. Each period
    exposed counts ``EXPOSED_WEIGHT`` periods covered, so the 9h keeps its lead until more covered
    periods than that say otherwise."""
    position = deal_position(3, 2).observed()
    book = CardBook.for_position(position, allowed_classes(SuitMode.TWO))
    card_id = book.id_at(0, 0)
    nine, three = np.zeros(52), np.zeros(52)
    nine[class_index(Card.parse("9h"))] = 4.0
    three[class_index(Card.parse("3h"))] = 4.0
    book.add_votes({card_id: nine}, {card_id: 1}, exposed={card_id})
    for _ in range(covered_periods):
        book.add_votes({card_id: three}, {card_id: 1})
    lead = book.lead(card_id, Card.parse("9h"))
    assert lead == pytest.approx(4.0 * (EXPOSED_WEIGHT - covered_periods) / (EXPOSED_WEIGHT + covered_periods))
    assert (lead > 0) is (covered_periods < EXPOSED_WEIGHT)
