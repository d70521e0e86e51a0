"""Scoring a reading against the truth: whole and half-covered indices counted apart."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from spider_vision.engine import SuitMode, deal_position, parse_card
from spider_vision.synth.truth import CardTruth
from spider_vision.vision.evaluation import match_indices, score, summarise
from spider_vision.vision.reading import CardReading, TableReading


def _truth(column: int, card: str, visible: float, height: float = 110.0, suit: float | None = None) -> CardTruth:
    x, y = 100.0 * column, 0.0
    quad = ((x, y), (x + 80, y), (x + 80, y + height), (x, y + height))
    index = ((x + 2, y + 2), (x + 14, y + 2), (x + 14, y + 32), (x + 2, y + 32))
    return CardTruth("tableau", column, 0, parse_card(card), True, quad, quad, 1.0,
                     index_box=(x + 2, y + 2, x + 14, y + 32), index_quad=index, index_visible=visible,
                     suit_visible=visible if suit is None else suit)


def _read(column: int, card: str | None) -> CardReading:
    x = 100.0 * column
    quad = np.array([[x, 0], [x + 80, 0], [x + 80, 110], [x, 110]], float)
    return CardReading(column, 0, True, None if card is None else parse_card(card), 0.9, quad, quad,
                       index_box=(x + 2, 2, 12, 30))


@pytest.mark.parametrize(
    ("reads", "whole", "covered"),
    [
        (["Ks", "5h"], 1.0, 1.0),  # both right
        (["Ks", "5c"], 1.0, 0.0),  # the half-covered index misread
        (["Kc", "5h"], 0.0, 1.0),  # the whole index misread
        (["Ks", None], 1.0, 0.0),  # the half-covered index reported uncertain
    ],
)
def test_whole_and_half_covered_indices_are_scored_apart(reads: list[str | None], whole: float,
                                                         covered: float) -> None:
    truth = [_truth(0, "Ks", 1.0), _truth(1, "5h", 0.5)]
    reading = TableReading(tuple(_read(k, card) for k, card in enumerate(reads)), None, (), 4, (1000, 200))
    figures = summarise(score(reading, truth, "- - - 4", False), 1)
    assert figures["card_accuracy_whole_index"] == whole
    assert figures["card_accuracy_covered_index"] == covered
    assert figures["card_accuracy"] == (whole + covered) / 2


@pytest.mark.parametrize(
    ("reads", "shown", "hidden_share"),
    [
        (["Ks", "5h", "9c"], 1.0, 1 / 3),  # all right
        (["Ks", "5h", "9s"], 1.0, 1 / 3),  # the card whose pip is hidden misread within its colour
        (["Ks", "5d", "9c"], 0.5, 1 / 3),  # a card whose pip shows misread
        (["Ks", None, "9c"], 0.5, 1 / 3),  # ... or reported uncertain
    ],
)
def test_cards_whose_suit_pip_shows_are_scored_apart(reads: list[str | None], shown: float,
                                                     hidden_share: float) -> None:
    truth = [_truth(0, "Ks", 1.0), _truth(1, "5h", 0.8, suit=0.6), _truth(2, "9c", 0.6, suit=0.1)]
    reading = TableReading(tuple(_read(k, card) for k, card in enumerate(reads)), None, (), 4, (1000, 200))
    figures = summarise(score(reading, truth, "- - - 4", False), 1)
    assert figures["card_accuracy_suit_shown"] == shown
    assert figures["suit_hidden_share"] == pytest.approx(hidden_share)


@pytest.mark.parametrize(
    ("estimates", "warning", "recall", "precision", "warned"),
    [
        ([1.0, 0.2, 0.1, 0.0], "in columns b, c, d the next card hides the suit of 3 cards", 1.0, 1.0,
         {"hiding": [1, 1], "showing": [0, 0]}),
        ([0.3, 0.2, 0.9, 0.9], "", 1 / 3, 0.5, {"hiding": [0, 1], "showing": [0, 0]}),
    ],
)
def test_the_pipeline_s_own_estimate_of_hidden_pips_is_scored(estimates: list[float], warning: str, recall: float,
                                                              precision: float, warned: dict[str, list[int]]) -> None:
    truth = [_truth(0, "Ks", 1.0), _truth(1, "5h", 0.6, suit=0.2), _truth(2, "9c", 0.5, suit=0.0),
             _truth(3, "Jd", 0.4, suit=0.0)]
    names = ["Ks", "5h", "9c", "Jd"]
    reads = tuple(_read(k, card).with_(suit_shown=shown) for k, (card, shown) in enumerate(zip(names, estimates)))
    reading = TableReading(reads, None, (warning,) if warning else (), 4, (1000, 200))
    figures = summarise(score(reading, truth, "- - - 4", False), 1)
    assert figures["pip_hidden_recall"] == recall and figures["pip_hidden_precision"] == precision
    assert figures["hidden_suits_warned"] == warned


@pytest.mark.parametrize(
    ("read", "outcome"),
    [("9s", "right"), (None, "uncertain"), ("8s", "rank wrong"), ("8c", "rank wrong"), ("9c", "suit wrong")],
)
def test_each_card_s_outcome_is_counted_by_how_much_of_its_index_shows(read: str | None, outcome: str) -> None:
    truth = [_truth(0, "Ks", 1.0), _truth(1, "9s", 0.6), _truth(2, "4h", 0.35)]
    reading = TableReading((_read(0, "Ks"), _read(1, read)), None, (), 4, (1000, 200))
    figures = summarise(score(reading, truth, "- - - 4", False), 1)["outcomes_by_index_shown"]
    assert figures["whole"]["right"] == 1 and sum(figures["whole"].values()) == 1
    assert figures["50-70%"][outcome] == 1 and sum(figures["50-70%"].values()) == 1
    assert figures["30-50%"]["missed"] == 1 and sum(figures["30-50%"].values()) == 1
    assert "70-90%" not in figures


def test_a_refused_picture_s_cards_all_count_as_missed() -> None:
    truth = [_truth(0, "Ks", 1.0), _truth(1, "9s", 0.8)]
    figures = summarise(score(None, truth, "- - - 4", True), 1)["outcomes_by_index_shown"]
    assert figures == {"70-90%": {"right": 0, "uncertain": 0, "rank wrong": 0, "suit wrong": 0, "missed": 1},
                       "whole": {"right": 0, "uncertain": 0, "rank wrong": 0, "suit wrong": 0, "missed": 1}}


def test_accuracy_is_given_per_card_height_band() -> None:
    truth = [_truth(0, "Ks", 1.0, 110.0), _truth(1, "5h", 1.0, 40.0), _truth(2, "7d", 1.0, 45.0)]
    reads = ["Ks", "5h", "7c"]
    reading = TableReading(tuple(_read(k, card) for k, card in enumerate(reads)), None, (), 4, (1000, 200))
    bands = summarise(score(reading, truth, "- - - 4", False), 1)["card_accuracy_by_card_height"]
    assert bands == {"<50 px": [0.5, 2], "100-130 px": [1.0, 1]}


@pytest.mark.parametrize(("reading", "exact"), [(None, 0.0), ("read", 0.0)])
def test_a_refused_full_view_counts_as_not_exact(reading: str | None, exact: float) -> None:
    truth = [_truth(0, "Ks", 1.0)]
    table = None if reading is None else TableReading((_read(0, "Ks"),), None, (), 4, (1000, 200))
    figures = summarise(score(table, truth, deal_position(3, SuitMode(4)).spn(), True), 1)
    assert figures["full_views"] == 1
    assert figures["exact_position"] == exact
    assert figures["failed_pictures"] == int(reading is None)


@pytest.mark.parametrize(("hands", "clear", "exact_clear"), [(0, 1, 1.0), (1, 0, 0.0)])
def test_exact_positions_are_also_counted_on_views_without_hands(hands: int, clear: int,
                                                                 exact_clear: float) -> None:
    start = deal_position(3, SuitMode(4))
    table = TableReading((_read(0, "Ks"),), start.observed().spn(), (), 4, (1000, 200))
    figures = summarise(score(table, [_truth(0, "Ks", 1.0)], start.spn(), True, hands), 1)
    assert figures["exact_position"] == 1.0
    assert figures["full_views_without_hands"] == clear
    assert figures["exact_position_without_hands"] == exact_clear


@pytest.mark.parametrize(("hidden", "second", "shown", "exact_shown"),
                         [(0.3, 0.0, 1, 1.0), (0.1, 0.0, 0, 0.0), (0.1, 0.5, 1, 1.0)])
def test_exact_positions_are_also_counted_on_views_where_every_index_shows(hidden: float, second: float,
                                                                           shown: int, exact_shown: float) -> None:
    # The second card's top-left index is under a hand unless it shows MIN_INDEX_VISIBLE of it, or its
    # bottom-right index shows that much.
    start = deal_position(3, SuitMode(4))
    table = TableReading((_read(0, "Ks"),), start.observed().spn(), (), 4, (1000, 200))
    covered = replace(_truth(1, "5h", hidden), second_index_box=(180.0, 70.0, 192.0, 100.0),
                      second_index_visible=second)
    figures = summarise(score(table, [_truth(0, "Ks", 1.0), covered], start.spn(), True, 1), 1)
    assert figures["exact_position"] == 1.0
    assert figures["full_views_every_index_shown"] == shown
    assert figures["exact_position_every_index_shown"] == exact_shown


def test_a_tight_cascade_is_paired_card_for_card_though_each_prediction_sits_a_little_high() -> None:
    # Index centres 8 px apart down a column, each predicted 5 px high: the next card's prediction is
    # nearer to a truth than its own, yet every card has its own prediction.
    truth = np.array([[50.0, 100.0 + 8 * k] for k in range(6)])
    predicted = truth - [0.0, 5.0]
    assert match_indices(truth, np.full(6, 10.0), predicted) == {k: k for k in range(6)}


@pytest.mark.parametrize(("truth", "reaches", "predicted", "expected"), [
    ([[0.0, 0.0], [100.0, 0.0]], [10.0, 10.0], [[101.0, 2.0], [3.0, 0.0], [50.0, 50.0]], {0: 1, 1: 0}),
    ([[0.0, 0.0], [6.0, 0.0]], [10.0, 10.0], [[4.0, 0.0]], {1: 0}),  # one prediction for two: the nearer
    ([[0.0, 0.0]], [10.0], [[11.0, 0.0]], {}),  # out of reach
    ([[0.0, 0.0]], [10.0], [], {}),
])
def test_predictions_pair_one_to_one_within_reach(truth: list, reaches: list, predicted: list,
                                                   expected: dict[int, int]) -> None:
    assert match_indices(np.array(truth), np.array(reaches), np.array(predicted).reshape(-1, 2)) == expected
