"""Games: random play keeps every card, undo and redo are exact inverses, the move counter and score."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_vision.engine import (
    STANDARD,
    Card,
    Deal,
    Flip,
    Game,
    NothingToRedoError,
    NothingToUndoError,
    Position,
    Removal,
    TableauMove,
    Variant,
    apply_move,
    deal_position,
    legal_moves,
)

from .strategies import VARIANTS, conserved, deals, play_randomly

HEARTS_RUN = "3|KhQhJhTh9h8h7h6h5h4h3h2h/2|Ah/3|5s/3|Jd/17|Tc/3|9s/3|8h/3|7d/3|6c/3|5s 40 - 4"
ALMOST_WON = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"


def test_a_new_game_starts_with_500_points_and_no_moves() -> None:
    game = Game(deal_position(0, 4))
    assert game.moves_made == 0 and game.score == 500
    assert game.position == deal_position(0, 4)
    assert not game.is_won and not game.is_lost


def test_each_move_and_deal_costs_a_point() -> None:
    game = Game(deal_position(0, 4))
    game.play(Deal())
    game.play(legal_moves(game.position)[0])
    assert game.moves_made == 2 and game.score == 498


def test_a_removed_run_earns_100_points_and_the_eighth_wins() -> None:
    game = Game(Position.from_spn(ALMOST_WON))
    assert game.score == 500
    game.play(TableauMove(1, 0))
    assert game.moves_made == 1 and game.score == 500 - 1 + 100
    assert game.is_won and not game.is_lost
    game.undo()
    assert game.score == 500 and not game.is_won


def test_manual_removal_counts_as_a_move() -> None:
    game = Game(Position.from_spn(HEARTS_RUN), Variant(manual_removal=True))
    game.play(TableauMove(1, 0))
    assert game.score == 499
    game.play(Removal(0))
    assert game.moves_made == 2 and game.score == 500 - 2 + 100


def test_reading_a_card_is_no_move_but_is_undone_like_one() -> None:
    game = Game(Position.from_spn(HEARTS_RUN).observed())
    game.play(TableauMove(1, 0))
    assert game.position.columns[0].up == (None,)
    game.read(0, Card(7, "c"))
    assert game.position.columns[0].up == (Card(7, "c"),)
    assert game.moves_made == 1 and game.score == 500 - 1 + 100
    assert game.undo().move == Flip(0, Card(7, "c"))
    assert game.position.columns[0].up == (None,)
    assert game.moves_made == 1


def test_forced_moves_count_and_keep_their_reason() -> None:
    game = Game(Position.from_spn(HEARTS_RUN))
    step = game.play(TableauMove(2, 3), force=True)
    assert not step.legal and step.reason.startswith("wrong rank: 5s cannot go on Jd")
    assert game.moves_made == 1 and game.history[-1] is step


def test_a_game_with_no_legal_move_is_lost() -> None:
    stuck = Position.from_spn("67|Ks/3|Js/3|9d/3|7d/3|5c/3|3s/3|Ah/3|Kc/3|Jh/3|9c - - 4")
    game = Game(stuck)
    assert game.legal_moves() == [] and game.is_lost and not game.is_won


def test_a_game_waiting_for_cards_to_be_read_is_not_lost() -> None:
    game = Game(deal_position(3, 4).observed())
    for _ in range(5):
        game.play(Deal())
    assert all(column.top is None for column in game.position.columns)
    assert game.legal_moves() == []
    assert not game.is_lost
    stock = deal_position(3, 4).stock
    for row in range(5):
        for column in range(10):
            game.read(column, stock[10 * row + column])
    assert game.position == apply_deals(deal_position(3, 4), 5).observed()
    assert game.is_lost == (game.legal_moves() == [])


def apply_deals(position: Position, deals: int) -> Position:
    for _ in range(deals):
        position = apply_move(position, Deal()).after
    return position


def test_undo_at_the_start_and_redo_with_nothing_undone_are_refused() -> None:
    game = Game(deal_position(5, 2))
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game.undo()
    with pytest.raises(NothingToRedoError, match="nothing to redo"):
        game.redo()


def test_a_new_move_clears_the_redo_list() -> None:
    game = Game(deal_position(5, 2))
    game.play(Deal())
    game.undo()
    game.play(legal_moves(game.position)[0])
    with pytest.raises(NothingToRedoError):
        game.redo()


@settings(max_examples=50, deadline=None)
@given(deals(), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_card_and_undo_redo_are_exact_inverses(
    start: Position, variant: Variant, seed: int
) -> None:
    steps = play_randomly(start, variant, random.Random(seed), 80)
    game = Game(start, variant)
    positions = [start]
    runs = 0
    for step in steps:
        played = game.play(step.move)
        assert played == step
        assert played.before == positions[-1]
        assert conserved(played.after)
        played.after.validate()
        assert played.after.spn() == apply_move(played.before, step.move, variant).after.spn()
        runs += len(played.removals)
        positions.append(played.after)
        assert game.moves_made == len(positions) - 1
        assert game.score == 500 - game.moves_made + 100 * runs
        assert game.is_won == (len(played.after.removed) == 8)
    end = game.position
    for expected in reversed(positions[:-1]):
        game.undo()
        assert game.position == expected and game.position.spn() == expected.spn()
    assert game.position == start and game.moves_made == 0 and game.score == 500
    for expected in positions[1:]:
        game.redo()
        assert game.position == expected
    assert game.position == end and game.position.spn() == end.spn()
    assert game.moves_made == len(steps)


@settings(max_examples=20, deadline=None)
@given(deals(), st.integers(0, 2**32 - 1))
def test_random_undo_and_redo_in_between_moves_land_on_the_same_positions(
    start: Position, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(start, STANDARD)
    line = [start]
    for _ in range(60):
        action = rng.random()
        if action < 0.15 and len(line) > 1:
            game.undo()
            line.pop()
        elif action < 0.25 and game.undone:
            step = game.redo()
            line.append(step.after)
        else:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            line.append(game.position)
        assert game.position == line[-1]
        assert game.moves_made == len(line) - 1
        assert conserved(game.position)
