"""The solver: solutions replay to a win, limits hold, verdicts are honest, both backends agree."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest

from spider_vision.engine import Position, apply_move, deal_position, legal_moves, resolve_move
from spider_vision.solver import SolveLimits, SolverError, native_available, solve
from spider_vision.solver.solving import explore

needs_native = pytest.mark.skipif(not native_available(), reason="native solver core not built")

# Seven runs removed; 6s..2s goes onto 7s, then the Ace completes the run.
NEARLY_WON = "|KsQsJsTs9s8s7s/|6s5s4s3s2s/|As/|/|/|/|/|/|/| - sssssss 1"
# Every column filled; 4s and then 3s go onto column i, column j is left with
# an Ace that nothing can take, and no other move exists.
NEARLY_LOST = (
    "Qs|Ks/Qs|Ks/Ts|Js/Ts|Js/8s|9s/8s|9s/6s|7s/6s|7s/5s4s3s2s2sAs|5s/As3s|4s - ssssss 1"
)
# The Ace completes Ks..As over two face-down cards: the run goes and a card turns over.
FLIP_AFTER_REMOVAL = "KsQs|KsQsJsTs9s8s7s6s5s4s3s2s/|As/|JsTs9s8s7s6s5s4s3s2sAs/|/|/|/|/|/|/| - ssssss 1"
# Nothing can move at all.
DEAD = "Qs|Ks/Qs|Ks/Ts|Js/Ts|Js/8s|9s/8s|9s/6s|7s/6s|7s/5s4s2s2sAs|5s/As4s3s|3s - ssssss 1"


def replay(start: Position, moves: tuple[str, ...]) -> Position:
    """Play the moves through the engine, which refuses any illegal one."""
    position = start
    for text in moves:
        position = apply_move(position, resolve_move(position, text)).after
    return position


def winnable_by_brute_force(start: Position) -> bool:
    """An independent oracle for tiny positions: every legal line, through the engine."""
    seen = {start.spn()}
    queue = deque([start])
    while queue:
        position = queue.popleft()
        for move in legal_moves(position):
            after = apply_move(position, move).after
            if after.is_won:
                return True
            if after.spn() not in seen:
                seen.add(after.spn())
                queue.append(after)
    return False


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_nearly_won_position_is_solved(backend: str) -> None:
    start = Position.from_spn(NEARLY_WON)
    result = solve(start, SolveLimits(seconds=5), backend=backend)  # type: ignore[arg-type]
    assert result.solved and result.verdict == "solved"
    assert replay(start, result.moves).is_won


@pytest.mark.parametrize("spn", [NEARLY_LOST, DEAD])
@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_lost_position_is_proved_lost(spn: str, backend: str) -> None:
    start = Position.from_spn(spn)
    assert not winnable_by_brute_force(start)
    result = solve(start, SolveLimits(seconds=5), backend=backend)  # type: ignore[arg-type]
    assert not result.solved
    assert result.exhaustive
    assert result.verdict == "unwinnable"
    assert result.moves == ()


def test_dead_position_really_has_no_move() -> None:
    assert legal_moves(Position.from_spn(DEAD)) == []


@pytest.mark.parametrize("number", [1, 2])
def test_one_suit_deal_solution_replays_to_a_win(number: int) -> None:
    start = deal_position(number, 1)
    result = solve(start, SolveLimits(seconds=60))
    assert result.solved
    assert not result.exhaustive
    assert replay(start, result.moves).is_won


@needs_native
@pytest.mark.parametrize(("mode", "number"), [(2, 1), (2, 3), (4, 1), (4, 3)])
def test_harder_deal_solutions_replay_to_a_win(mode: int, number: int) -> None:
    start = deal_position(number, mode)
    result = solve(start, SolveLimits(seconds=20), backend="native")
    assert result.solved
    assert replay(start, result.moves).is_won


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
@pytest.mark.parametrize("limit", [1, 500, 4000])
def test_node_limit_is_respected_and_not_called_unwinnable(backend: str, limit: int) -> None:
    limits = SolveLimits(seconds=None, nodes=limit)
    result = solve(deal_position(7, 4), limits, backend=backend)  # type: ignore[arg-type]
    assert not result.solved
    assert result.nodes == limit
    assert not result.exhaustive
    assert result.verdict == "no solution found"


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_time_limit_is_respected(backend: str) -> None:
    # Deal 95 (4 suits) takes the native core millions of positions.
    limits = SolveLimits(seconds=0.3)
    result = solve(deal_position(95, 4), limits, backend=backend)  # type: ignore[arg-type]
    assert result.seconds < 1.0
    assert not result.exhaustive
    if not result.solved:
        assert result.verdict == "no solution found"


@needs_native
@pytest.mark.parametrize(
    ("spn", "nodes"),
    [
        (NEARLY_WON, None),
        (NEARLY_LOST, None),
        (FLIP_AFTER_REMOVAL, None),
        (deal_position(1, 1).spn(), 3000),
        (deal_position(5, 2).spn(), 6000),
        (deal_position(9, 4).spn(), 6000),
    ],
)
def test_native_and_python_search_agree(spn: str, nodes: int | None) -> None:
    start = Position.from_spn(spn)
    limits = SolveLimits(seconds=None, nodes=nodes)
    native = solve(start, limits, backend="native")
    python = solve(start, limits, backend="python")
    assert (native.solved, native.moves, native.nodes, native.exhaustive) == (
        python.solved, python.moves, python.nodes, python.exhaustive,
    )


@needs_native
def test_native_and_python_agree_on_a_whole_solved_deal() -> None:
    start = deal_position(3, 1)
    limits = SolveLimits(seconds=None, nodes=2_000_000)
    native = solve(start, limits, backend="native")
    python = solve(start, limits, backend="python")
    assert native.solved
    assert (native.moves, native.nodes) == (python.moves, python.nodes)


def test_unknown_cards_are_refused() -> None:
    with pytest.raises(SolverError, match="every card known"):
        solve(deal_position(1, 4).observed())


@pytest.mark.parametrize(
    ("seconds", "nodes", "width"), [(0, None, 50), (-1.0, None, 50), (None, 0, 50), (1.0, None, 0)]
)
def test_bad_limits_are_refused(seconds: float | None, nodes: int | None, width: int) -> None:
    with pytest.raises(SolverError):
        SolveLimits(seconds=seconds, nodes=nodes, first_width=width)


@needs_native
@pytest.mark.parametrize("width", [1, 10])
def test_a_narrow_first_beam_is_searched_alike_by_both_cores(width: int) -> None:
    start = deal_position(5, 2)
    limits = SolveLimits(seconds=None, nodes=300_000, first_width=width)
    native = solve(start, limits, backend="native")
    python = solve(start, limits, backend="python")
    assert (native.solved, native.moves, native.nodes) == (python.solved, python.moves, python.nodes)
    assert native.solved and replay(start, native.moves).is_won


def test_won_position_needs_no_move() -> None:
    start = Position.from_spn("|/|/|/|/|/|/|/|/|/| - ssssssss 1")
    result = solve(start)
    assert result.solved and result.moves == ()


def test_json_form() -> None:
    result = solve(Position.from_spn(NEARLY_WON))
    data = result.to_json()
    assert set(data) == {"solved", "moves", "nodes", "seconds", "exhaustive"}
    assert data["solved"] is True and data["moves"] == list(result.moves)


def test_missing_native_core_falls_back_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from spider_vision.solver import solving

    monkeypatch.setattr(solving, "_native", None)
    assert not native_available()
    start = Position.from_spn(NEARLY_WON)
    result = solve(start)
    assert result.backend == "python" and replay(start, result.moves).is_won
    with pytest.raises(SolverError, match="not built"):
        solve(start, backend="native")
    with pytest.raises(SolverError, match="not built"):
        explore(start, 1000, backend="native")


# Every card face up, four empty columns and one deal left: the runs must be split to fill the
# columns before the deal. The pruned search used to forbid that and never found the win.
FILL_TO_DEAL = (
    "|/|/|8s7s6s5s4s3s2sAs/|KsQsJsTs/|2sAs/|QsJs/|9s8s7s/|6s/|4s/|8s7s6s5s4s3s2sAs "
    "KsQs9s5s3sJsTsTsKs9s sssss 1"
)


def test_runs_are_split_to_fill_the_columns_for_the_last_deal() -> None:
    result = solve(Position.from_spn(FILL_TO_DEAL), SolveLimits(seconds=None, nodes=3_000_000))
    assert result.solved
    position = Position.from_spn(FILL_TO_DEAL)
    for text in result.moves:
        position = apply_move(position, resolve_move(position, text)).after
    assert position.is_won


# Column a's 5h goes onto 6s in column b and turns over a card; no other card can move.
ONE_FLIP = "3|5h/|KsQsJsTs9s8s7s6s/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh 40 - 2"


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_explore_plans_with_known_cards_only(backend: str) -> None:
    start = Position.from_spn(ONE_FLIP, validate=False)
    result = explore(start, 10_000, backend=backend)  # type: ignore[arg-type]
    assert not result.won and result.moves == ("ab",)


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_explore_finds_a_win_when_every_card_is_known(backend: str) -> None:
    start = Position.from_spn(NEARLY_WON)
    result = explore(start, 10_000, backend=backend)  # type: ignore[arg-type]
    assert result.won and replay(start, result.moves).is_won


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_explore_gives_no_move_when_nothing_beats_the_position(backend: str) -> None:
    result = explore(Position.from_spn(DEAD), 10_000, backend=backend)  # type: ignore[arg-type]
    assert not result.won and result.moves == ()


@pytest.mark.parametrize("number", [3, 8])
@pytest.mark.parametrize("mode", [1, 2, 4])
def test_explore_does_not_see_hidden_cards(mode: int, number: int) -> None:
    real = deal_position(number, mode)
    hidden = [card for column in real.columns for card in column.down] + list(real.stock)
    hidden.reverse()
    columns, rest = [], hidden
    for column in real.columns:
        columns.append(replace(column, down=tuple(rest[: len(column.down)])))
        rest = rest[len(column.down) :]
    other = replace(real, columns=tuple(columns), stock=tuple(rest))
    assert other != real and other.observed() == real.observed()
    assert explore(real, 20_000) == explore(other, 20_000)


@needs_native
@pytest.mark.parametrize(("mode", "number", "nodes"), [(1, 1, None), (2, 5, 800), (4, 7, None)])
def test_native_and_python_explore_agree(mode: int, number: int, nodes: int | None) -> None:
    start = deal_position(number, mode)
    limit = nodes or 1_000_000
    assert explore(start, limit, backend="native") == explore(start, limit, backend="python")


# ONE_FLIP with column a's face-down cards known: 4h turns over first and goes onto the 5h moved to column b.
ONE_FLIP_KNOWN = "As4h|5h/|KsQsJsTs9s8s7s6s/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh 40 - 2"


@pytest.mark.parametrize(("see_face_down", "moves"), [(False, ("ab",)), (True, ("ab", "ab"))])
def test_explore_sees_face_down_cards_only_when_asked(see_face_down: bool, moves: tuple[str, ...]) -> None:
    start = Position.from_spn(ONE_FLIP_KNOWN, validate=False)
    assert explore(start, 10_000, see_face_down=see_face_down).moves == moves
