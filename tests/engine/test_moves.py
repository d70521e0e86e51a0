"""Move notation: ``ed``, ``ed3``, ``deal``, ``xd``; columns a..j."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_vision.engine import (
    Deal,
    NotationError,
    Removal,
    TableauMove,
    column_index,
    column_letter,
    parse_move,
)


@pytest.mark.parametrize(
    ("text", "move", "count_missing"),
    [
        ("ed", TableauMove(4, 3, 1), True),
        ("ed1", TableauMove(4, 3, 1), False),
        ("ed3", TableauMove(4, 3, 3), False),
        ("aj12", TableauMove(0, 9, 12), False),
        ("ja", TableauMove(9, 0, 1), True),
        ("deal", Deal(), False),
        ("DEAL", Deal(), False),
        (" deal ", Deal(), False),
        ("xd", Removal(3), False),
        ("xa", Removal(0), False),
    ],
)
def test_parse_move(text: str, move: object, count_missing: bool) -> None:
    assert parse_move(text) == (move, count_missing)


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (TableauMove(4, 3), "ed"), (TableauMove(4, 3, 1), "ed"), (TableauMove(4, 3, 3), "ed3"),
        (TableauMove(0, 9, 12), "aj12"), (Deal(), "deal"), (Removal(3), "xd"),
    ],
)
def test_move_prints_as_the_spec_writes_it(move: object, text: str) -> None:
    assert str(move) == text


@pytest.mark.parametrize(
    "text", ["", "e", "ek", "kd", "ed0", "ed100", "ed-1", "e d", "ed 3", "xk", "x", "dea", "deals", "EDx"]
)
def test_parse_move_rejects_other_text_quoting_it(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_move(text)
    assert f"'{text}'" in str(error.value)


@given(st.integers(0, 9), st.integers(0, 9), st.integers(1, 99))
def test_tableau_moves_read_back(source: int, target: int, count: int) -> None:
    move = TableauMove(source, target, count)
    assert parse_move(str(move)) == (move, count == 1)


@pytest.mark.parametrize(
    ("source", "target", "count"), [(-1, 0, 1), (0, 10, 1), (10, 0, 1), (0, 1, 0), (0, 1, -2)]
)
def test_impossible_tableau_moves_cannot_be_built(source: int, target: int, count: int) -> None:
    with pytest.raises(NotationError):
        TableauMove(source, target, count)


@pytest.mark.parametrize(
    ("count", "message"),
    [(0, "a move takes at least one card, not 0"), (105, "a move takes at most 104 cards, not 105")],
)
def test_a_count_outside_the_deck_is_refused_saying_why(count: int, message: str) -> None:
    with pytest.raises(NotationError) as error:
        TableauMove(0, 1, count)
    assert str(error.value) == message


def test_a_move_may_take_every_card_of_the_game() -> None:
    assert str(TableauMove(0, 1, 104)) == "ab104"


def test_columns_are_letters_a_to_j() -> None:
    assert [column_letter(i) for i in range(10)] == list("abcdefghij")
    assert [column_index(letter) for letter in "abcdefghij"] == list(range(10))


@pytest.mark.parametrize("letter", ["k", "A", "", "ab", "1"])
def test_column_index_rejects_other_letters_quoting_them(letter: str) -> None:
    with pytest.raises(NotationError, match=f"'{letter}'"):
        column_index(letter)
