"""Cards and suit modes: notation both ways, validation, the decks of the three modes."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_vision.engine import (
    RANKS,
    SUITS,
    Card,
    NotationError,
    SuitMode,
    card_text,
    parse_card,
    parse_cards,
)

ALL_CARDS = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_prints_rank_then_suit_and_reads_back(card: Card) -> None:
    text = str(card)
    assert text == RANKS[card.rank - 1] + card.suit
    assert parse_card(text) == card
    assert Card.parse(text) == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Ts", 10, "s"), ("10s", 10, "s"), ("10H", 10, "h"), ("TD", 10, "d"), ("Ac", 1, "c"),
        ("AS", 1, "s"), ("KH", 13, "h"), ("2d", 2, "d"), ("9C", 9, "c"), ("Qs", 12, "s"),
        ("Jh", 11, "h"),
    ],
)
def test_parser_accepts_ten_and_upper_case_suits(text: str, rank: int, suit: str) -> None:
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert str(card) == RANKS[rank - 1] + suit


@pytest.mark.parametrize(
    "text",
    ["ts", "as", "kh", "1s", "11s", "0s", "Tx", "T", "s", "", "Ts ", " Ts", "T s", "10", "Tss", "?s",
     "?", "???", "Zs", "1Os", "10ss", "Ts,"],
)
def test_parser_rejects_anything_else_quoting_the_text(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_card(text)
    assert f"'{text}'" in str(error.value)


def test_unknown_card_reads_as_none_and_prints_as_question_marks() -> None:
    assert parse_card("??") is None
    assert card_text(None) == "??"
    assert card_text(Card(12, "d")) == "Qd"


def test_card_parse_refuses_the_unknown_card() -> None:
    with pytest.raises(NotationError, match=r"'\?\?'"):
        Card.parse("??")


@pytest.mark.parametrize(
    ("rank", "suit"),
    [(0, "s"), (14, "s"), (-1, "h"), (1, "x"), (1, "S"), (5, ""), (5, "sh"), (5, "hdc")],
)
def test_impossible_cards_cannot_be_built(rank: int, suit: str) -> None:
    with pytest.raises(NotationError):
        Card(rank, suit)


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("", ()),
        ("Ks9h??2c", (Card(13, "s"), Card(9, "h"), None, Card(2, "c"))),
        ("10sTs10H", (Card(10, "s"), Card(10, "s"), Card(10, "h"))),
        ("????", (None, None)),
        ("AsKD", (Card(1, "s"), Card(13, "d"))),
    ],
)
def test_parse_cards_reads_cards_written_together(text: str, cards: tuple) -> None:
    assert parse_cards(text) == cards


@pytest.mark.parametrize(
    ("text", "quoted"), [("Ks9x", "'9x'"), ("Ks?", "'?'"), ("Ks1", "'1'"), ("KsXs", "'Xs'")]
)
def test_parse_cards_quotes_what_it_cannot_read(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_cards(text)
    assert quoted in str(error.value)


@given(st.lists(st.one_of(st.none(), st.sampled_from(ALL_CARDS)), max_size=30))
def test_cards_written_together_read_back(cards: list) -> None:
    text = "".join(card_text(card) for card in cards)
    assert parse_cards(text) == tuple(cards)


@pytest.mark.parametrize(
    ("mode", "suits", "copies"), [(SuitMode.ONE, "s", 8), (SuitMode.TWO, "sh", 4), (SuitMode.FOUR, "shdc", 2)]
)
def test_each_mode_has_104_cards_in_its_suits(mode: SuitMode, suits: str, copies: int) -> None:
    assert mode.suits == suits
    assert mode.copies == copies
    deck = mode.deck()
    assert sum(deck.values()) == 104
    assert deck == Counter({Card(rank, suit): copies for suit in suits for rank in range(1, 14)})


@pytest.mark.parametrize(
    ("text", "mode"),
    [("1", SuitMode.ONE), ("2", SuitMode.TWO), ("4", SuitMode.FOUR), (4, SuitMode.FOUR)],
)
def test_suit_mode_parses(text: object, mode: SuitMode) -> None:
    assert SuitMode.parse(text) is mode


@pytest.mark.parametrize("text", ["3", "0", "8", "four", "", "1.0"])
def test_suit_mode_rejects_other_text_quoting_it(text: str) -> None:
    with pytest.raises(NotationError, match=f"'{text}'"):
        SuitMode.parse(text)


def test_card_knows_its_suit_name() -> None:
    assert [Card(1, suit).suit_name for suit in SUITS] == ["spades", "hearts", "diamonds", "clubs"]
