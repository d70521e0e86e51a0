"""The rules: every legal and illegal case with its reason, flips, removals, wins, variants, reveals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_vision.engine import (
    STANDARD,
    BlockedDealError,
    Card,
    Deal,
    EmptySourceError,
    EmptyStockError,
    FaceDownCardsError,
    Flip,
    IllegalMoveError,
    MixedSuitGroupError,
    NotARunError,
    NothingToRemoveError,
    OntoAceError,
    Position,
    PositionError,
    Removal,
    Removed,
    SameColumnError,
    TableauMove,
    UnknownCardError,
    Variant,
    WrongRankError,
    apply_move,
    check_move,
    is_legal,
    legal_moves,
    legal_steps,
    parse_card,
    parse_move,
    resolve_move,
    reveal,
)

from .strategies import VARIANTS, candidate_moves, deals, play_randomly, positions

# a: a mixed-suit group, b: a ten, c: empty, d: a broken run, f: an Ace, g: a card not read yet,
# h: one card and nothing under it.
MIXED = "3|9s8h7h/3|Ts/|/3|9d7d/22|Kh/3|As/2|??/|6c/3|8d/3|9c 50 - 4"
EMPTY_STOCK = "71|Ks/3|Qh/|/3|Jd/3|Tc/3|9s/3|8h/3|7d/3|6c/3|5s - - 4"
TWO_EMPTY = "25|Ks/3|Qh/|/3|Jd/3|Tc/|/3|8h/3|7d/3|6c/3|5s 50 - 4"
THREE_EMPTY = "29|Ks/3|Qh/|/3|Jd/3|Tc/|/3|8h/|/3|6c/3|5s 50 - 4"
NINE_CARDS_LEFT = "|Ks/|Qs/|Js/|Ts/|9s/|8s/|7s/|6s/|5s/| 30 sssss 1"
NINETEEN_CARDS_LEFT = "10|Ks/|Qs/|Js/|Ts/|9s/|8s/|7s/|6s/|5s/| 20 sssss 1"
KNOWN_DOWN = "4sKd|7h/3|8c/3|Qd/3|Jd/3|Tc/18|9s/3|8h/3|7d/3|6c/3|5s 50 - 4"
HEARTS_RUN = "3|KhQhJhTh9h8h7h6h5h4h3h2h/2|Ah/3|5s/3|Jd/17|Tc/3|9s/3|8h/3|7d/3|6c/3|5s 40 - 4"
TWO_RUNS_BY_DEAL = (
    "2|KhQhJhTh9h8h7h6h5h4h3h2h/3|5s/|KsQsJsTs9s8s7s6s5s4s3s2s/3|Jd/39|Tc/3|9s/3|8h/3|7d/3|6c/3|5c"
    " Ah2dAs3d4d5d6d7d8d9d - 4"
)
ALMOST_WON = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"
MANUAL = Variant(manual_removal=True)
EMPTY_DEALS = Variant(deal_with_empty_columns=True)

ILLEGAL = [
    # (position, move, variant, error class, message)
    (MIXED, "ab3", STANDARD, MixedSuitGroupError,
     "illegal group move: 9s-8h-7h is not one suit; only 8h-7h can move together"),
    (MIXED, "ac3", STANDARD, MixedSuitGroupError,
     "illegal group move: 9s-8h-7h is not one suit; only 8h-7h can move together"),
    (MIXED, "da2", STANDARD, NotARunError,
     "illegal group move: 9d-7d does not step down one rank at a time; only 7d can move"),
    (MIXED, "ab2", STANDARD, WrongRankError,
     "wrong rank: 8h cannot go on Ts; only a 9 goes on a T"),
    (MIXED, "eb", STANDARD, WrongRankError, "wrong rank: Kh cannot go on Ts; only a 9 goes on a T"),
    (MIXED, "af", STANDARD, OntoAceError,
     "7h cannot go on As in column f: nothing may be put on an Ace"),
    (MIXED, "aa", STANDARD, SameColumnError,
     "a move needs two different columns: a to a goes nowhere"),
    (MIXED, "cb", STANDARD, EmptySourceError, "column c is empty; there is nothing to move"),
    (MIXED, "ab4", STANDARD, FaceDownCardsError,
     "column a has only 3 face-up cards; face-down cards cannot move"),
    (MIXED, "bc2", STANDARD, FaceDownCardsError,
     "column b has only 1 face-up card; face-down cards cannot move"),
    (MIXED, "hc2", STANDARD, FaceDownCardsError, "column h has only 1 card"),
    (MIXED, "gc", STANDARD, UnknownCardError,
     "column g holds a card not read yet (??); it must be read before it can move"),
    (MIXED, "ag", STANDARD, UnknownCardError,
     "the last card of column g is not read yet (??); it must be read before a card goes on it"),
    (MIXED, "deal", STANDARD, BlockedDealError,
     "blocked deal: column c is empty; fill every column before dealing"),
    (MIXED, "deal", EMPTY_DEALS, BlockedDealError,
     "blocked deal: column c is empty; fill every column before dealing"),
    (MIXED, "xa", STANDARD, IllegalMoveError,
     "completed runs are removed automatically in these rules; there is nothing to take off"),
    (MIXED, "xa", MANUAL, NothingToRemoveError,
     "column a does not end with a King-to-Ace run of one suit"),
    (HEARTS_RUN, "xa", MANUAL, NothingToRemoveError,
     "column a does not end with a King-to-Ace run of one suit"),
    (EMPTY_STOCK, "deal", STANDARD, EmptyStockError,
     "the stock is empty; there is nothing left to deal"),
    (TWO_EMPTY, "deal", STANDARD, BlockedDealError,
     "blocked deal: columns c and f are empty; fill every column before dealing"),
    (THREE_EMPTY, "deal", STANDARD, BlockedDealError,
     "blocked deal: columns c, f and h are empty; fill every column before dealing"),
    (NINE_CARDS_LEFT, "deal", STANDARD, BlockedDealError,
     "blocked deal: column j is empty; fill every column before dealing"),
    (NINETEEN_CARDS_LEFT, "deal", EMPTY_DEALS, BlockedDealError,
     "blocked deal: column j is empty; fill every column before dealing"),
    (MIXED, "aj", STANDARD, WrongRankError, "wrong rank: 7h cannot go on 9c; only an 8 goes on a 9"),
    (EMPTY_STOCK, "jg", STANDARD, WrongRankError,
     "wrong rank: 5s cannot go on 8h; only a 7 goes on an 8"),
    (TWO_RUNS_BY_DEAL, "ba", STANDARD, WrongRankError,
     "wrong rank: 5s cannot go on 2h; only an A goes on a 2"),
    (KNOWN_DOWN, "ae", STANDARD, WrongRankError, "wrong rank: 7h cannot go on Tc; only a 9 goes on a T"),
]


@pytest.mark.parametrize(("spn", "text", "variant", "error", "message"), ILLEGAL)
def test_illegal_moves_are_refused_with_their_reason(
    spn: str, text: str, variant: Variant, error: type, message: str
) -> None:
    position = Position.from_spn(spn)
    move, _ = parse_move(text)
    with pytest.raises(error) as raised:
        check_move(position, move, variant)
    assert str(raised.value) == message
    assert type(raised.value) is error
    assert not is_legal(position, move, variant)
    assert move not in legal_moves(position, variant)
    with pytest.raises(error):
        apply_move(position, move, variant)


LEGAL = [
    # (position, move, variant, position after)
    (MIXED, "aj2", STANDARD, "3|9s/3|Ts/|/3|9d7d/22|Kh/3|As/2|??/|6c/3|8d/3|9c8h7h 50 - 4"),
    (MIXED, "ac2", STANDARD, "3|9s/3|Ts/|8h7h/3|9d7d/22|Kh/3|As/2|??/|6c/3|8d/3|9c 50 - 4"),
    (MIXED, "ai", STANDARD, "3|9s8h/3|Ts/|/3|9d7d/22|Kh/3|As/2|??/|6c/3|8d7h/3|9c 50 - 4"),
    (MIXED, "hc", STANDARD, "3|9s8h7h/3|Ts/|6c/3|9d7d/22|Kh/3|As/2|??/|/3|8d/3|9c 50 - 4"),
    (MIXED, "ec", STANDARD, "3|9s8h7h/3|Ts/|Kh/3|9d7d/21|??/3|As/2|??/|6c/3|8d/3|9c 50 - 4"),
    (NINE_CARDS_LEFT, "deal", EMPTY_DEALS,
     "|Ks??/|Qs??/|Js??/|Ts??/|9s??/|8s??/|7s??/|6s??/|5s??/|?? 20 sssss 1"),
    (KNOWN_DOWN, "ag", STANDARD, "4s|Kd/3|8c/3|Qd/3|Jd/3|Tc/18|9s/3|8h7h/3|7d/3|6c/3|5s 50 - 4"),
]


@pytest.mark.parametrize(("spn", "text", "variant", "after"), LEGAL)
def test_legal_moves_are_carried_out(spn: str, text: str, variant: Variant, after: str | None) -> None:
    position = Position.from_spn(spn)
    move, _ = parse_move(text)
    check_move(position, move, variant)
    assert is_legal(position, move, variant)
    assert move in legal_moves(position, variant)
    step = apply_move(position, move, variant)
    assert step.legal and step.reason == "" and step.before == position and step.move == move
    if after is not None:
        assert step.after.spn() == after
    step.after.validate()


def test_legal_moves_of_a_hand_built_position_are_exactly_these() -> None:
    moves = [str(move) for move in legal_moves(Position.from_spn(MIXED))]
    assert moves == [
        "ac", "ac2", "ai", "aj2", "bc", "dc", "di", "ec", "fc", "ha", "hc", "hd", "ic", "ij", "jb", "jc",
    ]


def test_a_move_that_turns_a_known_face_down_card_over_flips_it() -> None:
    step = apply_move(Position.from_spn(KNOWN_DOWN), TableauMove(0, 6))
    assert step.flips == (Flip(0, Card(13, "d")),)
    assert step.after.columns[0].down == (Card(4, "s"),)
    assert step.after.columns[0].up == (Card(13, "d"),)
    assert step.removals == ()


def test_a_move_that_turns_an_unknown_card_over_leaves_it_to_be_read() -> None:
    step = apply_move(Position.from_spn(MIXED), TableauMove(4, 2))
    assert step.flips == (Flip(4, None),)
    assert step.after.columns[4].up == (None,)
    read = reveal(step.after, 4, Card(3, "c"))
    assert read.after.columns[4].up == (Card(3, "c"),)
    assert read.move == Flip(4, Card(3, "c"))
    assert read.after.spn() == "3|9s8h7h/3|Ts/|Kh/3|9d7d/21|3c/3|As/2|??/|6c/3|8d/3|9c 50 - 4"


def test_completing_a_run_removes_it_and_turns_over_both_columns() -> None:
    step = apply_move(Position.from_spn(HEARTS_RUN), TableauMove(1, 0))
    assert step.removals == (Removed(0, "h"),)
    assert step.flips == (Flip(0, None), Flip(1, None))
    assert step.after.spn() == "2|??/1|??/3|5s/3|Jd/17|Tc/3|9s/3|8h/3|7d/3|6c/3|5s 40 h 4"
    assert step.after.removed == "h"


def test_manual_removal_keeps_the_run_until_the_player_takes_it() -> None:
    position = Position.from_spn(HEARTS_RUN)
    step = apply_move(position, TableauMove(1, 0), MANUAL)
    assert step.removals == () and step.flips == (Flip(1, None),)
    assert step.after.removed == ""
    assert step.after.columns[0].completed_suit() == "h"
    assert Removal(0) in legal_moves(step.after, MANUAL)
    assert Removal(0) not in legal_moves(step.after, STANDARD)
    removal = apply_move(step.after, Removal(0), MANUAL)
    assert removal.removals == (Removed(0, "h"),)
    assert removal.flips == (Flip(0, None),)
    assert removal.after.spn() == "2|??/1|??/3|5s/3|Jd/17|Tc/3|9s/3|8h/3|7d/3|6c/3|5s 40 h 4"


def test_one_deal_can_complete_several_runs_removed_in_column_order() -> None:
    step = apply_move(Position.from_spn(TWO_RUNS_BY_DEAL), Deal())
    assert step.removals == (Removed(0, "h"), Removed(2, "s"))
    assert step.after.removed == "hs"
    assert step.flips == (Flip(0, None),)
    assert step.after.spn() == (
        "1|??/3|5s2d/|/3|Jd3d/39|Tc4d/3|9s5d/3|8h6d/3|7d7d/3|6c8d/3|5c9d - hs 4"
    )


def test_completing_the_eighth_run_wins() -> None:
    position = Position.from_spn(ALMOST_WON)
    assert not position.is_won
    step = apply_move(position, TableauMove(1, 0))
    assert step.after.is_won
    assert step.after.removed == "s" * 8
    assert step.after.spn() == "|/|/|/|/|/|/|/|/|/| - ssssssss 1"
    assert legal_moves(step.after) == []


def test_the_empty_column_deal_variant_allows_a_deal_only_below_ten_cards() -> None:
    nine = Position.from_spn(NINE_CARDS_LEFT)
    assert Deal() in legal_moves(nine, EMPTY_DEALS)
    assert Deal() not in legal_moves(nine, STANDARD)
    nineteen = Position.from_spn(NINETEEN_CARDS_LEFT)
    assert Deal() not in legal_moves(nineteen, EMPTY_DEALS)


def test_a_deal_from_an_unknown_stock_gives_unread_cards() -> None:
    position = Position.from_spn("5|Ks/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4")
    step = apply_move(position, Deal())
    assert step.after.spn() == (
        "5|Ks??/5|9h??/5|2c??/5|Qd??/4|7s??/4|7s??/4|Ah??/4|3d??/4|Tc??/4|2c?? 40 - 4"
    )
    assert [move for move in legal_moves(step.after) if isinstance(move, TableauMove)] == []
    read = reveal(step.after, 3, Card(4, "h"))
    assert read.after.columns[3].up == (Card(12, "d"), Card(4, "h"))
    assert read.flips == () and read.removals == ()


def test_reveal_fills_the_lowest_unread_card_first() -> None:
    position = Position.from_spn("5|??/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4")
    dealt = apply_move(position, Deal()).after
    assert dealt.columns[0].up == (None, None)
    first = reveal(dealt, 0, Card(8, "c")).after
    assert first.columns[0].up == (Card(8, "c"), None)
    second = reveal(first, 0, Card(7, "d")).after
    assert second.columns[0].up == (Card(8, "c"), Card(7, "d"))
    with pytest.raises(UnknownCardError, match="column a has no unread face-up card to reveal"):
        reveal(second, 0, Card(6, "d"))


@pytest.mark.parametrize(
    ("spn", "card", "message"),
    [
        ("5|Ks/5|9s/5|2s/5|Qs/4|7s/4|7s/4|As/4|3s/4|Ts/4|2s 50 - 1", "Kh",
         "Kh cannot exist in a 1-suit game, which uses only spades"),
        ("5|Qd/5|9h/5|2c/5|Qd/4|7s/4|7s/4|Ah/4|3d/4|Tc/4|2c 50 - 4", "Qd",
         "a 4-suit game has 2 copies of Qd and all are known already"),
        ("2|Ks/4|9d/4|2c/4|Qd/4|7s/4|7s/4|Ac/4|3d/4|Tc/4|2c 30 hh 4", "5h",
         "a 4-suit game has 2 copies of 5h and all are known already"),
    ],
)
def test_reading_a_card_that_cannot_be_there_is_refused(spn: str, card: str, message: str) -> None:
    dealt = apply_move(Position.from_spn(spn), Deal()).after
    with pytest.raises(PositionError) as error:
        reveal(dealt, 0, parse_card(card))
    assert str(error.value) == message


def test_reading_the_card_that_completes_a_run_removes_it() -> None:
    position = Position.from_spn(HEARTS_RUN.replace("2|Ah", "2|Qs")).observed()
    dealt = apply_move(position, Deal()).after
    read = reveal(dealt, 0, Card(1, "h"))
    assert read.removals == (Removed(0, "h"),)
    assert read.flips == (Flip(0, None),)
    assert read.after.removed == "h"
    assert read.after.columns[0].up == (None,)


FORCED = [
    # (position, move, reason)
    (MIXED, "ab3", "illegal group move: 9s-8h-7h is not one suit; only 8h-7h can move together"),
    (MIXED, "af", "7h cannot go on As in column f: nothing may be put on an Ace"),
    (MIXED, "deal", "blocked deal: column c is empty; fill every column before dealing"),
    (MIXED, "gc", "column g holds a card not read yet (??); it must be read before it can move"),
]


@pytest.mark.parametrize(("spn", "text", "reason"), FORCED)
def test_forced_moves_are_carried_out_and_keep_their_reason(spn: str, text: str, reason: str) -> None:
    position = Position.from_spn(spn)
    move, _ = parse_move(text)
    step = apply_move(position, move, force=True)
    assert not step.legal
    assert step.reason == reason
    step.after.validate()
    assert step.after.tableau_size() + len(step.after.stock) == position.tableau_size() + len(position.stock)


@pytest.mark.parametrize(
    ("spn", "text"),
    [(MIXED, "aa"), (MIXED, "cb"), (MIXED, "ab4"), (EMPTY_STOCK, "deal"), (MIXED, "xa")],
)
def test_moves_that_cannot_be_made_even_physically_raise_when_forced(spn: str, text: str) -> None:
    with pytest.raises(IllegalMoveError):
        apply_move(Position.from_spn(spn), parse_move(text)[0], force=True)


RESOLVED = [
    # (position, text, resolved move): a count left out is filled in from the position
    (MIXED, "aj", "aj2"),  # only two cards can go on the nine
    (MIXED, "ai", "ai"),  # one card can
    (MIXED, "ac", "ac"),  # an empty column takes any count; without one, one card
    (MIXED, "ab", "ab3"),  # none can: the nine is chosen, so the refusal names the mixed suits
    (MIXED, "ab2", "ab2"),  # a written count stays
    (MIXED, "ag", "ag"),  # the target is not read: one card
    (MIXED, "ca", "ca"),  # nothing to move
    (MIXED, "da", "da"),  # no count puts the right rank there
    (MIXED, "deal", "deal"),
    (HEARTS_RUN, "ba", "ba"),
    (HEARTS_RUN.replace("3|5s", "3|Ks"), "ac", "ac11"),
]


@pytest.mark.parametrize(("spn", "text", "resolved"), RESOLVED)
def test_resolve_move_fills_in_a_missing_count(spn: str, text: str, resolved: str) -> None:
    assert str(resolve_move(Position.from_spn(spn), text)) == resolved


def test_resolved_move_without_legal_count_explains_the_real_problem() -> None:
    position = Position.from_spn(MIXED)
    with pytest.raises(MixedSuitGroupError, match="only 8h-7h can move together"):
        check_move(position, resolve_move(position, "ab"))


# --- properties over random play ---------------------------------------------


@settings(max_examples=40, deadline=None)
@given(deals(), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_legal_moves_are_exactly_the_moves_check_move_accepts(
    position: Position, variant: Variant, seed: int
) -> None:
    rng = random.Random(seed)
    for step in play_randomly(position, variant, rng, 40):
        here = step.after
        legal = legal_moves(here, variant)
        assert len(set(legal)) == len(legal)
        assert legal == sorted(legal, key=_listing_order)
        candidates = candidate_moves(here)
        accepted = [move for move in candidates if is_legal(here, move, variant)]
        assert set(accepted) == set(legal)
        for move in legal:
            check_move(here, move, variant)
        assert legal_steps(here, variant) == [apply_move(here, move, variant) for move in legal]
        for move in rng.sample(candidates, 20):
            if move not in legal:
                with pytest.raises(IllegalMoveError) as error:
                    check_move(here, move, variant)
                assert str(error.value)


@settings(max_examples=150, deadline=None)
@given(positions(), st.sampled_from(VARIANTS))
def test_any_position_even_with_unread_cards_lists_what_check_move_accepts(
    position: Position, variant: Variant
) -> None:
    legal = legal_moves(position, variant)
    assert set(legal) == {move for move in candidate_moves(position) if is_legal(position, move, variant)}
    for step in legal_steps(position, variant):
        assert step.after.tableau_size() + len(step.after.stock) + 13 * len(step.after.removed) == 104
        step.after.validate()


def _listing_order(move: object) -> tuple[int, int, int, int]:
    """The order legal_moves promises: tableau moves by source, target, count; removals; the deal."""
    if isinstance(move, TableauMove):
        return (0, move.source, move.target, move.count)
    if isinstance(move, Removal):
        return (1, move.column, 0, 0)
    return (2, 0, 0, 0)


@settings(max_examples=40, deadline=None)
@given(deals(), st.integers(0, 2**32 - 1))
def test_observed_positions_have_the_same_legal_moves(position: Position, seed: int) -> None:
    for step in play_randomly(position, STANDARD, random.Random(seed), 60):
        full = step.after
        assert legal_moves(full.observed()) == legal_moves(full)


@settings(max_examples=40, deadline=None)
@given(deals(), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_a_camera_game_follows_the_full_game_by_reading_each_card(
    position: Position, variant: Variant, seed: int
) -> None:
    """The same moves played on what a player sees, each card read once it shows (the dealt
    card, then the card turned over), give what the player sees of the full game."""
    seen = position.observed()
    for step in play_randomly(position, variant, random.Random(seed), 60):
        seen = apply_move(seen, step.move, variant).after
        reads = {column: [] for column in range(10)}
        if isinstance(step.move, Deal):
            for column, card in enumerate(step.before.stock[:10]):
                reads[column].append(card)
        for flip in step.flips:
            reads[flip.column].append(flip.card)
        for column, cards in reads.items():
            for card in cards:
                assert seen.columns[column].up[-1] is None
                seen = reveal(seen, column, card, variant).after
        assert seen == step.after.observed()
