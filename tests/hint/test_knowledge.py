"""What a player knows: unseen cards and sampled worlds."""

from __future__ import annotations

import random

import pytest

from spider_vision.engine import Card, Position, PositionError, SuitMode, deal_position
from spider_vision.hint import Knowledge, determinise


@pytest.mark.parametrize("mode", [1, 2, 4])
@pytest.mark.parametrize("deal", [1, 2, 77])
def test_unseen_cards_are_the_deck_less_the_face_up_cards(deal: int, mode: int) -> None:
    position = deal_position(deal, mode)
    knowledge = Knowledge.of(position)
    face_up = [column.up[-1] for column in position.columns]
    assert knowledge.hidden_count == 104 - 10
    expected = SuitMode(mode).deck()
    expected.subtract(face_up)
    assert +expected == knowledge.unseen


@pytest.mark.parametrize("seed", range(5))
def test_a_world_keeps_every_face_up_card_and_is_a_valid_deal(seed: int) -> None:
    position = deal_position(9, 4)
    world = determinise(Knowledge.of(position), random.Random(seed))
    world.validate()
    assert world.is_fully_known
    assert world.observed() == position.observed()


def test_worlds_differ_between_seeds_but_not_for_the_same_seed() -> None:
    knowledge = Knowledge.of(deal_position(9, 4))
    first = determinise(knowledge, random.Random(1))
    assert first == determinise(knowledge, random.Random(1))
    assert first != determinise(knowledge, random.Random(2))


def test_cards_read_earlier_fill_unread_face_up_places() -> None:
    start = Position.from_spn("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|?? 50 - 4")
    knowledge = Knowledge.of(start, (Card(12, "c"),))
    world = determinise(knowledge, random.Random(3))
    assert world.columns[9].up == (Card(12, "c"),)
    assert knowledge.unseen[Card(12, "c")] == 1


@pytest.mark.parametrize(
    ("spn", "seen", "message"),
    [
        (
            "5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4",
            (Card(8, "d"),),
            "more cards were seen than the position can hold face up",
        ),
        (
            "5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|?? 50 - 4",
            (Card(7, "s"),) * 3,
            "7s was seen more often than it exists",
        ),
    ],
)
def test_seen_cards_that_cannot_be_face_up_are_refused(
    spn: str, seen: tuple[Card, ...], message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        Knowledge.of(Position.from_spn(spn), seen)


@pytest.mark.parametrize("seen", [(), (Card(13, "s"),), (Card(7, "s"), Card(7, "s"))])
def test_seen_cards_still_face_up_change_nothing(seen: tuple[Card, ...]) -> None:
    start = Position.from_spn("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4")
    assert Knowledge.of(start, seen) == Knowledge.of(start)
