"""The hint engine: legal, blind to hidden cards, and sensible at the ends of a game."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from spider_vision.engine import Deal, Game, Position, apply_move, deal_position, legal_moves
from spider_vision.hint import (
    HintLimits,
    HintLimitsError,
    HintSession,
    Knowledge,
    advisor,
    determinise,
    game_progress,
    hint,
)
from spider_vision.hint.tactics import tactical_score
from spider_vision.solver import SolveLimits, SolveResult, native_available

FAST = HintLimits(movetime=math.inf, samples=3, nodes_per_move=10000, seed=11)
CHANCE_PLAN = replace(FAST, nodes_per_move=20000, plan_iterations=100)
"""The plan under chance, with room left for the worlds."""


def planned(start: Position, limits: HintLimits = FAST) -> str | None:
    """The first move of the advisor's plan from ``start``, any move but the deal allowed."""
    allowed = {str(move) for move in legal_moves(start) if not isinstance(move, Deal)}
    return advisor.plan_move(Knowledge.of(start), limits, allowed)[0]

LOST = "2c2d|Ac/4c4d|Ad/6c6d|3c/8c8d|3d/TcTd|5c/JcJd|5d/QcQd|7c/KcKd|7d/|9c/|9d - sshhcd 4"
ONE_FROM_WIN = (
    "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|/|/|/|/|/|/|/| - sssssss 1"
)


@pytest.mark.parametrize("limits", [FAST, CHANCE_PLAN], ids=["known cards", "under chance"])
@pytest.mark.parametrize("mode", [1, 2, 4])
@pytest.mark.parametrize("deal", [3, 8])
def test_hidden_cards_do_not_change_the_hint(
    deal: int, mode: int, limits: HintLimits, reshuffled: Callable[[Position, int], Position]
) -> None:
    real = deal_position(deal, mode)
    other = reshuffled(real, deal)
    assert other != real and other.observed() == real.observed()
    first, second = hint(real, limits=limits), hint(other, limits=limits)
    assert (first.move, first.reason, first.win_estimate, first.votes) == (
        second.move,
        second.reason,
        second.win_estimate,
        second.votes,
    )


@pytest.mark.parametrize("mode", [1, 4])
def test_every_hint_along_a_game_is_legal(mode: int) -> None:
    game = Game(deal_position(21, mode))
    session = HintSession(FAST)
    for _ in range(25):
        observed = game.position.observed()
        advice = session.hint(observed)
        assert advice.move in legal_moves(observed)
        assert advice.reason
        game.play(advice.move)


def test_a_lost_game_is_called_lost() -> None:
    advice = hint(Position.from_spn(LOST), limits=FAST)
    assert advice.move is None and advice.lost
    assert advice.reason == "no legal move and no stock: the game is lost"
    assert advice.win_estimate == 0.0


def test_the_winning_move_is_found() -> None:
    advice = hint(Position.from_spn(ONE_FROM_WIN), limits=FAST)
    assert str(advice.move) == "ba"
    assert advice.reason == "completes the King-to-Ace run of spades"
    assert advice.win_estimate == 1.0


@pytest.mark.parametrize("spn", [
    "6|??/6|??/6|??/6|??/6|??/6|??/6|??/6|??/10|??/10|?? - ss 1",
    # one card unread among legal moves (a picture of a 4-suit table)
    "3|AdQcKdQd/5|4c3s8c8s7dKcQdJh/5|5d2hAh4c3h6h9h8d7d6d/5|??3sQhTsTc9h8h7h/|KsQsJsTs/4|3dJcTh3cKh2sAs/"
    "4|5c7sKcQhTh8s/4|2sAcJsTd6s5s4s/4|5h2dAd8h6h4d3d/4|8c7cJcTcKs - - 4",
])
def test_unread_cards_must_be_read_first(spn: str) -> None:
    unread = Position.from_spn(spn)
    advice = hint(unread, limits=FAST)
    assert advice.move is None and not advice.lost
    assert "read the cards" in advice.reason


def test_a_session_does_not_go_round_to_a_position_it_was_shown_twice() -> None:
    start = deal_position(4, 1)
    moves = legal_moves(start)
    assert len(moves) > 2
    keep = moves[1]
    session = HintSession(FAST)
    for _ in range(2):
        session.visited.update(
            apply_move(start.observed(), move).after.spn() for move in moves if move != keep
        )
    assert session.hint(start).move == keep


def test_a_game_with_moves_but_no_win_is_proved_lost_in_every_world() -> None:
    doomed = Position.from_spn(
        "|QsKs/|QsKs/|TsJs/|TsJs/|8s9s/|8s9s/|6s7s/|6s7s/|5s4s2s2sAs5s/|As3s3s4s - ssssss 1"
    )
    advice = hint(doomed, limits=FAST)
    assert str(advice.move) == "ji" and not advice.lost
    assert advice.samples == FAST.samples == advice.proved_lost
    assert advice.wins == 0 and advice.win_estimate == 0.0


def test_a_held_back_deal_is_played_when_every_won_world_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tactics hold the deal back while a useful move is left, but not against every world's winning line."""
    start = deal_position(5, 1)
    assert any(tactical_score(start, move) > 0 for move in legal_moves(start))

    def deal_first(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(True, ("deal",), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", deal_first)
    monkeypatch.setattr(advisor, "plan_move", lambda knowledge, limits, allowed: (None, 0))
    advice = hint(start, limits=FAST)
    assert isinstance(advice.move, Deal)
    assert advice.win_estimate == 1.0


def test_a_deal_waits_while_a_plan_on_the_known_cards_gains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every world's line deals first (its search knows the stock), but the blind plan is played."""
    start = deal_position(5, 1)
    plan = planned(start)
    assert plan is not None and plan != "deal"

    def deal_first(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(True, ("deal",), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", deal_first)
    advice = hint(start, limits=FAST)
    assert str(advice.move) == plan


# No face-down card left, a deal in the stock, and a plan that gains by rearranging runs.
ALL_TURNED = (
    "|KsQsJs/|Ks/|Ks/|QsJsTs/|Qs/|Js9s8s/|Ts9s8s7s6s/|Ts9s8s7s6s/|7s6s5s4s/|3s2sAs "
    "AsAs2s2s3s3s4s4s5s5s sssss 1"
)


@pytest.mark.parametrize(
    ("spn", "stalled", "deals"),
    [
        (deal_position(5, 1).spn(), advisor.STALL_LIMIT, False),
        (ALL_TURNED, advisor.STALL_LIMIT, True),
    ],
)
def test_a_plan_holds_the_deal_back_only_while_a_card_is_face_down(
    monkeypatch: pytest.MonkeyPatch, spn: str, stalled: int, deals: bool
) -> None:
    """Long after the last card turned over the plan still holds the deal back; once every card
    on the table is face up, the worlds' deal is played."""
    start = Position.from_spn(spn)
    assert planned(start) is not None

    def deal_first(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(True, ("deal",), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", deal_first)
    session = HintSession(replace(FAST, nodes_per_move=100_000))  # room for the plan and the worlds
    session._stalled, session._last_progress = stalled, game_progress(start)
    assert isinstance(session.hint(start).move, Deal) == deals


@pytest.mark.parametrize("limits", [FAST, CHANCE_PLAN], ids=["known cards", "under chance"])
@pytest.mark.parametrize("mode", [1, 2, 4])
def test_the_blind_plan_decides_when_no_world_is_won(
    monkeypatch: pytest.MonkeyPatch, mode: int, limits: HintLimits
) -> None:
    """With no winning line anywhere, the plan a player could make beats the one-move tactical rules."""
    start = deal_position(9, mode)
    plan = planned(start, limits)
    assert plan is not None

    def nothing_found(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(False, (), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", nothing_found)
    advice = hint(start, limits=limits)
    assert advice.wins == 0 and str(advice.move) == plan


ONE_COLUMN_EMPTY = (
    "|KsQsJs/|Ks/|Ks/|QsJsTs/|Qs/|Js9s8s/|Ts9s8s7s6s/|Ts9s8s7s6s/|7s6s5s4s3s2sAs/| "
    "AsAs2s2s3s3s4s4s5s5s sssss 1"
)


def test_a_stalled_game_with_every_card_turned_heads_for_the_deal() -> None:
    """Nothing is face down and nothing was gained for STALL_LIMIT hints: fill the empty column, then deal
    (a won world's line may rearrange the runs for hundreds of moves before it deals)."""
    start = Position.from_spn(ONE_COLUMN_EMPTY)
    assert not any(isinstance(move, Deal) for move in legal_moves(start))
    session = HintSession(FAST)
    session._stalled, session._last_progress = advisor.STALL_LIMIT, game_progress(start)
    fill = session.hint(start).move
    assert str(fill) == "aj"
    filled = apply_move(start, fill).after
    assert isinstance(session.hint(filled).move, Deal)


def test_one_won_world_alone_does_not_override_the_blind_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A single world's winning line leans on that world's hidden cards; the plan a player could make
    is played unless at least MIN_AGREE worlds' lines start with the other move."""
    start = deal_position(9, 4)
    plan = planned(start)
    other = next(str(move) for move in legal_moves(start) if str(move) not in (plan, "deal"))
    calls = []

    def first_world_only(position: Position, limits: SolveLimits) -> SolveResult:
        calls.append(position)
        return SolveResult(len(calls) == 1, (other,) if len(calls) == 1 else (), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", first_world_only)
    advice = hint(start, limits=FAST)
    assert advice.wins == 1 and advice.votes == {other: 1}
    assert str(advice.move) == plan


@pytest.mark.parametrize(("stalled", "expected"), [(False, "plan"), (True, "shorter")])
def test_a_stalled_session_follows_the_shortest_winning_line(
    monkeypatch: pytest.MonkeyPatch, stalled: bool, expected: str
) -> None:
    """Every world wins after both moves. Normally the plan's move wins the tie; after STALL_LIMIT hints
    without progress the move with the shorter winning lines does, so play keeps to one line."""
    start = deal_position(9, 4)
    plan = planned(start)
    shorter = next(str(move) for move in legal_moves(start) if str(move) not in (plan, "deal"))

    def always_won(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(True, (shorter, "deal"), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", always_won)
    session = HintSession(FAST)
    if stalled:
        session._stalled, session._last_progress = advisor.STALL_LIMIT, game_progress(start)
    advice = session.hint(start)
    assert advice.votes == {shorter: FAST.samples, plan: FAST.samples}
    assert str(advice.move) == {"plan": plan, "shorter": shorter}[expected]


# Six runs removed: moving As onto column a completes a seventh and leaves 3 cards on the table with
# 10 in the stock, which can then never be dealt (every column must hold a card).
STRANDING = "|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|Ks/|Qs/|Js/|/|/|/|/| Ts9s8s7s6s5s4s3s2sAs ssssss 1"


def test_a_hint_never_strands_the_stock() -> None:
    start = Position.from_spn(STRANDING)
    assert "ba" in {str(move) for move in legal_moves(start)}
    assert str(hint(start, limits=FAST).move) != "ba"


@pytest.mark.parametrize(
    ("limits", "words"),
    [
        ({"samples": 0}, "1 to 256 worlds, not 0"),
        ({"samples": advisor.MAX_SAMPLES + 1}, "not 257"),
        ({"movetime": 0.0}, "more than 0 seconds"),
        ({"nodes_per_move": 0}, "at least 1"),
        ({"plan_iterations": -1}, "0 or more, not -1"),
    ],
)
def test_limits_a_hint_cannot_keep_are_refused(limits: dict, words: str) -> None:
    with pytest.raises(HintLimitsError, match=words):
        HintLimits(**limits)


@pytest.mark.parametrize(
    ("samples", "wins", "proved_lost", "chance", "words"),
    [
        (0, 0, 0, None, ""),
        (1, 0, 0, None, "win chance unknown: no search of 1 sampled deal finished in time"),
        (8, 0, 8, None, "win estimate 0%: 0 of 8 sampled deals won"),
        (8, 3, 5, None, "win estimate 38%: 3 of 8 sampled deals won"),
        (8, 2, 2, None, "win estimate 25%-75%: 2 of 8 sampled deals won, 4 undecided"),
        (8, 2, 2, 0.4349, "win chance about 45%: 2 of 8 sampled deals won, 4 undecided"),
        (8, 0, 8, 0.004, "win chance about 0%: 0 of 8 sampled deals won"),
        (1, 0, 0, 0.71, "win chance about 70%: no search of 1 sampled deal finished in time"),
    ],
)
def test_the_estimate_counts_undecided_worlds_apart(
    samples: int, wins: int, proved_lost: int, chance: float | None, words: str
) -> None:
    advice = advisor.Hint(None, "", None, samples=samples, wins=wins, proved_lost=proved_lost, win_chance=chance)
    assert advice.undecided == samples - wins - proved_lost
    assert advice.estimate_words() == words


def test_a_search_that_decides_no_world_gives_no_estimate() -> None:
    advice = hint(deal_position(5, 4), limits=HintLimits(movetime=math.inf, samples=2, nodes_per_move=2000, seed=3))
    assert advice.samples > 0 and advice.undecided == advice.samples
    assert advice.win_estimate is None
    assert advice.win_chance is not None
    assert advice.estimate_words().startswith("win chance about ")
    assert advice.estimate_words().endswith(" finished in time")


def test_a_worlds_line_counts_for_the_move_it_really_starts_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each world's line moves As into column c and straight back before it wins with "ba": with the
    detour cut out, the worlds vote for "ba", not for a move that their lines undo."""

    def detour(position: Position, limits: SolveLimits) -> SolveResult:
        return SolveResult(True, ("bc", "cb", "ba"), 10, 0.0, False)

    monkeypatch.setattr(advisor, "solve", detour)
    advice = hint(Position.from_spn(ONE_FROM_WIN), limits=FAST)
    assert advice.votes == {"ba": FAST.samples}
    assert str(advice.move) == "ba"


# Six runs removed; 6s..As joins column a's King run and turns a card over in column b.
RUNS_TO_JOIN = "5s|KsQsJsTs9s8s7s/3s|6s5s4s3s2sAs/2sAs|KsQsJsTs9s/4s|8s7s6s/|/|/|/|/|/| - ssssss 1"


def test_won_worlds_are_carried_to_the_next_position_with_the_card_turned_over() -> None:
    game = Game(Position.from_spn(RUNS_TO_JOIN))
    session = HintSession(replace(FAST, samples=4, nodes_per_move=20_000))
    first = session.hint(game.position.observed())
    assert str(first.move) == "ba6" and first.wins == 4
    game.play(first.move)
    observed = game.position.observed()
    second = session.hint(observed)
    assert second.wins == 4 and second.nodes < first.nodes
    assert all(world.position.observed() == observed for world in session._worlds)


@pytest.mark.parametrize("deal", [3, 8])
def test_worlds_are_drawn_by_the_session_sampler_from_what_a_player_knows(deal: int) -> None:
    real = deal_position(deal, 2)
    shown: list[Position] = []

    def sampler(knowledge: Knowledge, rng: random.Random) -> Position:
        shown.append(knowledge.position)
        return determinise(knowledge, rng)

    advice = HintSession(FAST, sampler=sampler).hint(real)
    assert shown and advice.samples <= len(shown) <= FAST.samples
    assert all(position == real.observed() for position in shown)


@pytest.mark.skipif(not native_available(), reason="the plan alone takes seconds without the compiled core")
@pytest.mark.parametrize("ceiling", [0.1, 0.3])
def test_a_hint_counted_in_positions_stops_at_its_ceiling_in_seconds(ceiling: float) -> None:
    limits = HintLimits(movetime=ceiling, samples=8, nodes_per_move=10**9, seed=2)
    advice = hint(deal_position(5, 4), limits=limits)
    assert advice.move is not None
    assert advice.seconds < ceiling + 0.25


def test_hints_are_counted_in_positions_by_default() -> None:
    assert HintLimits().nodes_per_move == advisor.HINT_POSITIONS
    assert HintLimits().movetime < math.inf
