"""The play harness: a whole game with hints only, and the win-rate interval."""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter

import pytest

from spider_vision.engine import Game, SuitMode, deal_position, legal_moves
from spider_vision.hint import HintLimits, Knowledge
from spider_vision.hint.chance import EstimateEvidence
from tests.bench import load_bench

play = load_bench("play")


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (5, 10, 0.2366, 0.7634), (29, 30, 0.8333, 0.9941)],
)
def test_wilson_interval(wins: int, games: int, low: float, high: float) -> None:
    got_low, got_high = play.wilson(wins, games)
    assert got_low == pytest.approx(low, abs=1e-3) and got_high == pytest.approx(high, abs=1e-3)


def test_a_one_suit_game_is_played_to_its_end() -> None:
    result = play.play_game(2, 1, HintLimits(movetime=0.05, samples=3, nodes_per_move=15000))
    assert result.ending in {"won", "lost", "stuck", "resigned", "move cap"}
    assert result.won == (result.ending == "won")
    assert result.moves > 20 and result.hints >= result.moves


def _game(deal: int, won: bool, estimates: tuple[tuple[float, float] | None, ...]) -> object:
    """A game whose hints gave these estimates (low and high ends, ``None``: no world decided) from 20 worlds."""
    ending = "won" if won else "resigned"
    evidence = tuple(
        EstimateEvidence(SuitMode.TWO, 20, 0, 20, 30, 1, 0) if ends is None
        else EstimateEvidence(SuitMode.TWO, 20, round(ends[0] * 20), round((ends[1] - ends[0]) * 20), 30, 1, 0)
        for ends in estimates
    )
    return play.GameResult(deal, 2, won, 100, len(estimates), 1.0, 1.0, ending, evidence)


GAMES = [
    _game(1, True, (None, (0.5, 0.5), (1.0, 1.0), (0.25, 1.0))),
    _game(2, False, (None, (0.0, 0.0), (0.5, 0.75), (0.2, 0.2))),
]


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        (0, {"unknown": (2, 2, 0.5), "0%-20%": (1, 1, 0.0), "20%-40%": (2, 2, 0.5), "40%-60%": (2, 2, 0.5),
             "80%-100%": (1, 1, 1.0)}),
        (1, {"unknown": (2, 2, 0.5), "0%-20%": (1, 1, 0.0), "20%-40%": (1, 1, 0.0), "40%-60%": (1, 1, 1.0),
             "60%-80%": (1, 1, 0.0), "80%-100%": (2, 1, 1.0)}),
    ],
)
def test_calibration_bins_each_hint_by_one_end_of_its_estimate(end: int, expected: dict) -> None:
    table = {row.label: (row.hints, row.games, row.won_share) for row in play.calibration(GAMES, end)}
    assert table == expected


def test_calibration_bins_each_hint_by_its_win_chance() -> None:
    lost = EstimateEvidence(SuitMode.FOUR, 8, 0, 0, 30, 3, 0)
    won = EstimateEvidence(SuitMode.FOUR, 8, 8, 0, 0, 0, 7)
    games = [
        play.GameResult(1, 4, True, 100, 2, 1.0, 1.0, "won", (won, won)),
        play.GameResult(2, 4, False, 100, 2, 1.0, 1.0, "resigned", (lost, won)),
    ]
    table = {row.label: (row.hints, row.games, row.won_share) for row in play.calibration(games, 2)}
    assert table == {"0%-20%": (1, 1, 0.0), "80%-100%": (3, 2, 2 / 3)}


@pytest.mark.parametrize("suits", [1, 2, 4])
@pytest.mark.parametrize("peek", ["face-down", "all"])
def test_the_oracle_draws_worlds_with_the_true_hidden_cards(peek: str, suits: int) -> None:
    game = Game(deal_position(7, suits))
    for _ in range(3):
        game.play(legal_moves(game.position.observed())[0])
    truth = game.position
    oracle = play.Oracle(peek)
    oracle.truth = truth
    world = oracle(Knowledge.of(truth.observed()), random.Random(1))
    assert world.observed() == truth.observed()
    assert [column.down for column in world.columns] == [column.down for column in truth.columns]
    assert Counter(world.stock) == Counter(truth.stock)
    assert (world.stock == truth.stock) == (peek == "all")


def test_an_oracle_peeks_at_something() -> None:
    with pytest.raises(ValueError, match="not 'none'"):
        play.Oracle("none")


def test_a_game_with_worlds_that_peek_is_played_to_its_end() -> None:
    result = play.play_game(2, 1, HintLimits(samples=2, nodes_per_move=15000), peek="face-down")
    assert result.ending in {"won", "lost", "stuck", "resigned", "move cap"}
    assert result.moves > 20 and result.hints >= result.moves


@pytest.mark.parametrize(
    ("options", "movetime", "nodes"),
    [
        ({}, 0.5, 1_000_000),
        ({"movetime": 0.2}, 0.2, 1_000_000),
        ({"nodes_per_move": 5000}, math.inf, 5000),
        ({"nodes_per_move": 5000, "movetime": 0.2}, 0.2, 5000),
        ({"count_seconds": True}, 0.5, None),
        ({"count_seconds": True, "movetime": 0.3}, 0.3, None),
    ],
)
def test_the_budget_options_make_the_limits_they_say(options: dict, movetime: float, nodes: int | None) -> None:
    args = argparse.Namespace(
        **{"movetime": None, "nodes_per_move": None, "count_seconds": False, "samples": 8, "first_width": 50,
           "plan_iterations": 0, **options}
    )
    limits = play._limits(args)
    assert (limits.movetime, limits.nodes_per_move) == (movetime, nodes)
