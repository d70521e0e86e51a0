"""The first-deal screen: the plan a player could make, against one that sees the face-down cards."""

from __future__ import annotations

import pytest

from tests.bench import load_bench

first_deal = load_bench("first_deal")


@pytest.mark.parametrize(("deal", "suits"), [(3, 4), (5, 4), (1, 1), (4, 1)])
def test_seeing_the_face_down_cards_turns_more_over_before_the_first_deal(deal: int, suits: int) -> None:
    plan = first_deal.play_to_first_deal(deal, suits, "plan", 1)
    bound = first_deal.play_to_first_deal(deal, suits, "bound", 1)
    assert 0 < plan.moves and 0 < bound.moves
    assert bound.face_down < plan.face_down < 44


def test_the_engine_stops_at_its_first_deal() -> None:
    result = first_deal.play_to_first_deal(2, 1, "engine", 20_000)
    assert 0 <= result.face_down <= 44 and result.moves > 0


@pytest.mark.parametrize(("deal", "suits"), [(3, 4), (1, 2)])
def test_the_plan_under_chance_turns_cards_over_before_its_first_deal(deal: int, suits: int) -> None:
    result = first_deal.play_to_first_deal(deal, suits, "chance", 1, plan_iterations=300)
    assert result.moves > 0 and result.face_down < 44
