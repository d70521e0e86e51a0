"""Moves appraised in newly drawn worlds: blind to hidden cards, quiet moves judged on the moves all worlds share."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spider_vision.engine import Deal, Position, apply_move, deal_position, parse_move
from spider_vision.hint.appraisal import appraise_moves
from spider_vision.hint.worlds import shows_card
from spider_vision.solver import SolveLimits, solve

ONE_FROM_WIN = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"


def _late(deal: int) -> Position:
    """A one-suit position along the solver's winning line of ``deal``: stock dealt, at most 8 cards face down."""
    position = deal_position(deal, 1)
    result = solve(position, SolveLimits(seconds=None, nodes=1_000_000))
    assert result.solved
    for text in result.moves:
        position = apply_move(position, parse_move(text)[0]).after
        if not position.stock and sum(len(column.down) for column in position.columns) <= 8:
            return position
    raise AssertionError("the line never got there")


@pytest.mark.parametrize("early", [False, True])
def test_hidden_cards_do_not_change_the_appraisal(
    early: bool, reshuffled: Callable[[Position, int], Position]
) -> None:
    real = apply_move(deal_position(12, 4), Deal()).after if early else _late(3)
    other = reshuffled(real, 12)
    assert other != real and other.observed() == real.observed()
    assert appraise_moves(real, worlds=2, nodes=3000) == appraise_moves(other, worlds=2, nodes=3000)


def test_a_quiet_move_is_judged_on_the_moves_up_to_the_first_card_shown() -> None:
    start = _late(3)
    appraisals = appraise_moves(start, worlds=3, nodes=5000)
    assert any(not appraisal.shows_card and len(appraisal.prefix) > 1 for appraisal in appraisals)
    for appraisal in appraisals:
        assert appraisal.prefix[0] == str(appraisal.move) and 0 <= appraisal.shared <= appraisal.worlds == 3
        if appraisal.shows_card:
            assert appraisal.prefix == (str(appraisal.move),) and appraisal.shared == appraisal.own
            continue
        position = start
        for step, text in enumerate(appraisal.prefix):
            after = apply_move(position, parse_move(text)[0]).after
            assert shows_card(position, after) is (step == len(appraisal.prefix) - 1 and len(appraisal.prefix) > 1)
            position = after


def test_every_world_is_won_one_move_from_a_win() -> None:
    appraisals = appraise_moves(Position.from_spn(ONE_FROM_WIN), worlds=4, nodes=20_000)
    assert {str(appraisal.move) for appraisal in appraisals} >= {"ba", "bc"}
    assert all(appraisal.own == appraisal.shared == 4 for appraisal in appraisals)
