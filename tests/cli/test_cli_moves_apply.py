"""``moves`` and ``apply`` on hand-made and random positions."""

from __future__ import annotations

import pytest

from spider_vision.engine import (
    IllegalMoveError,
    Position,
    SuitMode,
    Variant,
    apply_move,
    check_move,
    legal_moves,
    parse_move,
)
from spider_vision.gamelog import MoveEvent, replay_events
from spider_vision.gamelog.sample import random_game, sample_game

# 1 suit: Qs can go on Ks, the run JsTs on either Qs, 9s on Ts, As on 2s, 2s on 3s.
HAND = "5|Ks/5|Qs/4|JsTs/5|9s/4|As/4|2s/4|3s/4|5s/4|7s/4|Qs 50 - 1"
# 1 suit, "ba" completes a King-to-Ace run in column a.
RUN = "3|KsQsJsTs9s8s7s6s5s4s3s2s/1|As/4|Ks/4|Ks/4|Ks/4|Ks/4|Ks/4|Js/4|Js/5|Qs 20 ss 1"
# Every column empty but two, so every card may go anywhere empty; no stock.
OPEN = "/".join(["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"] + ["|"] * 8) + " - sssssss 1"
# On the open board: column a's run, any length, to any empty column; As on 2s or anywhere empty.
OPEN_MOVES = (
    [f"a{target}{count if count > 1 else ''}" for target in "cdefghij" for count in range(1, 13)]
    + ["ba"] + [f"b{target}" for target in "cdefghij"]
)


@pytest.mark.parametrize(
    ("spn", "options", "expected"),
    [
        (HAND, [], ["ba", "cb2", "cj2", "dc", "ef", "fg", "ja", "deal"]),
        (RUN, [], ["ac11", "ad11", "ae11", "af11", "ag11", "ah9", "ai9", "aj10", "ba", "hj", "ij",
                   "jc", "jd", "je", "jf", "jg", "deal"]),
        (OPEN, [], OPEN_MOVES),
    ],
)
def test_moves_of_hand_made_positions(cli, spn, options, expected) -> None:
    outcome = cli("moves", spn, *options)
    assert outcome.code == 0 and outcome.err == ""
    assert outcome.out.splitlines() == expected


def test_moves_with_manual_removal(cli) -> None:
    built = apply_move(Position.from_spn(RUN), parse_move("ba")[0], Variant(manual_removal=True))
    standard = cli("moves", built.after.spn()).out.splitlines()
    manual = cli("moves", built.after.spn(), "--manual-removal").out.splitlines()
    assert "xa" in manual and "xa" not in standard


def test_moves_of_a_position_without_moves_prints_nothing(cli) -> None:
    """Kings, Jacks, 9s, 7s and 5s on top, and the deal puts the same ranks on them."""
    spn = "4|Ks/4|Ks/3|Js/3|Js/3|9s/3|9s/3|7s/3|7s/3|5s/3|5s KsKsJsJs9s9s7s7s5s5s ssss 1"
    after = cli("apply", spn, "deal")
    assert after.code == 0
    outcome = cli("moves", after.out.strip())
    assert outcome.code == 0 and outcome.out == ""


def _positions():
    for deal, mode in [(1, SuitMode.ONE), (2, SuitMode.TWO), (3, SuitMode.FOUR)]:
        game = random_game(deal, mode, seed=deal, moves=40, illegal_rate=0.1,
                           observed=deal == 3)
        for event in game.events[::7]:
            if isinstance(event, MoveEvent):
                yield event.after


@pytest.mark.parametrize("spn", list(_positions()))
def test_moves_of_random_positions_match_the_engine(cli, spn: str) -> None:
    position = Position.from_spn(spn)
    outcome = cli("moves", spn)
    assert outcome.out.splitlines() == [str(m) for m in legal_moves(position)]
    for text in outcome.out.splitlines():
        check_move(position, parse_move(text)[0])


@pytest.mark.parametrize(
    ("spn", "moves", "expected"),
    [
        (HAND, ["ba"], "5|KsQs/4|??/4|JsTs/5|9s/4|As/4|2s/4|3s/4|5s/4|7s/4|Qs 50 - 1"),
        (HAND, ["cb"], "5|Ks/5|QsJsTs/3|??/5|9s/4|As/4|2s/4|3s/4|5s/4|7s/4|Qs 50 - 1"),
        (HAND, ["cb2"], "5|Ks/5|QsJsTs/3|??/5|9s/4|As/4|2s/4|3s/4|5s/4|7s/4|Qs 50 - 1"),
        (HAND, ["ef", "fg2"], "5|Ks/5|Qs/4|JsTs/5|9s/3|??/3|??/4|3s2sAs/4|5s/4|7s/4|Qs 50 - 1"),
        (HAND, ["deal"], "5|Ks??/5|Qs??/4|JsTs??/5|9s??/4|As??/4|2s??/4|3s??/4|5s??/4|7s??/"
                         "4|Qs?? 40 - 1"),
        (RUN, ["ba"], "2|??/|??/4|Ks/4|Ks/4|Ks/4|Ks/4|Ks/4|Js/4|Js/5|Qs 20 sss 1"),
        (OPEN, ["ba"], "|/|/|/|/|/|/|/|/|/| - ssssssss 1"),
    ],
)
def test_apply_hand_made_moves(cli, spn, moves, expected) -> None:
    outcome = cli("apply", spn, *moves)
    assert (outcome.code, outcome.err) == (0, "")
    assert outcome.out == expected + "\n"


@pytest.mark.parametrize(("deal", "mode"), [(10, SuitMode.ONE), (11, SuitMode.TWO), (12, SuitMode.FOUR)])
def test_apply_random_legal_games(cli, deal, mode) -> None:
    game = random_game(deal, mode, seed=deal, moves=30)
    moves = [str(e.move) for e in game.events if isinstance(e, MoveEvent)]
    outcome = cli("apply", game.header.start.spn(), *moves)
    assert outcome.code == 0
    final = replay_events(game.header, list(game.events)).position
    assert outcome.out.strip() == final.spn()


SAMPLE = sample_game()
_REPLAY = replay_events(SAMPLE.header, list(SAMPLE.events))
MIXED = next(i for i, e in enumerate(_REPLAY.entries) if "is not one suit" in e.flag)
MIXED_MOVE = str(_REPLAY.entries[MIXED].event.move)  # type: ignore[union-attr]
BEFORE_MIXED = _REPLAY.entries[MIXED - 1].position.spn()


@pytest.mark.parametrize(
    ("spn", "moves", "bad"),
    [
        (HAND, ["ab"], "ab"),
        (HAND, ["ba", "ab"], "ab"),
        (HAND, ["ba", "bc"], "bc"),
        (HAND, ["aa"], "aa"),
        (HAND, ["ab5"], "ab5"),
        (BEFORE_MIXED, [MIXED_MOVE], MIXED_MOVE),
        (BEFORE_MIXED, [MIXED_MOVE[:2]], MIXED_MOVE),  # count left out
        ("5|Ks/5|Qs/4|JsTs/5|9s/4|As/4|2s/4|3s/4|5s/4|7s/4|Qs 50 - 1", ["ef", "ed"], "ed"),
        (OPEN, ["ab"], "ab"),
        (OPEN, ["ba", "deal"], "deal"),
    ],
)
def test_apply_illegal_move_exits_1_with_its_reason(cli, spn, moves, bad) -> None:
    position = Position.from_spn(spn)
    number = len(moves)
    for text in moves[:-1]:
        position = apply_move(position, parse_move(text)[0]).after
    with pytest.raises(IllegalMoveError) as refused:
        check_move(position, parse_move(bad)[0])
    outcome = cli("apply", spn, *moves)
    assert outcome.code == 1 and outcome.out == ""
    assert outcome.err == f"spider-vision: move {number} ({bad}): {refused.value}\n"


def test_the_mixed_suit_refusal_names_the_group(cli) -> None:
    outcome = cli("apply", BEFORE_MIXED, MIXED_MOVE)
    assert "illegal group move: 3s-2h is not one suit; only 2h can move" in outcome.err
