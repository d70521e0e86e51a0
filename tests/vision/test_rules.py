"""The rules filter: suit mode, copies per mode, uncertain reads, known identities."""

from __future__ import annotations

import numpy as np
import pytest

from spider_vision.engine import Card, parse_card
from spider_vision.vision.reading import CardReading, class_index
from spider_vision.vision.rules import (UNCERTAIN, apply_rules, choose_down_counts, column_prior, infer_suits,
                                        joint_probabilities, letter_beliefs)


def _belief(*pairs: tuple[str, float]) -> np.ndarray:
    p = np.full(52, 1e-6)
    for text, value in pairs:
        p[class_index(parse_card(text))] = value
    return p / p.sum()


def _card(column: int, index: int, belief: np.ndarray) -> CardReading:
    quad = np.zeros((4, 2))
    return CardReading(column, index, True, None, float(belief.max()), quad, quad, (0, 0, 1, 1), belief)


def test_joint_probabilities_are_suit_major_products() -> None:
    rank = np.zeros((1, 13))
    rank[0, 9] = 1.0
    suit = np.array([[0.0, 0.25, 0.75, 0.0]])
    joint = joint_probabilities(rank, suit)
    assert joint[0, class_index(Card(10, "h"))] == pytest.approx(0.25)
    assert joint[0, class_index(Card(10, "d"))] == pytest.approx(0.75)
    assert joint.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("reads, mode", [
    (["Ks", "9s"], 1),
    (["Ks", "9h"], 2),
    (["Ks", "9d"], 4),
    (["Kc"], 4),
])
def test_infer_suits_is_the_smallest_mode_that_explains_the_reads(reads: list[str], mode: int) -> None:
    beliefs = np.stack([_belief((text, 1.0)) for text in reads])
    assert infer_suits(beliefs) == mode


def test_more_copies_than_the_mode_has_fall_back_to_the_next_best_class() -> None:
    # Four-suit mode has two copies of each card; the third Ks (least confident) becomes its second choice.
    cards = [_card(0, 5, _belief(("Ks", 0.99))), _card(1, 5, _belief(("Ks", 0.98))),
             _card(2, 5, _belief(("Ks", 0.7), ("Kc", 0.29)))]
    out, warnings = apply_rules(cards, 4)
    assert [str(c.card) for c in out] == ["Ks", "Ks", "Kc"]
    assert any("copies of Ks" in w for w in warnings)


def test_suits_outside_the_mode_are_excluded() -> None:
    out, _ = apply_rules([_card(0, 5, _belief(("7d", 0.6), ("7h", 0.4)))], 2)
    assert str(out[0].card) == "7h"
    assert out[0].confidence == pytest.approx(1.0, abs=1e-3)


def test_a_low_confidence_read_is_uncertain_not_guessed() -> None:
    belief = _belief(("5s", 0.45), ("6s", 0.40), ("3s", 0.15))
    out, _ = apply_rules([_card(0, 3, belief)], 4)
    assert out[0].card is None
    assert out[0].confidence < UNCERTAIN


def test_a_card_known_face_up_keeps_its_identity() -> None:
    out, _ = apply_rules([_card(4, 2, _belief(("8s", 0.9), ("8c", 0.1)))], 4, known={(4, 2): Card(8, "c")})
    assert str(out[0].card) == "8c"


def _counts(beliefs: list[dict[int, float]]) -> np.ndarray:
    p = np.full((10, 7), 1e-4)
    for column, belief in enumerate(beliefs):
        for count, value in belief.items():
            p[column, count] = value
    return p / p.sum(axis=1, keepdims=True)


def test_down_counts_stay_within_what_each_column_was_dealt() -> None:
    # Column e leans to 5 face-down cards, but e..j were dealt only 4.
    beliefs = [{5: 1.0}] * 4 + [{5: 0.6, 4: 0.4}] + [{4: 1.0}] * 5
    counts, ok = choose_down_counts(_counts(beliefs), 10)
    assert ok
    assert counts == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]


def test_down_counts_make_a_card_total_spider_allows() -> None:
    # Argmax gives 44 face-down + 10 face-up = 54 (stock 50: fine); shift one column to make it 53 and see it fixed.
    beliefs = [{5: 1.0}] * 4 + [{3: 0.55, 4: 0.45}] + [{4: 1.0}] * 5
    counts, ok = choose_down_counts(_counts(beliefs), 10)
    assert ok
    assert counts[4] == 4


def test_sure_counts_are_not_forced_into_a_whole_card_total() -> None:
    # 43 face-down + 10 face-up = 53 cards leave no whole stock, but every count is sure: a face-up card
    # was more likely missed or found twice, so the counts stay and the caller withholds the position.
    beliefs = [{5: 1.0}] * 3 + [{4: 0.999, 5: 0.001}] + [{4: 1.0}] * 6
    counts, ok = choose_down_counts(_counts(beliefs), 10)
    assert not ok
    assert counts == [5, 5, 5, 4, 4, 4, 4, 4, 4, 4]


@pytest.mark.parametrize(("four", "forced"), [(0.9, True), (0.96, False)])
def test_a_count_is_forced_into_a_whole_card_total_only_when_that_costs_under_20_to_1(four: float,
                                                                                       forced: bool) -> None:
    # 43 face-down + 10 face-up leave no whole stock; column d's 5 makes 54 at odds of 9 or 24 to 1 against.
    beliefs = [{5: 1.0}] * 3 + [{4: four, 5: 1.0 - four}] + [{4: 1.0}] * 6
    counts, ok = choose_down_counts(_counts(beliefs), 10)
    assert ok is forced
    assert counts[3] == (5 if forced else 4)


def test_no_allowed_choice_falls_back_to_the_likeliest_counts() -> None:
    beliefs = [{0: 1.0}] * 10
    counts, ok = choose_down_counts(_counts(beliefs), 200)
    assert not ok
    assert counts == [0] * 10


@pytest.mark.parametrize("unsure, expected", [
    ([("9h", 0.45), ("9c", 0.55)], "9h"),   # between Th and 8h: the run decides
    ([("9h", 0.05), ("9c", 0.95)], "9c"),   # a confident read keeps its class
    ([("6h", 0.45), ("9c", 0.55)], "9c"),   # no neighbour explains either: the read decides
])
def test_column_prior_leans_an_unsure_card_towards_its_run(unsure: list, expected: str) -> None:
    beliefs = np.stack([_belief(("Th", 0.98)), _belief(*unsure), _belief(("8h", 0.98)), _belief(("Kd", 0.9))])
    out = column_prior(beliefs, [[0, 1, 2]])
    assert out[1].argmax() == class_index(parse_card(expected))
    assert np.allclose(out.sum(axis=1), 1.0)
    assert np.array_equal(out[3], beliefs[3])  # in no column: untouched


@pytest.mark.parametrize(("in_sight", "runs_assumed"), [(0, False), (1, True)])
def test_a_completed_run_no_card_shows_costs_the_counts_that_assume_it(in_sight: int, runs_assumed: bool) -> None:
    # Columns a..c lean to 4 face-down cards (at 0.6): 41 + 10 face-up = 51 cards, which a deal fewer and a
    # run removed explain (40 + 13); their dealt 5s make the fresh 54 (stock 50) at odds of 1.5 to 1 each.
    beliefs = [{4: 0.6, 5: 0.4}] * 3 + [{5: 1.0}] + [{4: 1.0}] * 6
    counts, ok = choose_down_counts(_counts(beliefs), 10, runs_in_sight=in_sight)
    assert ok
    assert counts[:3] == ([4, 4, 4] if runs_assumed else [5, 5, 5])


def test_a_run_assumed_with_few_cards_face_down_costs_little() -> None:
    # Late in a game: columns a..c lean to none face down, which with 60 face-up cards leaves 43 (a run and
    # three deals); one each leaves 40 (four deals, no run). With one card face down a run is cheap.
    beliefs = [{0: 0.6, 1: 0.4}] * 3 + [{1: 1.0}] + [{0: 1.0}] * 6
    counts, ok = choose_down_counts(_counts(beliefs), 60)
    assert ok
    assert counts[:4] == [0, 0, 0, 1]


def test_letter_beliefs_put_each_pile_at_its_letter_and_empty_columns_at_no_face_down_card() -> None:
    beliefs = np.array([[0.1, 0.9, 0, 0, 0, 0, 0], [0, 0, 0.2, 0.8, 0, 0, 0]])
    by_letter = letter_beliefs((4, 0), beliefs)
    assert by_letter.shape == (10, 7)
    assert np.array_equal(by_letter[4], beliefs[0]) and np.array_equal(by_letter[0], beliefs[1])
    for letter in (1, 2, 3, 5, 6, 7, 8, 9):
        assert by_letter[letter].tolist() == [1.0, 0, 0, 0, 0, 0, 0]
