"""Observations: detections that may be echoes rather than cards are kept as suspects that cost little,
so do faint ones that may be no card at all, and cards are placed where they lie when the reader's
column names do not hold."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from spider_vision.engine import Card, SuitMode
from spider_vision.tracking.observation import (
    CUT_MISS,
    ECHO_EXTRA,
    EXTRA,
    MISS_TOP,
    UNKNOWN_CLASS,
    ColumnGuide,
    align_column,
    allowed_classes,
    phantom_chance,
    view_from_reading,
)
from spider_vision.vision import CardReading, TableReading
from spider_vision.vision.reading import class_index

WIDTH, HEIGHT, GAP, STEP = 60.0, 84.0, 6.0, 20.0
PITCH = WIDTH + GAP
OVERLAP = 0.85 * WIDTH
"""Columns closer than a card's width: each column's cards start where the top-right index of the
column before it lies, so an echo of that index lies where this column's card shows."""


def _card(column: int, slot: int, name: str, step: float = STEP, pitch: float = PITCH) -> CardReading:
    """A face-up card of a pile cascaded from the top of the picture (``step`` pixels a card, columns
    ``pitch`` pixels apart), read with confidence."""
    x, y = 20.0 + column * pitch, 20.0 + slot * step
    quad = np.array([[x, y], [x + WIDTH, y], [x + WIDTH, y + HEIGHT], [x, y + HEIGHT]])
    card = Card.parse(name)
    probabilities = np.full(52, 0.02 / 51)
    probabilities[class_index(card)] = 0.98
    return CardReading(column, slot, True, card, 0.98, quad, quad, probabilities=probabilities)


def _view(piles: dict[int, list[str]], size: tuple[int, int] = (800, 400), pitch: float = PITCH):
    cards = tuple(_card(column, slot, name, pitch=pitch) for column, names in piles.items()
                  for slot, name in enumerate(names))
    reading = TableReading(cards, None, (), 2, size)
    view = view_from_reading(reading, 0, allowed_classes(SuitMode.TWO))
    assert view is not None
    return view


@pytest.mark.parametrize("gap", [0.9, 1.1])
def test_cards_after_a_long_gap_in_a_column_are_kept(gap: float) -> None:
    """Two court cards the detector missed under a near camera: the cards found after the gap lie
    further below than any single step, but cards follow them, so they are not the exposed card's
    bottom index seen again."""
    cards = [_card(2, 0, "Kh"), _card(2, 1, "Qh")]
    for k, name in enumerate(["9h", "8h"]):
        card = _card(2, 1, name)
        cards.append(replace(card, index=2 + k, quad=card.quad + [0.0, (gap + 0.3 * k) * HEIGHT]))
    view = view_from_reading(TableReading(tuple(cards), None, (), 2, (800, 400)), 0,
                             allowed_classes(SuitMode.TWO))
    assert view is not None and len(view.columns[2]) == 4


def _classes(*names: str) -> tuple[int, ...]:
    return tuple(class_index(Card.parse(name)) for name in names)


@pytest.mark.parametrize("piles, column, suspects, pitch", [
    # Columns that overlap: column d ends level with column c and holds the same card as c's top, on
    # c's top-right index. It may be an echo of that index, or the same card lying there (two decks
    # have two of each).
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs"]}, 3, {2}, OVERLAP),
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Jh"]}, 3, set(), OVERLAP),
    # Where columns touch, an echo may lie anywhere down the next pile, not only at its end.
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs", "5h"]}, 3, {2}, OVERLAP),
    # With a gap between the columns, column d's Qs lies right of c's corner, off the card an echo
    # would lie on: a real card (bench game 700004: a dealt 2h level with the next column's 2h).
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs"]}, 3, set(), PITCH),
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs", "5h"]}, 3, set(), PITCH),
    # A pile's lowest face-up card is never suspected: a real neighbour lies where an echo would.
    ({2: ["Qs"], 3: ["Qs", "Jh"]}, 3, set(), OVERLAP),
    ({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs"]}, 2, set(), OVERLAP),
    # A court card found twice, its picture taken for an index just below: the second is the suspect.
    ({7: ["Js", "Js", "Ts"]}, 7, {1}, PITCH),
    ({7: ["Qs", "Js", "Ts"]}, 7, set(), PITCH),
    ({7: ["9h", "Kh", "Kh"]}, 7, {2}, PITCH),
    # A number card read twice in a row is two cards: a 5 put on a 5 breaks the rules.
    ({7: ["6h", "5h", "5h"]}, 7, set(), PITCH),
    ({7: ["Ah", "Ah"]}, 7, set(), PITCH),
])
def test_detections_that_may_be_echoes_are_kept_as_suspects(piles: dict, column: int, suspects: set,
                                                             pitch: float) -> None:
    view = _view(piles, pitch=pitch)
    assert len(view.columns[column]) == len(piles[column]) and view.columns[column].echoes == suspects


def test_a_suspected_echo_matches_a_predicted_card_and_costs_little_unexplained() -> None:
    column = _view({2: ["9h", "8h", "Qs"], 3: ["7h", "6h", "Qs"]}, pitch=OVERLAP).columns[3]
    with_it = align_column(0, _classes("7h", "6h", "Qs"), column)
    without = align_column(0, _classes("7h", "6h"), column)
    assert with_it.matches == ((0, 0), (1, 1), (2, 2)) and with_it.problems == 0
    assert without.problems == 0 and without.extras == 0
    evidence = float(column.up[2, class_index(Card.parse("Qs"))])
    assert with_it.score - without.score == pytest.approx(evidence - ECHO_EXTRA)
    # The same card seen where nothing could echo it is a real extra: a problem, and costly.
    plain = _view({3: ["7h", "6h", "Qs"]}).columns[3]
    unexplained = align_column(0, _classes("7h", "6h"), plain)
    assert unexplained.problems == 1 and without.score - unexplained.score == pytest.approx(ECHO_EXTRA - EXTRA)


@pytest.mark.parametrize("dealt", ["5h", "7h"])
def test_a_card_dealt_is_matched_to_its_detection_not_to_a_faint_one_below_it(dealt: str) -> None:
    """Game 736003: below the Ace dealt into column d the detector framed something more (score 0.44,
    read as a King), and the dealt card was read from it. A card dealt and not yet read is the
    confident detection, also when it is a twin of the card it lies on (then suspected as found
    twice); the faint one below is no problem."""
    names = ["9h", "8h", "7h", dealt, "Kh"]
    cards = [_card(4, slot, name) for slot, name in enumerate(names)]
    cards[-1] = replace(cards[-1], detection_score=0.32)
    view = view_from_reading(TableReading(tuple(cards), None, (), 2, (800, 400)), 0, allowed_classes(SuitMode.TWO))
    assert view is not None
    alignment = align_column(0, _classes("9h", "8h", "7h") + (UNKNOWN_CLASS,), view.columns[4])
    assert alignment.matches == ((0, 0), (1, 1), (2, 2), (3, 3)) and alignment.problems == 0


@pytest.mark.parametrize("score, problem", [(0.95, 1), (0.45, 1), (0.3, 0)])
def test_a_faint_detection_left_unexplained_costs_less_the_fainter_it_is(score: float, problem: int) -> None:
    """A detection is a phantom (no card) more often the lower its score: leaving it unexplained
    costs the chance of that, and is a problem only while it is likelier a card."""
    cards = [_card(4, slot, name) for slot, name in enumerate(["9h", "8h", "Kh"])]
    cards[-1] = replace(cards[-1], detection_score=score)
    view = view_from_reading(TableReading(tuple(cards), None, (), 2, (800, 400)), 0, allowed_classes(SuitMode.TWO))
    assert view is not None
    alignment = align_column(0, _classes("9h", "8h"), view.columns[4])
    assert alignment.problems == problem
    assert alignment.score == pytest.approx(float(view.columns[4].up[0, class_index(Card.parse("9h"))]
                                                  + view.columns[4].up[1, class_index(Card.parse("8h"))])
                                            + math.log(max(phantom_chance(score), math.exp(EXTRA))), abs=1e-4)


def test_a_card_found_twice_is_suspected_by_the_identities_the_suit_mode_has() -> None:
    # Two suits (spades and hearts): a read that most favours Kd, Kh next, is a Kh for this game, so
    # it and a Kh just below it are one card found twice.
    first, second = _card(7, 0, "Kh"), _card(7, 1, "Kh")
    probabilities = np.full(52, 0.01 / 49)
    probabilities[class_index(Card.parse("Kd"))] = 0.6
    probabilities[class_index(Card.parse("Kh"))] = 0.3
    probabilities[class_index(Card.parse("Ks"))] = 0.09
    first = replace(first, probabilities=probabilities)
    view = view_from_reading(TableReading((first, second), None, (), 2, (800, 400)), 0, allowed_classes(SuitMode.TWO))
    assert view is not None and view.columns[7].echoes == {1}


@pytest.mark.parametrize("picture_height, cut", [(400, False), (150, True)])
def test_cards_past_the_last_one_seen_of_a_column_off_the_picture_cost_little(picture_height: int,
                                                                               cut: bool) -> None:
    """The fourth card's bottom lies at 164 px: in a picture 150 px tall the column runs off it, and a
    fifth card put on it lies past the edge (a card moved there is not missing)."""
    view = _view({0: ["9h", "8h", "7h", "6h"]}, (800, picture_height))
    column = view.columns[0]
    assert column.cut is cut
    seen = align_column(0, _classes("9h", "8h", "7h", "6h"), column)
    more = align_column(0, _classes("9h", "8h", "7h", "6h", "5h"), column)
    assert more.top_missed is not cut
    assert more.score - seen.score == pytest.approx(CUT_MISS if cut else MISS_TOP)


@pytest.mark.parametrize("beyond", [1, 3, 6])
def test_any_number_of_cards_may_lie_past_the_edge_of_a_column_off_the_picture(beyond: int) -> None:
    """A group of six moved onto a column that runs off the picture lies mostly past its edge: each card
    past the last one seen costs ``CUT_MISS``, however many there are (not only as many as the
    alignment's band allows)."""
    view = _view({0: ["9h", "8h", "7h", "6h"]}, (800, 150))
    column = view.columns[0]
    seen = align_column(0, _classes("9h", "8h", "7h", "6h"), column)
    names = ["9h", "8h", "7h", "6h", "5h", "4h", "3h", "2h", "Ah", "Kh"][:4 + beyond]
    more = align_column(0, _classes(*names), column)
    assert more.matches == seen.matches
    assert more.score - seen.score == pytest.approx(beyond * CUT_MISS)


@pytest.mark.parametrize("last, step, kept", [
    ("5h", 0.3, 3),   # a cascade's usual step
    ("5h", 0.6, 3),   # a long step, as near the camera: another card, so a real one
    ("6h", 0.6, 2),   # the exposed card's bottom index seen again: read as it
    ("5h", 0.9, 2),   # further than any cascade, however read
])
def test_a_detection_far_below_the_exposed_card_is_its_echo_only_if_it_reads_as_it(last: str, step: float,
                                                                                    kept: int) -> None:
    cards = (_card(2, 0, "7h"), _card(2, 1, "6h"))
    below = _card(2, 1, last)
    below = replace(below, index=2, quad=below.quad + [0.0, step * HEIGHT])
    reading = TableReading(cards + (below,), None, (), 2, (800, 400))
    view = view_from_reading(reading, 0, allowed_classes(SuitMode.TWO))
    assert view is not None and len(view.columns[2]) == kept


@pytest.mark.parametrize("neighbour_share, suspected", [
    (0.10, True),   # read as a 2s, but a tenth for the Qs whose top-right corner it starts at
    (0.01, False),  # read as a 2s and nothing else: a real card
])
def test_a_detection_at_a_neighbours_corner_is_suspected_while_it_leans_to_the_neighbour(
        neighbour_share: float, suspected: bool) -> None:
    """The frame of an echo also takes in the next column's card, so the echo is often read as something
    else; what the neighbour's identity keeps of the read decides."""
    below = _card(3, 2, "2s", pitch=OVERLAP)
    probabilities = np.full(52, (0.41 - neighbour_share) / 50)
    probabilities[class_index(Card.parse("2s"))] = 0.59
    probabilities[class_index(Card.parse("Qs"))] = neighbour_share
    cards = tuple(_card(column, slot, name, pitch=OVERLAP)
                  for column, names in ((2, ["9h", "8h", "Qs"]), (3, ["7h", "6h"])) for slot, name in enumerate(names))
    cards += (replace(below, probabilities=probabilities),)
    view = view_from_reading(TableReading(cards, None, (), 2, (800, 400)), 0, allowed_classes(SuitMode.TWO))
    assert view is not None and view.columns[3].echoes == ({2} if suspected else set())


def test_a_card_turned_over_under_a_run_of_echoes_is_matched() -> None:
    """Columns that overlap: the next column's run of indices (8h down to 4h) lies over the card just turned
    over, each suspected as an echo. The card is still found, however many echoes follow it."""
    names = ["9h", "8h", "7h", "6h", "5h", "4h"]
    view = _view({2: names, 3: ["7s"] + names[1:]}, pitch=OVERLAP).columns[3]
    assert view.echoes == set(range(1, 6))
    alignment = align_column(0, (UNKNOWN_CLASS,), view)
    assert alignment.matches == ((0, 0),) and alignment.problems == 0


def _table(piles: list[tuple[int, float, list[str]]]) -> TableReading:
    """A reading of piles as the reader named them, each at ``x`` pixels from the left."""
    cards = []
    for column, x, names in piles:
        for slot, name in enumerate(names):
            card = _card(0, slot, name)
            cards.append(replace(card, column=column, quad=card.quad + [x - 20.0, 0.0]))
    return TableReading(tuple(cards), None, (), 2, (800, 400))


PILES = [["Kh"], ["Qh"], ["Jh"], ["Th"], ["9h"], ["8h"], ["7h", "6h"], ["5h"], ["4h"], ["3h"]]


def test_a_pile_seen_between_two_columns_does_not_rename_the_columns_after_it() -> None:
    """A card's top-right index seen between columns f and g, taken for a pile of its own: the reader
    counts it as g and the real g..i as h..j (j dropped). Most columns still lie where the guide puts
    them, but more than one is elsewhere, so the cards are placed where they lie."""
    guide = ColumnGuide.from_reading(_table([(k, 20.0 + 66.0 * k, pile) for k, pile in enumerate(PILES)]))
    assert guide is not None
    echo = (6, 20.0 + 66.0 * 5.5, ["8h"])
    misnamed = _table([(k, 20.0 + 66.0 * k, PILES[k]) for k in range(6)] + [echo]
                      + [(k + 1, 20.0 + 66.0 * k, PILES[k]) for k in range(6, 9)])
    found = ColumnGuide.from_reading(misnamed)
    assert found is not None and guide.shift_of(found) == 0 and guide.strays(found) > 1
    assert guide.regular() and not found.regular()
    allowed = allowed_classes(SuitMode.TWO)
    by_name = view_from_reading(misnamed, 0, allowed, guide, 0)
    by_place = view_from_reading(misnamed, 0, allowed, guide, None)
    assert by_name is not None and by_place is not None
    assert [len(column) for column in by_name.columns] == [1, 1, 1, 1, 1, 1, 1, 2, 1, 1]
    assert [len(column) for column in by_place.columns] == [1, 1, 1, 1, 1, 1, 2, 1, 1, 0]
    assert by_place.columns[6].up.argmax(axis=1).tolist() == list(_classes("7h", "6h"))


@pytest.mark.parametrize("places, regular", [
    ([20.0 + 66.0 * k for k in range(10)], True),
    ([20.0 + 60.0 * k + 1.5 * k * k for k in range(10)], True),  # seen in perspective: steps widen
    ([20.0 + 66.0 * k for k in range(6)] + [20.0 + 66.0 * 5.5] + [20.0 + 66.0 * k for k in range(6, 9)], False),
])
def test_a_layout_is_regular_when_its_columns_lie_on_a_smooth_run(places: list[float], regular: bool) -> None:
    """A camera that zooms or turns moves the outer columns more than the middle ones, but keeps them on a
    smooth run, and its names are trusted; a pile seen between two columns breaks the run."""
    guide = ColumnGuide.from_reading(_table([(k, x, PILES[k]) for k, x in enumerate(places)]))
    assert guide is not None and guide.regular() == regular


@pytest.mark.parametrize("trailing", [1, 3, 4, 6])
def test_detections_past_the_last_card_of_a_pile_are_extras_however_many(trailing: int) -> None:
    """Bench game 749004: past an Ah just put on column e the detector framed four faint things (one
    read as a 4s); the one-card move fits only if all four may be extras, and the band that keeps
    alignments near the diagonal dropped every match instead."""
    names = ["9h", "8h"] + ["7h", "6h", "5h", "4h", "3h", "2h"][:trailing]
    cards = [_card(4, slot, name) for slot, name in enumerate(names)]
    cards[2:] = [replace(card, detection_score=0.3) for card in cards[2:]]
    view = view_from_reading(TableReading(tuple(cards), None, (), 2, (800, 400)), 0, allowed_classes(SuitMode.TWO))
    assert view is not None
    column = view.columns[4]
    alignment = align_column(0, _classes("9h", "8h"), column)
    assert alignment.matches == ((0, 0), (1, 1)) and alignment.problems == 0
    evidence = float(column.up[0, class_index(Card.parse("9h"))] + column.up[1, class_index(Card.parse("8h"))])
    assert alignment.score == pytest.approx(evidence + sum(column.costs[0][2:]), abs=1e-4)
