"""The plan under chance: both cores agree, hidden cards stay hidden, limits and bad input are honoured."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spider_vision.engine import Card, Position, deal_position
from spider_vision.hint.knowledge import Knowledge
from spider_vision.solver import SolverError, native_available
from spider_vision.solver.solving import plan_under_chance

needs_native = pytest.mark.skipif(not native_available(), reason="native solver core not built")

# Column a: 5h over three face-down cards, which goes onto column b's 6s and turns one over; the only
# other moves take b's Qs..6s off its Ks onto a Kh, which turns nothing over.
ONE_FLIP = "3|5h/|KsQsJsTs9s8s7s6s/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh/4|Ks/4|Kh/4|Kh 40 - 2"
# Nothing can move at all.
DEAD = "Qs|Ks/Qs|Ks/Ts|Js/Ts|Js/8s|9s/8s|9s/6s|7s/6s|7s/5s4s2s2sAs|5s/As4s3s|3s - ssssss 1"


def unseen_of(position: Position) -> tuple[Card, ...]:
    """The cards a player of ``position`` has not seen."""
    return tuple(Knowledge.of(position).unseen.elements())


@needs_native
@pytest.mark.parametrize(("mode", "number", "iterations", "nodes"), [(1, 9, 300, 0), (2, 7, 300, 0), (4, 5, 400, 900)])
def test_native_and_python_plans_agree(mode: int, number: int, iterations: int, nodes: int) -> None:
    start = deal_position(number, mode)
    unseen = unseen_of(start)
    native = plan_under_chance(start, unseen, iterations, nodes=nodes, seed=number, backend="native")
    python = plan_under_chance(start, unseen, iterations, nodes=nodes, seed=number, backend="python")
    assert native == python
    assert sum(row.visits for row in native.moves) == native.iterations


@pytest.mark.parametrize("mode", [1, 2, 4])
def test_the_plan_does_not_see_hidden_cards(mode: int, reshuffled: Callable[[Position, int], Position]) -> None:
    real = deal_position(3, mode)
    other = reshuffled(real, mode)
    assert other != real and other.observed() == real.observed()
    assert plan_under_chance(real, unseen_of(real), 500, seed=1) == plan_under_chance(
        other, unseen_of(other), 500, seed=1
    )


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=needs_native)])
def test_the_plan_turns_over_a_card_when_it_can(backend: str) -> None:
    start = Position.from_spn(ONE_FLIP, validate=False)
    unseen = tuple(start.mode.deck().elements())[:75]
    plan = plan_under_chance(start, unseen, 300, seed=4, backend=backend)  # type: ignore[arg-type]
    assert {row.move for row in plan.moves} == {"ab", "be7", "bh7"}
    assert plan.choice({row.move for row in plan.moves}) == "ab"


def test_no_move_is_no_plan() -> None:
    dead = Position.from_spn(DEAD)
    plan = plan_under_chance(dead, tuple(card for column in dead.columns for card in column.down), 50)
    assert plan.moves == () and plan.choice(set()) is None


@needs_native
def test_the_position_limit_stops_the_search() -> None:
    start = deal_position(5, 4)
    plan = plan_under_chance(start, unseen_of(start), 3000, nodes=2000)
    assert plan.iterations < 3000 and 2000 <= plan.nodes < 2000 + 400


def test_a_move_not_allowed_is_not_chosen() -> None:
    start = deal_position(2, 2)
    plan = plan_under_chance(start, unseen_of(start), 300, seed=2)
    chosen = plan.choice({row.move for row in plan.moves})
    assert chosen is not None
    assert plan.choice({row.move for row in plan.moves} - {chosen}) not in (None, chosen)


@pytest.mark.parametrize(
    ("unseen", "iterations", "message"),
    [(10, 100, "10 unseen cards for 94 hidden places"), (94, 0, "at least one iteration")],
)
def test_bad_requests_are_refused(unseen: int, iterations: int, message: str) -> None:
    start = deal_position(1, 1)
    with pytest.raises(SolverError, match=message):
        plan_under_chance(start, unseen_of(start)[:unseen], iterations)
