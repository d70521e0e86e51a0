"""The chance to win: the evidence a hint has, and the learnt model that maps it to a chance."""

from __future__ import annotations

import math

import pytest

from spider_vision.engine import SuitMode, apply_move, deal_position, legal_moves
from spider_vision.hint import HintLimits, hint
from spider_vision.hint.chance import FEATURE_NAMES, WIN_CHANCE_WEIGHTS, EstimateEvidence, win_chance


def test_the_evidence_counts_what_a_player_sees() -> None:
    start = deal_position(3, 2).observed()
    evidence = EstimateEvidence.of(start, 8, 2, 4)
    assert (evidence.mode, evidence.face_down, evidence.deals_left, evidence.removed) == (SuitMode.TWO, 44, 5, 0)
    dealt = apply_move(start, next(move for move in legal_moves(start) if str(move) == "deal")).after
    assert EstimateEvidence.of(dealt, 8, 2, 4).deals_left == 4


@pytest.mark.parametrize(
    ("samples", "wins", "undecided", "low", "high"),
    [(8, 2, 4, 0.25, 0.75), (8, 0, 0, 0.0, 0.0), (4, 4, 0, 1.0, 1.0), (0, 0, 0, 0.0, 1.0)],
)
def test_features_give_both_ends_of_the_worlds_share(
    samples: int, wins: int, undecided: int, low: float, high: float
) -> None:
    features = EstimateEvidence(SuitMode.ONE, samples, wins, undecided, 22, 5, 4).features()
    assert len(features) == len(FEATURE_NAMES)
    assert features == (1.0, low, high, 0.5, 1.0, 0.5)


def test_the_chance_is_the_logistic_of_the_weighted_features() -> None:
    evidence = EstimateEvidence(SuitMode.FOUR, 8, 4, 0, 44, 5, 0)
    weights = {SuitMode.FOUR: (-1.0, 2.0, 0.0, 1.0, 0.0, 3.0)}
    assert win_chance(evidence, weights) == pytest.approx(1 / (1 + math.exp(-(-1.0 + 1.0 + 1.0))))


@pytest.mark.parametrize(
    ("evidence", "weights"),
    [
        (EstimateEvidence(SuitMode.TWO, 0, 0, 0, 44, 5, 0), None),
        (EstimateEvidence(SuitMode.TWO, 8, 2, 0, 44, 5, 0), {}),
    ],
)
def test_no_chance_without_worlds_or_a_model(evidence: EstimateEvidence, weights: dict | None) -> None:
    assert win_chance(evidence, weights) is None


@pytest.mark.parametrize("mode", list(SuitMode))
def test_the_shipped_model_rises_with_the_worlds_won(mode: SuitMode) -> None:
    assert len(WIN_CHANCE_WEIGHTS[mode]) == len(FEATURE_NAMES)
    chances = [win_chance(EstimateEvidence(mode, 8, wins, 0, 20, 2, 2)) for wins in range(9)]
    assert chances == sorted(chances)
    assert chances[0] == 0.0 and chances[-1] > 0.5


def test_a_hint_carries_the_chance_of_its_evidence() -> None:
    position = deal_position(7, 1)
    advice = hint(position, limits=HintLimits(movetime=math.inf, samples=3, nodes_per_move=20000, seed=1))
    expected = win_chance(EstimateEvidence.of(position.observed(), advice.samples, advice.wins, advice.undecided))
    assert advice.win_chance == expected is not None
