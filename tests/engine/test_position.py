"""Positions in Spider Position Notation: reading, printing, validation, derived positions."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_vision.engine import Card, Column, Position, PositionError, SuitMode, deal_position

from .strategies import MODES, positions

CAMERA_START = "5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4"
MIXED = "Ks??3d|9h??/|/|KhQhJhTh9h8h7h6h5h4h3h2h/2|??/37|5c/|/|/|/|/| 20 sd 4"
DEAL_1_ONE_SUIT = deal_position(1, 1).spn()
ALMOST_WON = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"
WON = "|/|/|/|/|/|/|/|/|/| - ssssssss 1"


@pytest.mark.parametrize(
    "text",
    [
        CAMERA_START,
        MIXED,
        ALMOST_WON,
        "|KsQsJsTs9s8s7s6s5s4s3s2sAs/|/|/|/|/|/|/|/|/| - sssssss 1",
        deal_position(1, 1).spn(),
        deal_position(7, 2).observed().spn(),
        deal_position(99, 4).spn(),
    ],
)
def test_spn_reads_and_prints_back_exactly(text: str) -> None:
    position = Position.from_spn(text)
    assert position.spn() == text
    assert str(position) == text
    assert Position.from_spn(position.spn()) == position


def test_spn_fields_land_where_the_spec_puts_them() -> None:
    position = Position.from_spn(MIXED)
    a, b, c, d, e = position.columns[:5]
    assert a == Column((Card(13, "s"), None, Card(3, "d")), (Card(9, "h"), None))
    assert b.is_empty and c.down == () and len(c.up) == 12
    assert d == Column((None, None), (None,))
    assert e.down == (None,) * 37 and e.top == Card(5, "c")
    assert position.stock == (None,) * 20
    assert position.removed == "sd"
    assert position.mode is SuitMode.FOUR
    assert position.deals_left == 2
    assert position.empty_columns() == [1, 5, 6, 7, 8, 9]
    assert position.tableau_size() == 3 + 2 + 12 + 3 + 38


def test_camera_start_is_what_a_player_sees() -> None:
    position = Position.from_spn(CAMERA_START)
    assert [len(column.down) for column in position.columns] == [5] * 4 + [4] * 6
    assert [str(column.top) for column in position.columns] == "Ks 9h 2c Qd 7s 7s Ah 3d Tc 2c".split()
    assert not position.is_fully_known
    assert sum(position.unseen().values()) == 94


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        (CAMERA_START.replace("Ks", "KS").replace("Tc", "10c"), CAMERA_START),
        (CAMERA_START.replace("5|Ks", "??????????|Ks").replace(" 50 ", " " + "??" * 50 + " "), CAMERA_START),
        (CAMERA_START.replace("4|2c", "????????|2c"), CAMERA_START),
    ],
)
def test_spn_printer_writes_canonical_cards_and_counts(text: str, printed: str) -> None:
    assert Position.from_spn(text).spn() == printed


def test_printer_writes_counts_for_unknown_cards_and_explicit_cards_otherwise() -> None:
    full = deal_position(3, 2)
    observed = full.observed()
    assert observed.spn() == (
        "/".join(f"{len(c.down)}|{c.top}" for c in full.columns) + " 50 - 2"
    )
    partly = Position(
        (Column((None, Card(1, "s")), (Card(2, "h"),)),) + full.columns[1:],
        (Card(5, "s"),) + (None,) * 49,
        "",
        SuitMode.TWO,
    )
    assert partly.spn().startswith("??As|2h/")
    assert partly.spn().split(" ")[1] == "5s" + "??" * 49


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc 50 - 4",
         "tableau field: expected 10 columns, found 9"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c/| 50 - 4",
         "tableau field: expected 10 columns, found 11"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 4",
         "SPN has four fields separated by single spaces (tableau, stock, removed, suits), found 3"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c  50 - 4", "found 5"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 3",
         "suits field: suit mode '3' is not 1, 2 or 4"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 40 - 4",
         "the tableau, stock and removed fields hold 94 cards, not 104 "
         "(54 on the tableau, 40 in the stock, 0 in removed runs)"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 ss 4",
         "the tableau, stock and removed fields hold 130 cards, not 104 "
         "(54 on the tableau, 50 in the stock, 26 in removed runs)"),
        ("5|Ks/5|Kh/5|2s/5|Qs/4|7s/4|7s/4|As/4|3s/4|Ts/4|2s 50 - 1",
         "tableau field, column b: Kh cannot exist in a 1-suit game, which uses only spades"),
        ("Ks3d??4s5s|Ks/5|9h/5|2s/5|Qs/4|7s/4|7s/4|As/4|3s/4|Ts/4|2s 50 - 2",
         "tableau field, column a: 3d cannot exist in a 2-suit game, which uses only spades and hearts"),
        (DEAL_1_ONE_SUIT.replace(" 8s2sJs", " 8s2sJc"),
         "stock field: Jc cannot exist in a 1-suit game, which uses only spades"),
        ("5|Ks/5|Ks/5|Ks/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4",
         "Ks appears 3 times (tableau field: columns a, b and c); a 4-suit game has 2 copies"),
        ("5|Ks/5|9h/5|2c/5|Qd/|7h/|8h/|Ah/4|3d/4|Tc/|2c 40 ss 4",
         "Ks appears 3 times (tableau field: column a; removed field); a 4-suit game has 2 copies"),
        (DEAL_1_ONE_SUIT.replace("|2s/", "|Js/", 1),
         "Js appears 9 times (tableau field: columns a, c, d and e; stock field); "
         "a 1-suit game has 8 copies"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 49 - 4",
         "stock field: 49 cards is not a multiple of ten"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4".replace("Qd", "Xd"),
         "tableau field, column d: 'Xd' is not a card"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4".replace("5|2c", "5|2c1"),
         "tableau field, column c: cannot read cards in '2c1' from '1'"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4".replace("5|Qd", "5Qd"),
         "tableau field: column d '5Qd' needs exactly one '|'"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4".replace("4|Tc", "5|"),
         "tableau field: column i has face-down cards but no face-up card"),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 5x - 4", "stock field: "),
        ("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 sx 4",
         "removed field: 'sx' must be suits (s, h, d, c) or '-'"),
        ("|/|/|/|/|/|/|/|/|/|Ks - sssssssss 1", "removed field: at most 8 runs, not 9"),
        ("5|Ks/5|9s/5|2s/5|Qs/4|7s/4|7s/4|As/4|3s/4|Ts/1|2s 40 h 1",
         "removed field: a h run cannot exist in a 1-suit game"),
    ],
)
def test_spn_parser_refuses_impossible_positions_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(PositionError) as error:
        Position.from_spn(text)
    assert message in str(error.value)


def test_parser_can_skip_validation() -> None:
    text = CAMERA_START.replace(" 50 ", " 40 ")
    assert Position.from_spn(text, validate=False).spn() == text


def test_position_needs_ten_columns() -> None:
    with pytest.raises(PositionError, match="10 columns, not 9"):
        Position((Column(),) * 9)


def test_observed_hides_face_down_and_stock_cards_only() -> None:
    full = deal_position(42, 4)
    observed = full.observed()
    assert [c.up for c in observed.columns] == [c.up for c in full.columns]
    assert [len(c.down) for c in observed.columns] == [len(c.down) for c in full.columns]
    assert all(card is None for c in observed.columns for card in c.down)
    assert observed.stock == (None,) * 50
    assert full.is_fully_known and not observed.is_fully_known
    assert observed.unseen() + Counter(c.top for c in full.columns) == full.mode.deck()
    assert full.unseen() == Counter()


@pytest.mark.parametrize(("text", "won"), [(ALMOST_WON, False), (WON, True)])
def test_eight_removed_runs_win(text: str, won: bool) -> None:
    assert Position.from_spn(text).is_won is won


@settings(max_examples=150, deadline=None)
@given(positions())
def test_generated_positions_read_back_from_their_spn(position: Position) -> None:
    text = position.spn()
    again = Position.from_spn(text)
    assert again == position
    assert again.spn() == text
    observed = position.observed()
    assert Position.from_spn(observed.spn()) == observed
    assert observed.observed() == observed
    unknown = sum(1 for card in position.all_cards() if card is None)
    assert sum(position.unseen().values()) == unknown
    assert position.unseen() + position.known_cards() == position.mode.deck()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODES), st.integers(0, 2**32 - 1))
def test_deal_positions_read_back_from_their_spn(mode: SuitMode, number: int) -> None:
    position = deal_position(number, mode)
    assert Position.from_spn(position.spn()) == position
